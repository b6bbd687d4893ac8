import AutomationSupport

/// One stubbed route: how to recognise a request, and what to answer.
///
/// A class, so that router and stub-set copies share stubs instead of copying every field; a stub is built
/// by a loader and not changed once it is in a ``StubSet``.
public final class Stub: @unchecked Sendable {
    /// A stable id: the WireMock `id`/`uuid`, or `file:line` of a native route.
    public var id: String
    /// A readable label: the route's `name`, else `METHOD path`.
    public var name: String
    /// Where it was defined: `routes.json:12`.
    public var source: String
    /// nil: any method.
    public var method: String?
    let url: URLMatcher
    /// The router's keys for ``url``, computed with the stub (on the loader's threads, for large files)
    /// rather than when the router is built, alone on the path to "ready".
    let specificity: UInt64
    /// The path a request must have exactly (a whole URL's path, or an all-literal template), else nil.
    let exactPath: String?
    var query: [(name: String, matcher: ValueMatcher)] = []
    var headers: [(name: String, matcher: ValueMatcher)] = []
    var cookies: [(name: String, matcher: ValueMatcher)] = []
    var pathParameters: [(name: String, matcher: ValueMatcher)] = []
    var body: [ValueMatcher] = []
    /// WireMock's `basicAuthCredentials`; nil: any.
    var basicAuth: BasicAuthMatcher?
    /// WireMock's `multipartPatterns`: each must hold.
    var multipart: [MultipartMatcher] = []
    /// WireMock's `host`, `scheme`, `port`; nil: any.
    var origin: OriginMatch?
    /// WireMock's `postServeActions` webhooks, sent after each answer.
    var webhooks: [Webhook] = []
    /// Lower wins (WireMock's rule); 5 when not given.
    public var priority: Int = 5
    /// Tie-breaker among equals: the position it was added at (1, 2, …); larger wins (most recent first).
    var order: Int = 0
    var scenario: ScenarioRule?
    /// Answered by call count; the last one repeats.
    var responses: [ResponseDefinition]
    /// The WireMock mapping's `request` and `response` as loaded (JSON), for the admin API to give back.
    var wireMockRequest: String?
    var wireMockResponse: String?
    /// The mapping's `metadata` (JSON), for `find-by-metadata` and `remove-by-metadata`.
    var wireMockMetadata: String?
    /// The mapping's scenario keys, `persistent` and `postServeActions` as loaded (`,"key":JSON` each), given back by
    /// the admin API so that a mapping read and put back keeps them.
    var wireMockExtras = ""
    /// What comes after the last of ``responses``: it repeats (the default), or the list starts over.
    var afterLast: ResponseOrder = .repeatLast

    /// The response definition for call number `call` (1, 2, …).
    func response(forCall call: Int) -> ResponseDefinition {
        switch afterLast {
        case .repeatLast: responses[min(call, responses.count) - 1]
        case .cycle: responses[(call - 1) % responses.count]
        }
    }
    /// The id the admin API gives and answers to: the id when it is a UUID (a WireMock mapping's), else a UUID
    /// derived from it (a native route's `file:line`), the same on every load, so WireMock clients that parse ids
    /// as UUIDs can get, put and delete native routes too.
    public var adminID: String { StubSet.uuid(id) ?? StubSet.uuid(derivedFrom: "native " + id) }

    /// Whether `given` (a UUID in any case, or a native route's `file:line`) names this stub.
    func isNamed(_ given: String) -> Bool { id == given || adminID == given }

    /// The calls the run must see (`expect`); nil: no expectation.
    public var expectation: Expectation?
    /// Made by a recording as it stopped (added to the server): not a route the run was meant to call, so the summary
    /// does not list it as "not called".
    package var recorded = false
    /// Posted, put or imported through the admin API (``MockServer/AdminWrites`` says what its answers count as).
    package var addedThroughAdmin = false

    init(id: String, name: String, source: String, method: String?, url: URLMatcher, order: Int = 0, responses: [ResponseDefinition]) {
        self.id = id
        self.name = name
        self.source = source
        self.method = method
        self.url = url
        specificity = url.specificity
        exactPath =
            switch url {
            case .exactURL(let url): url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            case .template(let segments): Router.exactPath(segments)
            case .pattern, .any: nil
            }
        self.order = order
        self.responses = responses
    }

    /// `expect` of a native route: how many calls the run must see.
    public struct Expectation: Sendable, Hashable {
        /// Exactly this many calls.
        public var times: Int?
        /// At least this many calls.
        public var atLeast: Int?
        /// At most this many calls.
        public var atMost: Int?

        /// An expectation; nil bounds are not checked.
        public init(times: Int? = nil, atLeast: Int? = nil, atMost: Int? = nil) {
            self.times = times
            self.atLeast = atLeast
            self.atMost = atMost
        }

        /// Why no count can satisfy it (`atLeast` above `atMost`, `times` outside them), with the key to name;
        /// nil when some count can.
        var contradiction: (key: String, message: String)? {
            if let atLeast, let atMost, atLeast > atMost {
                return ("atMost", "atMost (\(atMost)) is below atLeast (\(atLeast)): no run can satisfy it")
            }
            if let times, let atLeast, times < atLeast {
                return ("times", "times (\(times)) is below atLeast (\(atLeast)): no run can satisfy it")
            }
            if let times, let atMost, times > atMost {
                return ("times", "times (\(times)) is above atMost (\(atMost)): no run can satisfy it")
            }
            return nil
        }

