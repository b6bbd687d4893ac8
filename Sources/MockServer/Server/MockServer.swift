package import AutomationSupport

/// The mock backend: answers requests from a ``StubSet``, counts calls per route, keeps scenario states and
/// the journal, explains every unexpected request, and serves the admin API under `/__admin`.
public final class MockServer: Sendable {
    private let server: HTTPServer
    /// The proxy listener of ``Options/intercept``, on a port of its own.
    private let proxy: HTTPServer?
    let parts: Parts

    /// The server's state in parts, each with its own lock and methods; the admin API and the control
    /// channel call them (no lock spans two parts, and none is held while matching).
    struct Parts: Sendable {
        /// What answers: stubs, call counts, scenario states.
        let stubs: StubRegistry
        /// What was received: the journal, request count, unexpected requests.
        let journal: JournalStore
        /// Messages for the program under test and its acknowledgements.
        let control: ControlQueue
        /// Options, address and port, global delay, callbacks.
        let settings: ServerSettings
        /// What was forwarded to real backends, its failures, the recording in progress.
        let proxy: ProxyLog
    }

    /// How the server treats its admin API and journal.
    public struct Options: Sendable {
        /// Requests kept in the journal (the oldest go first).
        public var journalLimit = 10_000
        /// Serve `/__admin` (`--no-admin` turns it off: those paths are then ordinary requests).
        public var admin = true
        /// Keep `Authorization`, `Cookie` and `Proxy-Authorization` values in the journal's JSON (`--journal-secrets`).
        public var journalSecrets = false
        /// Template every WireMock mapping's response, also those added through the admin API
        /// (`--global-response-templating`; load-time mappings are templated by `sut-launch` when it loads them).
        public var globalResponseTemplating = false
        /// Serve HTTPS with this context (``TLSServerContext/minted(hosts:)`` or the user's certificate); nil:
        /// plain HTTP.
        package var tls: TLSServerContext?
        /// Also be the program's proxy for these hosts, on a listener of its own (``proxyURL``); nil: no proxy.
        package var intercept: Interception?
        /// Forward every request no stub matches to this backend (`--proxy-unmatched`); nil: a 404 and a near miss.
        package var proxyUnmatched: ProxyRule?
        /// Names besides this machine's that requests to be forwarded may carry in `Host` or `Origin` (`--allow-host`,
        /// `--https-host`; `*.` and a name covers one label): ``ForwardingPolicy``.
        package var forwardingHosts: [String] = []
        /// Deadlines, sizes and trust of every forward to a backend.
        package var upstream = UpstreamClient.Limits()
        /// Where a recording with `persist` writes its `mappings/` and `__files/` (`serve`'s root, `--into`); nil: the
        /// recorded mappings are only added to the server.
        package var recordingRoot: String?
        /// Work units each request's matching may spend, and each admin search (``MatchBudget``); tests lower it.
        package var matchBudget = MatchBudget.perRequest
        /// Who may change the server through the admin API (``AdminWrites``); `.open` here, as `serve`: every run
        /// (``ServerPlan``) sets `.refuse` unless told otherwise.
        public var adminWrites = AdminWrites.open
        /// The defaults: admin API on, secrets redacted, 10,000 journal entries, no global templating, plain HTTP.
        public init() {}
    }

    /// - Parameters:
    ///   - stubs: what to answer.
    ///   - journalLimit: requests kept in the journal (the oldest go first).
    public convenience init(stubs: StubSet, host: String = "127.0.0.1", limits: ServerLimits = ServerLimits(), journalLimit: Int = 10_000) {
        var options = Options()
        options.journalLimit = journalLimit
        self.init(stubs: stubs, host: host, limits: limits, options: options)
    }

