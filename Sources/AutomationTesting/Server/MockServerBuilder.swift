import AutomationSupport
public import MockServer
import ProcessEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds a mock server in code:
///
/// ```swift
/// let server = try MockServerBuilder()
///     .route("GET /cities") { request, callCount in .ok(json: ["Milano"]) }
///     .route("POST /login") { _, call in call == 1 ? .status(500) : .ok(json: ["token": "t"]) }
///     .onUnexpected { request in print("unexpected", request.target) }
///     .start()                       // a free port
/// try app.launch(arguments: ["fetch"], server: server)
/// ```
public final class MockServerBuilder {
    private var stubs = StubSet()
    private var unexpected: (@Sendable (HTTPRequest) -> Void)?
    private var limits = ServerLimits()
    private var isLenient = false
    private var adminWritesMode = MockServer.AdminWrites.refuse
    private var httpsPlan: HTTPSPlan?

    /// An empty builder: strict, no routes.
    public init() {}

    /// Adds a route: `"GET /cities"`, `"POST /users/{id}"`, `"ANY /files/**"`.
    /// - Parameter handler: the request and its call number for this route (1, 2, …).
    @discardableResult
    public func route(
        _ route: String, expectedCalls: Int? = nil,
        _ handler: @escaping @Sendable (HTTPRequest, Int) -> MockResponse
    ) -> MockServerBuilder {
        let key = RouteKey(route)
        stubs.addRoute(
            method: key.method, path: key.path, name: key.description,
            expectedCalls: expectedCalls.map { Stub.Expectation(times: $0) }, handler: handler)
        return self
    }

    /// Adds a route answered by these responses in call order; `then` says what follows the last one: it
    /// repeats (the default) or the list starts over (`.cycle`, as Sky's mock server does).
    @discardableResult
    public func route(_ route: String, responses: [MockResponse], then: ResponseOrder = .repeatLast, expectedCalls: Int? = nil)
        -> MockServerBuilder
    {
        let key = RouteKey(route)
        stubs.addRoute(
            method: key.method, path: key.path, responses: responses, then: then, name: key.description,
            expectedCalls: expectedCalls.map { Stub.Expectation(times: $0) })
        return self
    }

    /// Adds the routes of stub files (native or WireMock), as `--stub` does.
    /// - Throws: ``StubError`` naming the file, line and key; ``AutomationError`` when a directory gave no stub.
    @discardableResult
    public func stubs(_ paths: String...) throws -> MockServerBuilder {
        let loaded = try StubLoader.load(paths)
        if loaded.count == 0, !loaded.notices.isEmpty { throw AutomationError(loaded.notices.joined(separator: "\n")) }
        stubs.merge(loaded)
        return self
    }

    /// Calls `handler` for each request no route matched (it still gets the near-miss 404).
    @discardableResult
    public func onUnexpected(_ handler: @escaping @Sendable (HTTPRequest) -> Void) -> MockServerBuilder {
        unexpected = handler
        return self
    }

    /// Unexpected requests count as failures in ``MockServer/failures`` and are recorded as test
    /// issues at teardown. This is the default; the method stays for clarity at the call site.
    @discardableResult
    public func strict() -> MockServerBuilder {
        isLenient = false
        return self
    }

    /// Unexpected requests are answered with the near-miss 404 and listed, but do not fail the test
    /// (an ``onUnexpected(_:)`` handler still runs).
    @discardableResult
    public func lenient() -> MockServerBuilder {
        isLenient = true
        return self
    }

    /// What a program under test may change through the server's admin API (`/__admin`). By default (`.refuse`) it
    /// may only read: a write is refused (403) and unexpected, so a program cannot add a mapping that answers what
    /// the test judges it by. `.allow` answers writes and counts each request a mapping the program added answered
    /// as unexpected; `.trust` counts those answers as calls (both mark them in the journal). Your test's own calls
    /// go through this builder and ``MockServer``'s methods, never through the admin API.
    @discardableResult
    public func adminWrites(_ mode: MockServer.AdminWrites) -> MockServerBuilder {
        adminWritesMode = mode
        return self
    }

