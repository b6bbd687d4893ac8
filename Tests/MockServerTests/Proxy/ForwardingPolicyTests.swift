import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// r11 R11-11: every forward to a real backend (`proxyBaseUrl`, `--proxy-unmatched`, a recording) relayed requests a
/// web page made (a rebound `Host`, a foreign `Origin`, `Sec-Fetch-Site: cross-site`) to a backend that trusts this
/// machine, and recorded them; the admin API refused all three. Now forwarding has a policy of its own.
@Suite struct ForwardingPolicyTests {
    private static func policy(allowing hosts: [String] = [], serverHost: String = "127.0.0.1") -> ForwardingPolicy {
        var options = MockServer.Options()
        options.forwardingHosts = hosts
        return ForwardingPolicy(serverHost: serverHost, options: options)
    }

    private static func request(_ headers: [(String, String)]) -> HTTPRequest {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        return HTTPRequest(method: "GET", target: "/data", headers: fields)
    }

    @Test(arguments: [
        "localhost:8080", "127.0.0.1:9", "[::1]:80", "app.localhost", "192.0.2.7", "[2001:db8::1]:443", "LOCALHOST.",
    ])
    func thisMachinesNamesAndAddressesAreForwarded(host: String) {
        #expect(Self.policy().refusal(of: Self.request([("Host", host)])) == nil)
    }

    @Test(arguments: [
        "rebind.evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example", "127.1", "0x7f000001", "",
    ])
    func aNameAnAttackersDNSCouldRebindIsRefused(host: String) throws {
        let refusal = try #require(Self.policy().refusal(of: Self.request([("Host", host)])))
        #expect(refusal.contains("not forwarded") && refusal.contains("--allow-host"))
        let escaped = try #require(Self.policy().refusal(of: Self.request([("Host", "ev\u{1B}]0;T\u{7}il.example")])))
        #expect(!escaped.contains("\u{1B}") && !escaped.contains("\u{7}"), "\(escaped)")
    }

    @Test func namesGivenWithAllowHostAreForwardedAndAWildcardCoversOneLabel() {
        let policy = Self.policy(allowing: ["host.docker.internal", "*.dev.test"])
        #expect(policy.refusal(of: Self.request([("Host", "host.docker.internal:8080")])) == nil)
        #expect(policy.refusal(of: Self.request([("Host", "API.dev.test")])) == nil)
        #expect(policy.refusal(of: Self.request([("Host", "a.b.dev.test")])) != nil)
        #expect(policy.refusal(of: Self.request([("Host", "dev.test")])) != nil)
    }

    @Test func pagesOnThisMachineAreForwardedAndOthersAreNot() {
        let policy = Self.policy()
        let local: [[(String, String)]] = [
            [("Origin", "http://localhost:3000"), ("Sec-Fetch-Site", "same-site")],
            [("Origin", "https://127.0.0.1"), ("Sec-Fetch-Site", "same-origin")],
            [("Sec-Fetch-Site", "none")],
            // r13 R13-4: localhost and 127.0.0.1 are two sites to a browser, one machine here.
            [("Origin", "http://localhost:3000"), ("Sec-Fetch-Site", "cross-site")],
            [("Origin", "http://[::1]:8080"), ("Sec-Fetch-Site", "cross-site")],
        ]
        for headers in local { #expect(policy.refusal(of: Self.request(headers)) == nil, "\(headers)") }
        let foreign: [[(String, String)]] = [
            [("Origin", "http://evil.example")], [("Origin", "null")], [("Origin", "http://localhost@evil.example")],
            [("Origin", "file://")], [("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "CROSS-SITE")],
            [("Host", "localhost"), ("Host", "evil.example")], [("Origin", "http://localhost"), ("Origin", "http://evil.example")],
            // r13 R13-1: a page served from another machine's address is another web site, whatever the Host.
            [("Origin", "http://203.0.113.9:8080")], [("Origin", "http://[2001:db8::1]")], [("Origin", "http://1.2.3.4")],
            // r13 R13-6: a Sec-Fetch-Site that is not one of the three same-site values is refused, not read as one.
            [("Sec-Fetch-Site", "cross-site, same-site")], [("Sec-Fetch-Site", "same-origin-ish")],
        ]
        for headers in foreign { #expect(policy.refusal(of: Self.request(headers)) != nil, "\(headers)") }
    }

    /// The whole path: a proxy mapping's forward is refused (403, unexpected: a strict run fails), the backend never
    /// sees it, and a fallback forward (`--proxy-unmatched`) likewise; an allowed request still goes.
    @Test func aRefusedForwardNeverReachesTheBackendAndCountsAsUnexpected() throws {
        let backend = try TestServer(
            #"{ "mappings": [ { "request": { "urlPathPattern": "/.*" }, "response": { "status": 200, "body": "secret" } } ] }"#)
        defer { backend.stop() }
        let proxy = try TestServer(
            #"{ "mappings": [ { "request": { "urlPathPattern": "/api/.*" }, "response": { "proxyBaseUrl": "\#(backend.url)" } } ] }"#)
        defer { proxy.stop() }
        let rebound = proxy.server.handle(
            HTTPRequest(method: "GET", target: "/api/internal", headers: ["Host": "rebind.evil.example:\(proxy.port)"]))
        #expect(rebound.status == 403 && !String(decoding: rebound.body, as: UTF8.self).contains("secret"))
        let forged = proxy.server.handle(
            HTTPRequest(
                method: "POST", target: "/api/transfer",
                headers: ["Host": "127.0.0.1", "Origin": "http://evil.example", "Content-Type": "text/plain"], body: Array("all".utf8)))
        #expect(forged.status == 403)
        #expect(backend.server.journal.ordered.isEmpty)
        #expect(proxy.server.summary.unexpected.count == 2)
        let allowed = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/ok", headers: ["Host": "localhost"]))
        #expect(allowed.status == 200 && backend.server.journal.ordered.count == 1)
    }
}