    /// - Parameters:
    ///   - stubs: what to answer.
    ///   - options: admin API and journal settings.
    public init(stubs: StubSet, host: String, limits: ServerLimits = ServerLimits(), options: Options) {
        let parts = Parts(
            stubs: StubRegistry(stubs), journal: JournalStore(limit: options.journalLimit, keepsSecrets: options.journalSecrets),
            control: ControlQueue(), settings: ServerSettings(host: host, options: options),
            proxy: ProxyLog(limits: options.upstream, unmatched: options.proxyUnmatched))
        self.parts = parts
        let refused: @Sendable (HTTPRequest, MockResponse) -> Void = { request, response in
            // Counted as unexpected (a strict run fails on it), with why in place of a near miss.
            let reason = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: "\n")
            // The first line is the request, as a near miss's ("No stub matched …"); the summary shows the second.
            let nearMiss = "Refused \(request.method) \(request.target)\nrefused \(response.status): \(reason)"
            _ = parts.journal.record(request, stub: nil, response: response, nearMiss: nearMiss, refused: true)
            parts.settings.onUnexpected?(request)
        }
        let handler: HTTPServer.Handler = { request in MockServer.respond(to: request, parts: parts) }
        self.server = HTTPServer(host: host, limits: limits, tls: options.tls, refused: refused, handler: handler)
        self.proxy = options.intercept.map {
            HTTPServer(host: host, limits: limits, intercept: $0, refused: refused, handler: handler)
        }
    }

    /// Starts listening. Returns the bound port (useful with port 0).
    /// - Throws: ``Socket/Error`` when the address cannot be bound.
    @discardableResult
    public func start(port: UInt16) throws -> UInt16 {
        try start(listener: Socket.listen(host: server.host, port: port))
    }

    /// Starts on a socket that already listens, and owns it from now on (`serve` listens before it loads its
    /// stubs: a client that connects meanwhile is answered once they are loaded, without retrying).
    @discardableResult
    package func start(listener: Socket) throws -> UInt16 {
        if let proxy {
            do { try proxy.start(port: 0) } catch {
                listener.close()
                throw error
            }
        }
        let bound: UInt16
        do { bound = try server.start(listener: listener) } catch {
            proxy?.stop()
            throw error
        }
        parts.settings.listeningPort = bound
        parts.stubs.buildRouter()
        return bound
    }

    /// Calls `observer` after each request is answered (on the connection's thread).
    public func onRequest(_ observer: @escaping @Sendable (JournalEntry) -> Void) {
        parts.settings.onRequest = observer
    }

    /// What `POST /__admin/shutdown` does, after answering 200 (`serve` ends the process as Ctrl-C would, writing its
    /// journal). Without a handler the request is refused (403) and unexpected: a server a run judges its program by
    /// is not the program's to stop (every request after it would be refused by the socket, never counted).
    package func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        parts.settings.onShutdown = handler
    }

    /// Calls `observer` for every request no stub matched (before the 404 goes out).
    public func onUnexpected(_ observer: @escaping @Sendable (HTTPRequest) -> Void) {
        parts.settings.onUnexpected = observer
    }

    /// Calls a test declared it expects, in declaration order (AutomationTesting's `expect` and
    /// `waitForExpectations` read them).
    package let declaredExpectations = Locked<[(route: RouteKey, times: Int)]>([])

    /// Adds stubs while the server runs, after the others (most recent: they win among equals), as the admin API's
    /// `POST /__admin/mappings` does.
    package func add(_ stubs: StubSet) { parts.stubs.add(stubs.stubs) }

    /// Changes what an unexpected request means for ``summary``'s failures (a scenario that turns strict
    /// or lenient after its server started).
    package func setUnexpectedPolicy(_ policy: StubSet.UnexpectedPolicy) {
        parts.stubs.unexpectedPolicy = policy
    }

    /// Stops listening and closes every connection.
    public func stop() {
        parts.control.endRun()
        parts.journal.webhooks.stopAccepting()
        server.stop()
        proxy?.stop()
    }

    /// Waits until every request its clients have sent so far has been read and answered, up to `timeout`. Call it
    /// before reading the journal or the summary when a client may have sent a request just before it exited:
    /// what is still in a socket's buffer is not in the journal yet.
    /// - Returns: false when a request was still arriving or being answered at the deadline.
    @discardableResult
    public func settle(timeout: Duration = .seconds(2)) -> Bool {
        let start = ContinuousClock.now
        guard server.settle(timeout: timeout) else { return false }
        guard proxy?.settle(timeout: max(.zero, timeout - (ContinuousClock.now - start))) ?? true else { return false }
        return true
    }

    /// Stops sending webhooks: those of later answers are not sent, each a failure named in the summary.
    package func stopSendingWebhooks() { parts.journal.webhooks.stopAccepting() }

    /// Stops sending webhooks (those of later answers are failures, named), then waits for the webhooks of answers
    /// already given, until the last one's delay and deadlines have passed as they stand now, or `timeout` first;
    /// false when some were still being sent then (the summary names them as failures). `interrupted` (a signal)
    /// ends the wait at once.
    @discardableResult
    package func waitForWebhooks(timeout: Duration? = nil, interrupted: () -> Bool = { false }) -> Bool {
        parts.journal.webhooks.waitWhilePending(timeoutMs: timeout.map { $0.seconds * 1000 }, interrupted: interrupted)
    }

    /// The port it listens on (the one chosen when started with port 0).
    public var port: UInt16 { server.port }
    package var listeningDescriptor: Int32? { server.listeningDescriptor }
    /// `http://127.0.0.1:PORT` (`https://` when it serves TLS).
    public var baseURL: String { server.baseURL }

    /// The TLS context it serves with; nil for plain HTTP.
    package var tls: TLSServerContext? { server.tls }

    /// The authority clients must trust (PEM): the one minted for HTTPS or for interception; nil when there is none
    /// (plain HTTP, or the user's own certificate).
    package var authorityPEM: String? { server.tls?.authorityPEM ?? proxy?.intercept?.context.authorityPEM }

    /// `http://127.0.0.1:PORT` of the proxy listener when the server intercepts hosts (``Options/intercept``), else nil.
    package var proxyURL: String? {
        guard let proxy else { return nil }
        return server.host.contains(":") ? "http://[\(server.host)]:\(proxy.port)" : "http://\(server.host):\(proxy.port)"
    }

    /// The hosts the proxy listener answers for (empty without interception).
    package var interceptedHosts: [String] { proxy?.intercept?.hosts ?? [] }

    /// The journal so far.
    public var journal: Journal { parts.journal.snapshot }

    /// When the server started, in AutomationSupport's MonotonicClock milliseconds: a journal entry's
    /// `receivedAtMs` plus this is comparable with other monotonic times (a program's output arrivals).
    package var startedAtMs: Double { parts.journal.startedAtMs }
}
