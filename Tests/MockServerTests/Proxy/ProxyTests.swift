import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// Forwarding to a real backend (issue 27): `proxyBaseUrl` mappings and `--proxy-unmatched` answer with what the
/// backend answered; a backend that fails (refuses, stalls, answers garbage, never ends) gives the program a 502 or
/// 504 naming why and fails the run; a request's own `Host` or absolute target never chooses where it goes.
@Suite struct ProxyTests {
    static let backendStubs = #"""
        { "mappings": [
          { "request": { "method": "GET", "url": "/v1/users?page=2" }, "response": { "status": 200, "body": "{\"users\":[]}", "headers": { "Content-Type": "application/json", "X-Backend": "real" } } },
          { "request": { "method": "POST", "url": "/v1/echo" }, "response": { "status": 201, "body": "{{request.body}}|{{request.headers.X-Added}}|{{request.headers.X-Secret}}", "transformers": ["response-template"] } }
        ] }
        """#

    private static func proxy(to base: String, extra: String = "") throws -> TestServer {
        try TestServer(
            #"{ "mappings": [ { "request": { "urlPathPattern": "/api/.*" }, "response": { "proxyBaseUrl": "\#(base)", "proxyUrlPrefixToRemove": "/api"\#(extra) } } ] }"#
        )
    }

    @Test func aProxyMappingAnswersWithWhatTheBackendAnswered() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let proxy = try Self.proxy(to: backend.url + "/v1")
        defer { proxy.stop() }
        // An address the client names (this machine's, as far as the forwarding policy knows) does not choose either.
        let answer = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/users?page=2", headers: ["Host": "192.0.2.7:8080"]))
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"users":[]}"#)
        #expect(answer.headers["X-Backend"] == "real")
        // The backend saw its own authority, not the client's Host.
        #expect(backend.server.journal.ordered.first?.request.header("Host") == "127.0.0.1:\(backend.port)")
        #expect(proxy.server.summary.failures.isEmpty)
    }

    /// r11 R11-13: a proxy mapping's `fixedDelayMilliseconds`, `chunkedDribbleDelay` and `headers` were dropped (a
    /// "slow backend" for a timeout test answered at once); WireMock 2.35 applies them to what the backend answered.
    @Test func aProxyMappingsDelayDribbleAndHeadersApplyToTheBackendsAnswer() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let extra =
            #", "fixedDelayMilliseconds": 1500, "chunkedDribbleDelay": {"numberOfChunks": 3, "totalDuration": 900}, "headers": {"X-Stub": "1", "content-type": "text/x"}"#
        let proxy = try Self.proxy(to: backend.url + "/v1", extra: extra)
        defer { proxy.stop() }
        let answer = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/users?page=2"))
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == #"{"users":[]}"#)
        #expect(answer.delayMs == 1500 && answer.dribble != nil)
        #expect(
            answer.headers["X-Stub"] == "1" && answer.headers.values("Content-Type") == ["text/x"] && answer.headers["X-Backend"] == "real")
    }

    @Test func addedAndRemovedHeadersAreAppliedAndTheBodyGoesAsIs() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let extra = #", "additionalProxyRequestHeaders": { "X-Added": "yes" }, "removeProxyRequestHeaders": ["x-secret"]"#
        let proxy = try Self.proxy(to: backend.url + "/v1", extra: extra)
        defer { proxy.stop() }
        let answer = proxy.server.handle(
            HTTPRequest(
                method: "POST", target: "/api/echo", headers: ["X-Secret": "s3cr3t", "Content-Type": "text/plain"], body: Array("ping".utf8)
            ))
        #expect(answer.status == 201)
        #expect(String(decoding: answer.body, as: UTF8.self) == "ping|yes|")
    }

    /// r11 R11-6: a templated mapping's `proxyBaseUrl` and `additionalProxyRequestHeaders` values were forwarded as
    /// written (`/{{request.query.version}}/users`); they are rendered per request, as WireMock 2.35 renders them, and
    /// what they render to is checked first: a backend URL with a query, a header value with CR LF is a named 500, and
    /// nothing reaches the backend.
    @Test func templatedProxyValuesAreRenderedAndCheckedBeforeForwarding() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let extra =
            #", "additionalProxyRequestHeaders": { "X-Added": "{{request.headers.X-In}}" }, "transformers": ["response-template"], "#
            + #""headers": { "X-Mapped": "{{request.headers.X-M}}" }"#
        let proxy = try Self.proxy(to: backend.url + "/{{request.query.version}}", extra: extra)
        defer { proxy.stop() }
        let answer = proxy.server.handle(
            HTTPRequest(method: "GET", target: "/api/users?version=v1&page=2", headers: ["X-In": "in", "X-M": "in"]))
        #expect(answer.status == 404) // the backend's: it has no mapping for the extra query
        // r13 R13-2: the mapping's own header, rendered (it was sent as written), on what the backend answered.
        #expect(answer.headers["X-Mapped"] == "in")
        let folded = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/users?version=v1", headers: ["X-M": "a\u{1B}b"]))
        #expect(folded.headers["X-Mapped"] == "a b", "a control character cannot reach the answer's head")
        let seen = try #require(backend.server.journal.ordered.first?.request)
        #expect(seen.target == "/v1/users?version=v1&page=2" && seen.header("X-Added") == "in", "\(seen.target)")
        for (target, added, said) in [
            ("/api/u?version=a%3Fb", "in", "proxyBaseUrl rendered to"),
            ("/api/u?version=v1", "a\r\nX-Evil: 1", "additionalProxyRequestHeaders \"X-Added\" rendered to"),
        ] {
            let refused = proxy.server.handle(HTTPRequest(method: "GET", target: target, headers: ["X-In": added]))
            #expect(refused.status == 500 && String(decoding: refused.body, as: UTF8.self).contains(said), "\(target)")
        }
        #expect(backend.server.journal.ordered.count == 2, "nothing else was forwarded")
        // r13 R13-8: a rendering over 16 KiB is refused by its size, never quoted whole.
        let huge = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/u?version=" + String(repeating: "v", count: 20_000)))
        let said = String(decoding: huge.body, as: UTF8.self)
        #expect(
            huge.status == 500 && said.contains("rendered to 20") && said.contains("the limit is 16384") && said.utf8.count < 400,
            "\(said.prefix(300))")
        #expect(backend.server.journal.ordered.count == 2, "nothing else was forwarded")
        // r14 R14-2: each request not forwarded is a failure of the run, as a backend that cannot be reached is.
        #expect(proxy.server.summary.failures.count == 3, "\(proxy.server.summary.failures)")
        // r13 R13-3: a helper call in the path (a space between its words) loads, and renders.
        let lowered = try Self.proxy(
            to: backend.url + "/{{lower request.query.version}}", extra: #", "transformers": ["response-template"]"#)
        defer { lowered.stop() }
        _ = lowered.server.handle(HTTPRequest(method: "GET", target: "/api/users?version=V1"))
        #expect(backend.server.journal.ordered.last?.request.target == "/v1/users?version=V1")
        // The scheme, host and port are read at load, as written: a template there is refused by name.
        #expect(throws: StubError.self) {
            _ = try StubLoader.parse(
                #"{"request": {"url": "/x"}, "response": {"proxyBaseUrl": "http://{{request.query.h}}", "transformers": ["response-template"]}}"#,
                file: "m.json", directory: ".")
        }
    }

    /// r14 R14-3: the mapping's own headers go on what the backend answered, never on our answer saying there is none
    /// (its `Content-Encoding: gzip` made the plain-text 502 unreadable; WireMock adds none).
    @Test func aMappingsHeadersStayOffOurOwnGatewayError() throws {
        let proxy = try Self.proxy(to: "http://127.0.0.1:9", extra: #", "headers": { "Content-Encoding": "gzip", "X-Mapped": "1" }"#)
        defer { proxy.stop() }
        let answer = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/users"))
        #expect(answer.status == 502 && answer.headers["Content-Encoding"] == nil && answer.headers["X-Mapped"] == nil, "\(answer.headers)")
        #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix("sut-launch proxy: "))
    }

    /// r14 R14-1: a header the mapping gives as a list (or under two spellings) goes on the backend's answer with every
    /// value, as on a plain mapping's answer and in WireMock (only the last was sent).
    @Test func aMappingsListHeaderKeepsEveryValueOnTheBackendsAnswer() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let proxy = try Self.proxy(to: backend.url + "/v1", extra: #", "headers": { "Set-Cookie": ["a=1", "b=2"], "X-One": "1" }"#)
        defer { proxy.stop() }
        let answer = proxy.server.handle(HTTPRequest(method: "GET", target: "/api/users?page=2"))
        #expect(answer.status == 200)
        #expect(answer.headers.entries.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"], "\(answer.headers)")
        #expect(answer.headers["X-One"] == "1")
    }

    @Test func anAbsoluteTargetCannotRedirectTheProxy() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let unmatched = MockServer(
            stubs: StubSet(), host: "127.0.0.1",
            options: {
                var options = MockServer.Options()
                options.proxyUnmatched = ProxyRule(target: try! UpstreamTarget(backend.url + "/v1"))
                return options
            }())
        let answer = unmatched.handle(
            HTTPRequest(method: "GET", target: "http://169.254.169.254/users?page=2", headers: ["Host": "169.254.169.254"]))
        #expect(answer.status == 200)
        #expect(backend.server.journal.ordered.count == 1)
        #expect(unmatched.summary.unexpectedTotal == 0 && unmatched.summary.failures.isEmpty)
    }

    @Test(arguments: [
        ("refused", 502, "cannot reach"),
        ("silent", 504, "did not answer within 1 s"),
        ("garbage", 502, "did not answer HTTP/1.x"),
        ("endless", 504, "did not finish its body"),
        ("huge", 502, "larger than 1 MiB"),
        ("truncated", 502, "closed the connection before the end of its body"),
        ("badLength", 502, "invalid Content-Length"),
        ("bareLineFeeds", 502, "answered with lines that end in a bare LF: the lines of an HTTP answer must end in CRLF"),
        // R9D-13: a Latin-1 byte in a value was relayed and recorded as U+FFFD.
        ("latinValue", 502, #"sent the value of header "X-Latin" with byte 0xE9, which is not UTF-8"#),
    ])
    func aFailingBackendGivesAGatewayErrorAndFailsTheRun(behaviour: String, status: Int, reason: String) throws {
        let backend = try MisbehavingBackend(behaviour)
        defer { backend.stop() }
        var options = MockServer.Options()
        options.proxyUnmatched = ProxyRule(target: try UpstreamTarget("http://127.0.0.1:\(backend.port)"))
        options.upstream.answerTimeoutMs = 1_000
        options.upstream.bodyTimeoutMs = 1_000
        options.upstream.maxBodyBytes = 1 << 20
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
        let started = MonotonicClock.milliseconds()
        let answer = server.handle(HTTPRequest(method: "GET", target: "/x"))
        #expect(MonotonicClock.milliseconds() - started < 30_000, "every wait has a deadline")
        #expect(answer.status == status)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains(reason), "\(text)")
        #expect(server.summary.failures.count == 1)
        #expect(server.summary.failures.first?.contains(reason) == true)
    }

    @Test func backendURLsAreCheckedOnce() throws {
        for bad in [
            "ftp://x", "http://", "http://user:pw@host", "http://h:0", "http://h:65536", "http://h/p?q=1", "http://[::1", "http://h h",
            "http://h\r\nX: y",
            // r14 R14-7: what no URL path holds (WireMock: "Illegal character in path", "Malformed escape pair").
            "http://h/a\\b", "http://h/a{b", "http://h/a|b", "http://h/a^b", "http://h/a%zz", "http://h/a%", "http://h/a%4",
        ] {
            #expect(throws: UpstreamTarget.Invalid.self, "\(bad)") { _ = try UpstreamTarget(bad) }
        }
        #expect(try UpstreamTarget("http://h/caf\u{E9}/%2F").pathPrefix == "/caf%C3%A9/%2F", "beyond ASCII: escaped as Java sends it")
        let target = try UpstreamTarget("HTTPS://API.Example.com/v1/")
        #expect(target.scheme == "https" && target.host == "api.example.com" && target.port == 443 && target.pathPrefix == "/v1")
        #expect(try UpstreamTarget("http://[::1]:8080").authority == "[::1]:8080")
    }

    @Test func proxyKeysWithoutABaseAreRefusedByName() throws {
        #expect(throws: StubError.self) {
            _ = try StubLoader.parse(
                #"{"request": {"url": "/x"}, "response": {"additionalProxyRequestHeaders": {"A": "b"}}}"#, file: "m.json", directory: ".")
        }
        #expect(throws: StubError.self) {
            _ = try StubLoader.parse(
                #"{"request": {"url": "/x"}, "response": {"proxyBaseUrl": "gopher://x"}}"#, file: "m.json", directory: ".")
        }
    }
}

/// A backend that accepts one connection at a time and misbehaves as told.
final class MisbehavingBackend: @unchecked Sendable {
    let listener: Socket
    let port: UInt16
    private let stopped = Locked(false)

    init(_ behaviour: String) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        if behaviour == "refused" {
            listener.close() // nothing listens on the port any more; stop() must not close this number again
            stopped.withLock { $0 = true }
            return
        }
        let listener = self.listener
        let stopped = self.stopped
        // This thread alone closes the listener, after its last accept(): closed by stop() while this thread was
        // between its check and accept(), the number could be another test's listener by then, and this backend
        // would take (and misanswer) that test's connections: the flake of LargeRecordingTests.
        Thread.detachNewThread {
            defer { listener.close() }
            while !stopped.withLock({ $0 }), let (client, _) = listener.accept() {
                var buffer: [UInt8] = []
                var scratch = [UInt8](repeating: 0, count: 4096)
                _ = client.waitReadable(timeoutMs: 2_000)
                _ = client.receive(into: &buffer, scratch: &scratch, wait: false)
                switch behaviour {
                case "garbage": _ = client.send(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8))
                case "endless":
                    _ = client.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
                    for _ in 0..<40 where client.send([UInt8](repeating: 0x61, count: 10)) { usleep(100_000) }
                case "huge":
                    _ = client.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n".utf8))
                case "truncated": _ = client.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8))
                case "badLength": _ = client.send(Array("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n".utf8))
                case "latinValue":
                    _ = client.send(Array("HTTP/1.1 200 OK\r\nX-Latin: caf".utf8) + [0xE9] + Array("\r\nContent-Length: 2\r\n\r\nhi".utf8))
                case "bareLineFeeds": _ = client.send(Array("HTTP/1.1 200 OK\nContent-Length: 2\n\nok".utf8))
                case "escapeInReason": _ = client.send(Array("HTTP/1.1 200 O\u{1B}[31mK\r\nContent-Length: 2\r\n\r\nok".utf8))
                default: usleep(3_000_000) // silent
                }
                client.close()
            }
        }
    }

    /// Wakes the accept thread (shutdown), which then closes the listener; idempotent.
    func stop() {
        let wasStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        if !wasStopped { listener.shutdown() }
    }
}

/// Recording from an HTTPS backend: verified against the system's trust and the extra authority given, refused
/// (502 naming the reason) without it.
@Suite(.enabled(if: (try? TLSServerContext.checkAvailability()) != nil, "needs libssl (apt-get install libssl3)"))
struct ProxyTLSTests {
    private func forwarder(to backend: TLSTestServer, trust: [UInt8]?) throws -> MockServer {
        var options = MockServer.Options()
        options.proxyUnmatched = ProxyRule(target: try UpstreamTarget(backend.url))
        options.upstream.extraTrustPEM = trust
        return MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
    }

    @Test func anHTTPSBackendIsVerifiedAndRecorded() throws {
        let backend = try TLSTestServer(tlsStubs)
        defer { backend.stop() }
        let trusted = try forwarder(to: backend, trust: Array(backend.server.authorityPEM!.utf8))
        _ = trusted.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
        let answer = trusted.handle(HTTPRequest(method: "GET", target: "/hello"))
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "hello over tls")
        #expect(try #require(trusted.stopRecording()).mappings.count == 1)

        let untrusted = try forwarder(to: backend, trust: nil)
        let refused = untrusted.handle(HTTPRequest(method: "GET", target: "/hello"))
        #expect(refused.status == 502)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("certificate verify failed"))
        #expect(untrusted.summary.failures.count == 1)
    }
}