    /// The server speaks HTTPS (TLS 1.2 and 1.3, HTTP/1.1 inside), as `sut-launch --https` does: a certificate
    /// authority and a leaf minted when it starts (EC P-256), valid for `localhost`, `127.0.0.1`, `::1` and `hosts`.
    /// Its ``MockServer/url`` is `https://127.0.0.1:PORT`, and a program ``SUTApplication/launch(featureFlags:automationFlags:environment:arguments:entryPoint:server:flagsIn:workingDirectory:)``
    /// starts with it trusts it through its environment (`SSL_CERT_FILE`, `CURL_CA_BUNDLE`, `REQUESTS_CA_BUNDLE`…)
    /// with no setting of its own. ``start(port:)`` throws when the system has no libssl (naming the package) or a
    /// name is not a DNS name or an IP address.
    @discardableResult
    public func https(hosts: [String] = []) -> MockServerBuilder {
        var plan = HTTPSPlan(hosts: hosts)
        plan.intercept = httpsPlan?.intercept ?? []
        httpsPlan = plan
        return self
    }

    /// The server is also the program's HTTP proxy for `hosts` (`api.example.com`, `*.example.com`), as
    /// `sut-launch --intercept` does: a program launched with it gets `HTTPS_PROXY`/`HTTP_PROXY` naming a listener of
    /// the server's, which answers `CONNECT` for these hosts with a certificate minted for them (trusted as
    /// ``https(hosts:)``'s is) and serves their requests from the stubs; a request to any other host through it is
    /// refused and unexpected. Nothing is forwarded to the network. Match a host with WireMock's `"host"`.
    @discardableResult
    public func intercept(_ hosts: String...) -> MockServerBuilder {
        httpsPlan = HTTPSPlan.intercepting(hosts, base: httpsPlan)
        return self
    }

    /// Starts the server on 127.0.0.1 (port 0: a free one) and registers it for teardown.
    public func start(port: UInt16 = 0) throws -> MockServer {
        var plan = ServerPlan(stubs: stubs, port: port, strict: !isLenient, limits: limits, https: httpsPlan)
        plan.adminWrites = adminWritesMode
        let server = try MockServerRun.start(plan).get()
        if let unexpected { server.onUnexpected(unexpected) }
        AutomationScope.current?.register(server)
        return server
    }
}

/// The name earlier releases gave the running server that ``MockServerBuilder/start(port:)`` returns.
@available(*, deprecated, renamed: "MockServer")
public typealias MockServerHandle = MockServer

/// What a test asks of the running server: its URL, what it received.
extension MockServer {
    /// `http://127.0.0.1:PORT` (`https://` for a server built with ``MockServerBuilder/https(hosts:)``).
    public var url: String { baseURL }
    /// The PEM certificate of the authority an HTTPS server minted (what a client must trust); nil over plain HTTP.
    public var certificateAuthorityPEM: String? { authorityPEM }
    /// `http://127.0.0.1:PORT` of the proxy listener of a server built with ``MockServerBuilder/intercept(_:)``;
    /// nil otherwise.
    public var proxyURLForInterception: String? { proxyURL }
    /// The server itself (what earlier releases' handle wrapped).
    public var server: MockServer { self }
    /// Every request received so far, in order.
    public var requests: [HTTPRequest] { journal.ordered.map(\.request) }
    /// Requests no route matched.
    public var unexpectedRequests: [HTTPRequest] { journal.ordered.filter(\.isUnexpected).map(\.request) }
    /// Requests to a route (`"GET /cities"`, templates allowed).
    public func requests(to route: String) -> [HTTPRequest] {
        let key = RouteKey(route)
        return requests.filter(key.matches)
    }
    /// Unmet expectations and (when strict) unexpected requests.
    public var failures: [String] { summary.failures }
    /// True unless the builder was ``MockServerBuilder/lenient()`` (or the stubs say otherwise).
    public var isStrict: Bool { summary.policy == .fail }
    /// Each request no route matched, with its near miss: `GET /x` then the nearest route and what differed.
    public var unexpectedRequestDescriptions: [String] { summary.unexpected.map(\.description) }
    /// Queues a message for the program under test (it reads it with `ControlChannel`).
    /// - Returns: its id, or nil when it was not queued (10,000 messages wait unread, or it is over 1 MiB).
    @discardableResult
    public func send(controlMessage: String) -> Int? { sendControlMessage(controlMessage) }
}

extension MockResponse {
    /// 200 with a text body.
    public static func ok(text: String) -> MockResponse { .text(text) }

    /// 200 (or `status`) with a JSON body encoded from any Encodable value.
    public static func ok<Body: Encodable>(json body: Body, status: Int = 200) -> MockResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("null".utf8)
        return MockResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
    }

    /// An empty response with this status.
    public static func status(_ status: Int) -> MockResponse { MockResponse(status: status) }
}

extension HTTPRequest {
    /// The body decoded from JSON.
    /// - Throws: `DecodingError` when it does not fit.
    public func json<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(body))
    }
}
