package import AutomationSupport
/// The mock backend: answers requests from a ``StubSet``, counts calls per route, keeps scenario states and
/// the journal, explains every unexpected request, and serves the admin API under `/__admin`.
public final class MockServer: Sendable {
    private let server: HTTPServer
    let state: State

    final class State: @unchecked Sendable {
        private let lock = Lock()
        var fileStubs: StubSet
        /// What answers. Matching runs on a snapshot, outside the lock; ``version`` says whether the
        /// snapshot is still current when its result is committed (counts, scenario transitions).
        /// Built on first use: ``MockServer/start(port:)`` builds it once the socket listens, so that with
        /// thousands of routes the first connection is accepted meanwhile (its request waits for the router).
        var router: Router {
            get {
                if let routerStorage { return routerStorage }
                let built = Router(pendingStubs)
                routerStorage = built
                pendingStubs = []
                return built
            }
            set {
                routerStorage = newValue
                version += 1
            }
        }
        private var routerStorage: Router?
        private var pendingStubs: [Stub]
        /// True while ``buildRouter()`` runs (with the lock held).
        private let routerBeingBuilt = AtomicFlag()

        /// Builds the router now (``MockServer/start(port:)``, once the socket listens).
        func buildRouter() {
            routerBeingBuilt.value = true
            locked { _ = $0.router }
            routerBeingBuilt.value = false
        }

        /// A request that arrives while the router is built polls for it, up to 10 ms, rather than block on the
        /// lock: a thread blocked then woken takes ~0.1 ms to run again on this VM, and this is the first answer.
        func waitWhileTheRouterIsBuilt() {
            guard routerBeingBuilt.value else { return }
            _ = pollBriefly(milliseconds: 10) { !routerBeingBuilt.value }
        }
        var counts: [Int]
        var scenarios: [String: String] = [:] { didSet { version += 1 } }
        private(set) var version = 0
        var journal: Journal
        var sequence = 0
        /// Unexpected requests, kept apart from the journal so none is lost when the journal drops old
        /// entries (strictness must not depend on the journal's size); the first 1,000 are described.
        var unexpected: [ServerSummary.UnexpectedRequest] = []
        var unexpectedTotal = 0
        let options: MockServer.Options
        /// The address the server listens on (the admin API also answers a `Host` naming it).
        let host: String
        /// The port it listens on, once started (an `Origin` must name it).
        var port: UInt16 = 0
        let started = State.now()
        var observer: (@Sendable (JournalEntry) -> Void)?
        var unexpectedObserver: (@Sendable (HTTPRequest) -> Void)?
        /// WireMock's global `fixedDelay` (`POST /__admin/settings`), added to every stub's answer.
        var globalDelayMs = 0
        /// What `POST /__admin/shutdown` does once its answer is out (default: stop listening).
        var shutdownHandler: (@Sendable () -> Void)?
        /// Messages for the program under test (`/__sut/control`), oldest first, with their ids.
        var controlMessages: [(id: Int, text: String)] = []
        var lastControlId = 0
        /// The id of the last message the program took (messages are taken in order).
        var lastTakenControlId = 0
        /// Replies of acknowledged messages by id (the latest ``controlAckLimit``).
        var controlAcks: [Int: String] = [:]

        init(stubs: StubSet, host: String, options: MockServer.Options) {
            self.host = host
            fileStubs = stubs
            pendingStubs = stubs.stubs
            counts = [Int](repeating: 0, count: stubs.count)
            journal = Journal(limit: options.journalLimit)
            self.options = options
        }

        /// Messages queued and not yet received; a test that sends more gets 503 (a program that never reads).
        static let controlQueueLimit = 10_000
        /// Bytes of messages queued and not yet received (each may be as large as a request body).
        static let controlQueueByteLimit = 64 << 20
        /// Acknowledgements kept for tests to wait on; the oldest go first.
        static let controlAckLimit = 1_000
        /// The largest control message, in bytes of UTF-8.
        static let controlMessageLimit = 1 << 20
        /// Bytes of acknowledgement replies kept; the oldest go first.
        static let controlAckByteLimit = 64 << 20
        private var controlQueueBytes = 0
        private var controlAckBytes = 0

