/// The stubs a mock server answers with, loaded from native stub files and WireMock mappings side by side.
public struct StubSet: Sendable {
    /// What to do with a request no stub matches.
    public enum UnexpectedPolicy: String, Sendable {
        /// Answer 404 with the near-miss explanation, and list it in the summary.
        case report = "404"
        /// The same, and the run fails (exit 4 when the program itself passed).
        case fail
    }

    public internal(set) var stubs: [Stub] = []
    /// What an unexpected request gets: a 404 reported in the summary (default), or the run fails.
    public var unexpected: UnexpectedPolicy = .report
    /// The files loaded, in order.
    public internal(set) var files: [String] = []
    /// What a directory held that was not loaded, one line each (a file that is not `.json`, a directory that gave
    /// nothing): said, never skipped silently.
    package internal(set) var notices: [String] = []
    /// WireMock roots whose `mappings/` gave no mapping: a run or `check` that asked for them refuses this (exit 3,
    /// as an empty stub directory is); `serve` starts from them (to record into them).
    package internal(set) var emptyRoots: [String] = []
    /// The `__files` directories WireMock mappings were loaded against, in order (a root's `ROOT/__files`): the
    /// first is where mappings added through the admin API read their `bodyFileName`s, as WireMock's root.
    package internal(set) var bodyFileDirectories: [String] = []

    /// No stubs: every request is unexpected.
    public init() {}

    /// Adds another set's stubs after this one's (its `unexpected: fail` carries over).
    ///
    /// Among equally good matches (same priority and path specificity) the stub added later wins, as in
    /// WireMock ("most recent first"): a scenario's routes override its Background's, a later `--stub` an earlier one.
    public mutating func merge(_ other: StubSet) {
        for stub in other.stubs { append(stub) }
        if other.unexpected == .fail { unexpected = .fail }
        files += other.files
        notices += other.notices
        emptyRoots += other.emptyRoots
        bodyFileDirectories += other.bodyFileDirectories
    }

    /// Appends one stub, numbering it after the ones present: after the last one's number, not the count (once a stub
    /// was removed, the count repeated a number kept, and the new stub tied with an older one and lost to it).
    mutating func append(_ stub: Stub) {
        stub.order = (stubs.last?.order ?? 0) + 1
        stubs.append(stub)
    }

    /// Adds a route answered by code, as a native route with this method (nil: any) and path template.
    /// - Parameter handler: gets the request and its call number (1, 2, …) for this route.
    public mutating func addRoute(
        method: String?, path: String, name: String? = nil, source: String = "code",
        expectedCalls: Stub.Expectation? = nil,
        handler: @escaping @Sendable (HTTPRequest, Int) -> MockResponse
    ) {
        let label = name ?? "\(method ?? "ANY") \(path)"
        let stub = Stub(
            id: "\(source)#\(stubs.count + 1)", name: label, source: source, method: method,
            url: .template(PathSegment.parse(path, decoding: true)),
            responses: [ResponseDefinition(response: MockResponse(), handler: handler)])
        stub.expectation = expectedCalls
        append(stub)
    }

    /// Adds a route answered by a list of responses in call order; after the last one, `then` says what follows.
    public mutating func addRoute(
        method: String?, path: String, responses: [MockResponse], then: ResponseOrder = .repeatLast,
        name: String? = nil, source: String = "code", expectedCalls: Stub.Expectation? = nil
    ) {
        let label = name ?? "\(method ?? "ANY") \(path)"
        let stub = Stub(
            id: "\(source)#\(stubs.count + 1)", name: label, source: source, method: method,
            url: .template(PathSegment.parse(path, decoding: true)),
            responses: responses.map { ResponseDefinition(response: $0) })
        stub.afterLast = then
        stub.expectation = expectedCalls
        append(stub)
    }

    /// Number of routes.
    public var count: Int { stubs.count }
}
