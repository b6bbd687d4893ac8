import AutomationSupport
import Testing

@testable import MockServer

/// r11 R11-4: a mapping's response `headers` were read name by name, each a search of the whole object: 5,000 headers
/// (a file `record` wrote) took 68 s to load, in `check`, `--stub`, `serve` and the admin API. Every object read by
/// key is hashed once it is large, and a native route's headers are set in one pass; 40,000 of each load in a second
/// or two in a debug build (quadratic it was hours), so a bound this generous still tells the two apart.
@Suite struct ManyKeysLoadTests {
    private static let count = 40_000

    private static func object(_ value: (Int) -> String) -> String {
        "{" + (0..<count).map { #""X-H\#($0)": \#(value($0))"# }.joined(separator: ",") + "}"
    }

    private static func loaded(_ text: String) throws -> (stub: Stub, milliseconds: Double) {
        let started = MonotonicClock.milliseconds()
        let stubs = try StubLoader.parse(text, file: "many.json")
        let stub = try #require(stubs.stubs.first)
        return (stub, MonotonicClock.milliseconds() - started)
    }

    @Test func aWireMockResponseWithManyHeadersLoadsInLinearTime() throws {
        let mapping =
            #"{"request": {"url": "/m"}, "response": {"status": 200, "headers": "#
            + Self.object { $0 % 2 == 0 ? #""v\#($0)""# : #"["a", "b\#($0)"]"# } + "}}"
        let (stub, milliseconds) = try Self.loaded(mapping)
        let headers = stub.responses[0].response.headers
        #expect(headers.entries.count == Self.count / 2 * 3)
        #expect(headers["X-H0"] == "v0" && headers.values("X-H39999") == ["a", "b39999"])
        #expect(milliseconds < 60_000, "\(milliseconds) ms")
    }

    @Test func aNativeRouteWithManyHeadersLoadsInLinearTimeTheLastOfANameWinning() throws {
        let headers = Self.object { #""v\#($0)""# }.dropLast() + #", "x-h5": "again", "Content-Type": "text/x"}"#
        let (stub, milliseconds) = try Self.loaded(#"{"routes": [{"path": "/m", "body": "b", "responseHeaders": "# + headers + "}]}")
        let loaded = stub.responses[0].response.headers
        #expect(loaded.entries.count == Self.count + 1)
        #expect(loaded.values("X-H5") == ["again"] && loaded.entries.last?.name == "Content-Type")
        #expect(loaded.entries.first?.name == "X-H0" && loaded.entries[Self.count - 1].name == "x-h5")
        #expect(milliseconds < 60_000, "\(milliseconds) ms")
    }

    @Test func aWebhookAndAProxyWithManyHeadersLoadInLinearTime() throws {
        let webhook =
            #"{"request": {"url": "/w"}, "response": {"status": 200}, "postServeActions": [{"name": "webhook", "parameters": {"method": "POST", "url": "http://127.0.0.1:9/h", "headers": "#
            + Self.object { #""v\#($0)""# } + "}}]}"
        let (hooked, hookTime) = try Self.loaded(webhook)
        #expect(hooked.webhooks.first?.message.headers.entries.count == Self.count)
        #expect(hookTime < 60_000, "\(hookTime) ms")
        let proxy =
            #"{"request": {"url": "/p"}, "response": {"proxyBaseUrl": "http://127.0.0.1:9", "additionalProxyRequestHeaders": "#
            + Self.object { #""v\#($0)""# } + "}}"
        let (proxied, proxyTime) = try Self.loaded(proxy)
        let rule = try #require(proxied.responses[0].proxy)
        #expect(rule.additionalHeaders.count == Self.count)
        let started = MonotonicClock.milliseconds()
        let forwarded = rule.upstreamHeaders(for: HTTPRequest(method: "GET", target: "/p", headers: ["x-h7": "sent"]))
        #expect(forwarded.values("X-H7") == ["v7"] && forwarded.entries.count == Self.count)
        #expect(proxyTime < 60_000 && MonotonicClock.milliseconds() - started < 60_000, "\(proxyTime) ms")
    }
}