        /// Waits up to `timeoutMs` for a control message and takes it.
        func nextControlMessage(timeoutMs: Int) -> (id: Int, text: String)? {
            lock.withLock {
                guard lock.wait(until: { !controlMessages.isEmpty }, timeoutMs: timeoutMs) else { return nil }
                let message = controlMessages.removeFirst()
                lastTakenControlId = message.id
                controlQueueBytes -= message.text.utf8.count
                lock.broadcast()
                return message
            }
        }

        /// Queues a message: its id, or why it was not queued (the queue is full, the message too large).
        func enqueueControlMessage(_ message: String) -> Result<Int, ControlQueueError> {
            let size = message.utf8.count
            guard size <= Self.controlMessageLimit else { return .failure(.tooLarge(bytes: size, limit: Self.controlMessageLimit)) }
            return lock.withLock {
                guard controlMessages.count < Self.controlQueueLimit else { return .failure(.full(limit: Self.controlQueueLimit)) }
                guard controlQueueBytes + size <= Self.controlQueueByteLimit else { return .failure(.fullBytes(limit: Self.controlQueueByteLimit)) }
                lastControlId += 1
                controlMessages.append((lastControlId, message))
                controlQueueBytes += size
                lock.broadcast()
                return .success(lastControlId)
            }
        }

        /// Queues a message; its id, or nil when it was not queued.
        func sendControlMessage(_ message: String) -> Int? { try? enqueueControlMessage(message).get() }

        /// Waits up to `timeoutMs` until the program took message `id` (`GET /__sut/control` answered it).
        func waitForControlDelivery(_ id: Int, timeoutMs: Int) -> Bool {
            lock.withLock { lock.wait(until: { lastTakenControlId >= id }, timeoutMs: timeoutMs) }
        }

        /// Records the program's acknowledgement of message `id`; false for an id never sent.
        func acknowledgeControlMessage(_ id: Int, reply: String) -> Bool {
            lock.withLock {
                guard id > 0, id <= lastControlId else { return false }
                controlAckBytes += reply.utf8.count - (controlAcks[id]?.utf8.count ?? 0)
                controlAcks[id] = reply
                while controlAcks.count > 1 && (controlAcks.count > Self.controlAckLimit || controlAckBytes > Self.controlAckByteLimit),
                      let oldest = controlAcks.keys.min(), oldest != id {
                    controlAckBytes -= controlAcks.removeValue(forKey: oldest)?.utf8.count ?? 0
                }
                lock.broadcast()
                return true
            }
        }

        /// Waits up to `timeoutMs` for the acknowledgement of message `id`; its reply, or nil.
        func waitForControlAcknowledgement(_ id: Int, timeoutMs: Int) -> String? {
            lock.withLock {
                guard lock.wait(until: { controlAcks[id] != nil }, timeoutMs: timeoutMs) else { return nil }
                return controlAcks[id]
            }
        }

        func locked<R>(_ body: (State) throws -> R) rethrows -> R {
            try lock.withLock { try body(self) }
        }

        static func now() -> Double { MonotonicClock.milliseconds() }
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
        /// (`--global-response-templating`; load-time mappings are templated by ``StubSet/templateWireMockResponses()``).
        public var globalResponseTemplating = false
        /// The defaults: admin API on, secrets redacted, 10,000 journal entries, no global templating.
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
        let state = State(stubs: stubs, host: host, options: options)
        self.state = state
        self.server = HTTPServer(host: host, limits: limits) { request in
            MockServer.respond(to: request, state: state)
        }
        let server = self.server
        state.locked { $0.shutdownHandler = { [weak server] in server?.stop() } }
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
        let bound = try server.start(listener: listener)
        state.locked { $0.port = bound }
        state.buildRouter()
        return bound
    }

    /// Calls `observer` after each request is answered (on the connection's thread).
    public func onRequest(_ observer: @escaping @Sendable (JournalEntry) -> Void) {
        state.locked { $0.observer = observer }
    }