        /// nil when `count` satisfies it, else why not.
        public func check(_ count: Int) -> String? {
            if let times, count != times { return "expected \(times) call\(times == 1 ? "" : "s"), got \(count)" }
            if let atLeast, count < atLeast { return "expected at least \(atLeast), got \(count)" }
            if let atMost, count > atMost { return "expected at most \(atMost), got \(count)" }
            return nil
        }
    }
}

/// WireMock-style scenario state: the stub matches only in `requiredState` and moves the scenario to `newState`.
struct ScenarioRule: Sendable, Hashable {
    var name: String
    var requiredState: String?
    var newState: String?
}

/// How a stub recognises the URL.
enum URLMatcher: Sendable {
    /// Path and query exactly as sent (WireMock `url`).
    case exactURL(String)
    /// A path template: literal, `{param}`/`:param`, `*` (one segment), `**` (the rest). All-literal is an exact path.
    case template([PathSegment])
    /// A regular expression on the path (`urlPathPattern`) or on path plus query (`urlPattern`).
    case pattern(RegexBox, source: String, includesQuery: Bool)
    /// Any URL.
    case any

    /// How specific the URL is, comparable as a number (greater: more specific). Segment ranks are base-5
    /// digits from the left (literal 4 … ** 1; an absent segment 0), so `/a/b` > `/a/{x}` > `/a/*` > `/a/**`
    /// and a longer literal prefix wins, as a lexicographic comparison of the ranks would decide.
    var specificity: UInt64 {
        switch self {
        case .exactURL: return UInt64.max
        case .template(let segments):
            var value: UInt64 = 0
            for position in 0..<24 {
                value = value * 5 + (position < segments.count ? UInt64(segments[position].rank) + 1 : 0)
            }
            return value
        case .pattern, .any: return 0
        }
    }

    var description: String {
        switch self {
        case .exactURL(let url): url
        case .template(let segments): "/" + segments.map(\.description).joined(separator: "/")
        case .pattern(_, let source, _): "~" + source
        case .any: "any URL"
        }
    }
}

enum PathSegment: Sendable, Hashable {
    case literal(String)
    case parameter(String)
    case star
    case doubleStar

    var rank: UInt8 {
        switch self {
        case .literal: 3
        case .parameter: 2
        case .star: 1
        case .doubleStar: 0
        }
    }

    var description: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name): "{\(name)}"
        case .star: "*"
        case .doubleStar: "**"
        }
    }

    /// Parses `/a/{id}/:other/*/**` into segments (one pass over the bytes: loading 10,000 routes stays fast).
    /// - Parameter decoding: percent-decode literal segments (native routes compare paths decoded, so `/café`
    ///   and `/caf%C3%A9` are one route; WireMock mappings keep WireMock's rule and compare them as written).
    static func parse(_ path: String, decoding: Bool) -> [PathSegment] {
        let segments = parse(path)
        guard decoding, path.utf8.contains(UInt8(ascii: "%")) else { return segments } // bytes, not Characters
        return segments.map { segment in
            if case .literal(let text) = segment { return .literal(PercentEncoding.decode(Substring(text), plusAsSpace: false)) }
            return segment
        }
    }

    static func parse(_ path: String) -> [PathSegment] {
        var path = path
        return path.withUTF8 { bytes -> [PathSegment] in
            var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
            guard start < bytes.count else { return [] }
            var segments: [PathSegment] = []
            segments.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
            var index = start
            while index <= bytes.count {
                if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                    segments.append(segment(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                    start = index + 1
                }
                index += 1
            }
            return segments
        }
    }

    private static func segment(_ bytes: UnsafeBufferPointer<UInt8>) -> PathSegment {
        let count = bytes.count
        if count == 1 && bytes[0] == UInt8(ascii: "*") { return .star }
        if count == 2 && bytes[0] == UInt8(ascii: "*") && bytes[1] == UInt8(ascii: "*") { return .doubleStar }
        if count > 2 && bytes[0] == UInt8(ascii: "{") && bytes[count - 1] == UInt8(ascii: "}") {
            return .parameter(String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<(count - 1)]), as: UTF8.self))
        }
        if count > 1 && bytes[0] == UInt8(ascii: ":") {
            return .parameter(String(decoding: UnsafeBufferPointer(rebasing: bytes[1...]), as: UTF8.self))
        }
        return .literal(String(decoding: bytes, as: UTF8.self))
    }
}

/// What a route answers once its list of responses is used up.
public enum ResponseOrder: String, Sendable {
    /// The last response repeats (WireMock's sequences end this way).
    case repeatLast = "repeat-last"
    /// The list starts over from the first.
    case cycle
}

/// What a stub answers.
struct ResponseDefinition: Sendable {
    var response: MockResponse
    /// Serve files from this directory (native `files`): the path after the route's literal prefix names the file.
    var filesDirectory: String?
    /// Answer with code: the request and its call number (1, 2, …).
    var handler: (@Sendable (HTTPRequest, Int) -> MockResponse)?
    /// Response templating (WireMock's `"transformers": ["response-template"]`).
    var template: ResponseTemplates?
    /// A random delay added to the response's own for each answer (WireMock's `delayDistribution`).
    var delay: DelayDistribution?
    /// Forward to a real backend and answer with what it answers (WireMock's `proxyBaseUrl`).
    var proxy: ProxyRule?

    init(response: MockResponse, filesDirectory: String? = nil, handler: (@Sendable (HTTPRequest, Int) -> MockResponse)? = nil) {
        self.response = response
        self.filesDirectory = filesDirectory
        self.handler = handler
    }
}
