#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mock backend: answers requests from a ``StubSet``, counts calls per route, keeps scenario states and
/// the journal, explains every unexpected request, and serves the admin API under `/__admin`.
public final class StubServer: Sendable {
    private let server: HTTPServer
    let state: State

    final class State: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        var fileStubs: StubSet
        var router: Router
        var counts: [Int]
        var scenarios: [String: String] = [:]
        var journal: Journal
        var sequence = 0
        let started = State.now()
        var observer: (@Sendable (JournalEntry) -> Void)?
        var unexpectedObserver: (@Sendable (HTTPRequest) -> Void)?
        /// Messages for the program under test (`/__sut/control`), oldest first.
        var controlMessages: [String] = []
        var controlSignal = pthread_cond_t()

        init(stubs: StubSet, journalLimit: Int) {
            fileStubs = stubs
            router = Router(stubs.stubs)
            counts = [Int](repeating: 0, count: stubs.count)
            journal = Journal(limit: journalLimit)
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&controlSignal, nil)
        }

        /// Waits up to `timeoutMs` for a control message and takes it.
        func nextControlMessage(timeoutMs: Int) -> String? {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += timeoutMs / 1000
            deadline.tv_nsec += (timeoutMs % 1000) * 1_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            while controlMessages.isEmpty {
                if pthread_cond_timedwait(&controlSignal, &mutex, &deadline) != 0 { break }
            }
            return controlMessages.isEmpty ? nil : controlMessages.removeFirst()
        }

        func sendControlMessage(_ message: String) {
            pthread_mutex_lock(&mutex)
            controlMessages.append(message)
            pthread_cond_broadcast(&controlSignal)
            pthread_mutex_unlock(&mutex)
        }

        func locked<R>(_ body: (State) throws -> R) rethrows -> R {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return try body(self)
        }

        static func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
        }
    }

    /// - Parameters:
    ///   - stubs: what to answer.
    ///   - journalLimit: requests kept in the journal (the oldest go first).
    public init(stubs: StubSet, host: String = "127.0.0.1", limits: ServerLimits = ServerLimits(), journalLimit: Int = 10_000) {
        let state = State(stubs: stubs, journalLimit: journalLimit)
        self.state = state
        self.server = HTTPServer(host: host, limits: limits) { request in
            StubServer.respond(to: request, state: state)
        }
    }

    /// Starts listening. Returns the bound port (useful with port 0).
    /// - Throws: ``Socket/Error`` when the address cannot be bound.
    @discardableResult
    public func start(port: UInt16) throws -> UInt16 { try server.start(port: port) }

    /// Calls `observer` after each request is answered (on the connection's thread).
    public func onRequest(_ observer: @escaping @Sendable (JournalEntry) -> Void) {
        state.locked { $0.observer = observer }
    }

    /// Calls `observer` for every request no stub matched (before the 404 goes out).
    public func onUnexpected(_ observer: @escaping @Sendable (HTTPRequest) -> Void) {
        state.locked { $0.unexpectedObserver = observer }
    }

    /// Queues a message for the program under test; it receives it from `GET /__sut/control` (long poll).
    public func sendControlMessage(_ message: String) { state.sendControlMessage(message) }

    /// Stops listening and closes every connection.
    public func stop() { server.stop() }

    public var port: UInt16 { server.port }
    package var listeningDescriptor: Int32? { server.listeningDescriptor }
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { server.baseURL }

    /// The journal so far.
    public var journal: Journal { state.locked { $0.journal } }

    /// Call counts, unexpected requests and expectation results so far.
    public var summary: ServerSummary {
        state.locked { state in
            let stubs = state.router.stubs
            let routes = stubs.indices.map { index in
                ServerSummary.Route(id: stubs[index].id, name: stubs[index].name, source: stubs[index].source,
                                    calls: state.counts[index], expectationFailure: stubs[index].expectation?.check(state.counts[index]))
            }
            let unexpected = state.journal.ordered.filter(\.isUnexpected).map {
                ServerSummary.UnexpectedRequest(method: $0.request.method, url: $0.request.target, nearMiss: $0.nearMiss ?? "")
            }
            return ServerSummary(routes: routes, unexpected: unexpected, totalRequests: state.sequence, policy: state.fileStubs.unexpected)
        }
    }

    // MARK: Answering

    /// Answers a request as if it had come over a socket (journal, counts and scenarios included).
    public func handle(_ request: HTTPRequest) -> MockResponse { Self.respond(to: request, state: state) }

    static func respond(to request: HTTPRequest, state: State) -> MockResponse {
        if request.path.hasPrefix("/__admin") {
            return AdminAPI.respond(to: request, state: state)
        }
        if request.path == "/__sut/control" {
            return AdminAPI.control(request, state: state)
        }
        let input = MatchInput(request)
        let chosen: (index: Int, stub: Stub, call: Int)? = state.locked { state in
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
        let response: MockResponse
        var nearMiss: String?
        if let chosen {
            let definition = chosen.stub.responses[min(chosen.call, chosen.stub.responses.count) - 1]
            if let handler = definition.handler {
                response = handler(request, chosen.call)
            } else {
                response = definition.filesDirectory.map { serveFile(request, stub: chosen.stub, directory: $0) } ?? definition.response
            }
        } else {
            let stubs = state.locked { $0.router.stubs }
            nearMiss = NearMiss.explain(input, stubs: stubs, scenarios: state.locked { $0.scenarios })
            response = .text(nearMiss! + "\n", status: 404)
            state.locked { $0.unexpectedObserver }?(request)
        }
        let (entry, observer) = state.locked { state in
            state.sequence += 1
            let entry = JournalEntry(
                sequence: state.sequence, receivedAtMs: State.now() - state.started, request: request,
                stubID: chosen?.stub.id, stubName: chosen?.stub.name, status: response.status,
                fault: response.fault?.rawValue, nearMiss: nearMiss)
            state.journal.append(entry)
            return (entry, state.observer)
        }
        observer?(entry)
        return response
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
              real.hasPrefix(root + "/"), FileSystem.isRegularFile(real), let bytes = FileSystem.read(real) else {
            return .text("no such file: \(segments.joined(separator: "/"))\n", status: 404)
        }
        return MockResponse(status: 200, headers: ["Content-Type": ContentType.forPath(real)], body: bytes)
    }
}