    /// What `POST /__admin/shutdown` does, after answering 200 (default: the server stops listening; `serve`
    /// ends the process as Ctrl-C would, writing its journal).
    public func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        state.locked { $0.shutdownHandler = handler }
    }

    /// Calls `observer` for every request no stub matched (before the 404 goes out).
    public func onUnexpected(_ observer: @escaping @Sendable (HTTPRequest) -> Void) {
        state.locked { $0.unexpectedObserver = observer }
    }

    /// Calls a test declared it expects, in declaration order (AutomationTesting's `expect` and
    /// `waitForExpectations` read them).
    package let declaredExpectations = Locked<[(route: RouteKey, times: Int)]>([])

    /// Changes what an unexpected request means for ``summary``'s failures (a scenario that turns strict
    /// or lenient after its server started).
    package func setUnexpectedPolicy(_ policy: StubSet.UnexpectedPolicy) {
        state.locked { $0.fileStubs.unexpected = policy }
    }

    /// Stops listening and closes every connection.
    public func stop() { server.stop() }

    /// The port it listens on (the one chosen when started with port 0).
    public var port: UInt16 { server.port }
    package var listeningDescriptor: Int32? { server.listeningDescriptor }
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { server.baseURL }

    /// The journal so far.
    public var journal: Journal { state.locked { $0.journal } }

    /// When the server started, in AutomationSupport's MonotonicClock milliseconds: a journal entry's
    /// `receivedAtMs` plus this is comparable with other monotonic times (a program's output arrivals).
    package var startedAtMs: Double { state.started }

    /// Call counts, unexpected requests and expectation results so far.
    public var summary: ServerSummary {
        state.locked { state in
            let stubs = state.router.stubs
            let routes = stubs.indices.map { index in
                ServerSummary.Route(id: stubs[index].id, name: stubs[index].name, source: stubs[index].source,
                                    calls: state.counts[index], expectationFailure: stubs[index].expectation?.check(state.counts[index]))
            }
            return ServerSummary(routes: routes, unexpected: state.unexpected, unexpectedTotal: state.unexpectedTotal,
                                 totalRequests: state.sequence, journalDropped: state.journal.dropped, policy: state.fileStubs.unexpected)
        }
    }

    // MARK: Answering

    /// Answers a request as if it had come over a socket (journal, counts and scenarios included).
    public func handle(_ request: HTTPRequest) -> MockResponse { Self.respond(to: request, state: state) }

    static func respond(to request: HTTPRequest, state: State) -> MockResponse {
        state.waitWhileTheRouterIsBuilt()
        if let policy = EndpointPolicy.guarding(request.path, admin: state.options.admin) {
            if let refusal = policy.refusal(of: request, serverHost: state.host, serverPort: { state.locked { $0.port } }) { return refusal }
            switch policy.endpoint {
            case .admin: return AdminAPI.respond(to: request, state: state)
            case .control: return AdminAPI.control(request, state: state)
            }
        }
        let input = MatchInput(request)
        let chosen = choose(input, state: state)
        let response: MockResponse
        var nearMiss: String?
        if let chosen {
            let definition = chosen.stub.response(forCall: chosen.call)
            if let handler = definition.handler {
                var request = request
                request.pathParameters = chosen.stub.pathParameterValues(input) ?? [:]
                response = HTTPField.checked(handler(request, chosen.call)) // the journal sees what the writer sends
            } else if let template = definition.template {
                var request = request
                request.pathParameters = chosen.stub.pathParameterValues(input) ?? [:]
                response = HTTPField.checked(template.apply(to: definition.response, for: request))
            } else {
                response = definition.filesDirectory.map { serveFile(request, stub: chosen.stub, directory: $0) } ?? definition.response
            }
        } else {
            let (stubs, scenarios) = state.locked { ($0.router.stubs, $0.scenarios) }
            nearMiss = NearMiss.explain(input, stubs: stubs, scenarios: scenarios)
            response = .text(nearMiss! + "\n", status: 404)
            state.locked { $0.unexpectedObserver }?(request)
        }
        var answer = response
        let (entry, observer) = state.locked { state in
            // Saturating: a delay from code (a handler) may be anything; the sleep caps it.
            if chosen != nil {
                let (sum, overflow) = max(0, answer.delayMs).addingReportingOverflow(state.globalDelayMs)
                answer.delayMs = overflow ? Int.max : sum
            }
            state.sequence += 1
            let entry = JournalEntry(
                sequence: state.sequence, receivedAtMs: State.now() - state.started, request: request,
                stubID: chosen?.stub.id, stubName: chosen?.stub.name, status: response.status,
                fault: response.fault?.rawValue, nearMiss: nearMiss)
            if let nearMiss {
                state.unexpectedTotal += 1
                if state.unexpected.count < 1_000 {
                    state.unexpected.append(ServerSummary.UnexpectedRequest(method: request.method, url: request.target, nearMiss: nearMiss))
                }
            }
            state.journal.append(entry)
            return (entry, state.observer)
        }
        observer?(entry)
        return answer
    }

    /// The stub that answers, its index and call number. Matching (regular expressions, JSON bodies) runs
    /// on a snapshot of the router without the lock, so one slow match never blocks other connections;
    /// the result is committed under the lock only if nothing changed meanwhile (else it is redone).
    private static func choose(_ input: MatchInput, state: State) -> (index: Int, stub: Stub, call: Int)? {
        for _ in 0..<4 {
            let (router, scenarios, version) = state.locked { ($0.router, $0.scenarios, $0.version) }
            var found: (index: Int, stub: Stub)?
            for index in router.candidates(for: input) {
                let stub = router.stubs[index]
                let scenarioState = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
                if stub.matches(input, scenarioState: scenarioState) {
                    found = (index, stub)
                    break
                }
            }
            let committed: (Bool, (index: Int, stub: Stub, call: Int)?) = state.locked { state in
                guard state.version == version else { return (false, nil) }
                guard let found else { return (true, nil) }
                state.counts[found.index] += 1
                if let scenario = found.stub.scenario, let newState = scenario.newState { state.scenarios[scenario.name] = newState }
                return (true, (found.index, found.stub, state.counts[found.index]))
            }
            if committed.0 { return committed.1 }
        }
        // The stubs keep changing under us (an admin client adding mappings in a loop): decide under the lock.
        return state.locked { state in
            for index in state.router.candidates(for: input) {
                let stub = state.router.stubs[index]
                let scenarioState = stub.scenario.map { state.scenarios[$0.name] ?? ScenarioStates.started }
                guard stub.matches(input, scenarioState: scenarioState) else { continue }
                state.counts[index] += 1
                if let scenario = stub.scenario, let newState = scenario.newState { state.scenarios[scenario.name] = newState }
                return (index, stub, state.counts[index])
            }
            return nil
        }
    }

    /// Serves a file below `directory`: the request path after the route's literal prefix names it. No path
    /// escapes the directory (`..`, absolute paths and symlinks out are refused).
    static func serveFile(_ request: HTTPRequest, stub: Stub, directory: String) -> MockResponse {
        guard case .template(let template) = stub.url else { return .text("not found\n", status: 404) }
        let literalCount = template.prefix { if case .literal = $0 { return true } else { return false } }.count
        let segments = MatchInput(request).segments.dropFirst(literalCount).map { PercentEncoding.decode($0, plusAsSpace: false) }
        guard !segments.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty || $0.contains("/") || $0.contains("\0") }) else {
            return .text("no such file\n", status: 404)
        }
        let candidate = directory + "/" + segments.joined(separator: "/")
        guard let real = FileSystem.realPath(candidate), let root = FileSystem.realPath(directory),
              real.hasPrefix(root + "/"), FileSystem.isRegularFile(real) else {
            return .text("no such file: \(segments.joined(separator: "/"))\n", status: 404)
        }
        guard let bytes = FileSystem.read(real) else {
            return .text("cannot serve \(segments.joined(separator: "/")): \(FileSystem.unreadable(real))\n", status: 500)
        }
        return MockResponse(status: 200, headers: ["Content-Type": ContentType.forPath(real)], body: bytes)
    }
}
