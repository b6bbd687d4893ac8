import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// A forward that comes back to its own server (the attack's F11: `record --target` its own address forwarded to
/// itself 1,024 deep, then recorded its own 503 with exit 0): every forwarded request carries `Via` with this
/// server's token, a request arriving with it is answered 508 and counted as unexpected, and the forward fails, never
/// recorded. Also what a forward sends: the program's own bytes with their `Content-Encoding` (F13).
@Suite struct ProxyLoopTests {
    private func admin(_ server: MockServer, _ method: String, _ path: String, _ body: String) -> (Int, String) {
        let answer = server.handle(
            HTTPRequest(
                method: method, target: path, headers: ["Host": "127.0.0.1", "Content-Type": "application/json"], body: Array(body.utf8)))
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    private func get(_ port: UInt16, _ path: String, headers: String = "") throws -> String {
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
        return client.read(timeout: 20)
    }

    @Test func aProxyMappingToItsOwnServerIsALoopAnswered508NotForwardedAgain() throws {
        // A mapping file naming the port the server is then started on (`--port N --stub FILE`): loaded before the
        // port is taken, so only the loop can tell.
        let probe = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = probe.localPort
        probe.close()
        let stubs = try StubLoader.parse(
            #"{"request": {"urlPath": "/loop"}, "response": {"proxyBaseUrl": "http://localhost:\#(port)"}}"#, file: "loop.json",
            directory: ".")
        let server = MockServer(stubs: stubs)
        _ = try server.start(port: port)
        let own = (server: server, port: port)
        defer { server.stop() }
        let answer = try get(own.port, "/loop")
        #expect(answer.hasPrefix("HTTP/1.1 508"), "\(answer.prefix(300))")
        #expect(answer.contains("loop detected: GET /loop came back to this server (its Via names sut-launch-"))
        // Two requests in all: the program's and its one forward back; the forward back is unexpected (strict fails).
        let summary = own.server.summary
        #expect(summary.totalRequests == 2 && summary.unexpectedTotal == 1, "\(summary.render())")
        #expect(summary.upstreamFailures.count == 1 && summary.upstreamFailures[0].contains("loop detected"))
        #expect(own.server.parts.proxy.all.isEmpty) // nothing to record
    }

    @Test func aLoopThroughAnotherProxyIsFoundByTheToken() throws {
        // A forwards to B, B forwards everything back to A: A finds its own token in the Via B kept.
        let a = try TestServer(stubs: StubSet())
        defer { a.stop() }
        var options = MockServer.Options()
        options.proxyUnmatched = ProxyRule(target: try UpstreamTarget(a.url))
        let b = MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
        let bPort = try b.start(port: 0)
        defer { b.stop() }
        #expect(
            admin(
                a.server, "POST", "/__admin/mappings",
                #"{"request": {"urlPath": "/x"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(bPort)"}}"#
            ).0 == 201)
        let answer = try get(a.port, "/x")
        #expect(answer.hasPrefix("HTTP/1.1 508"), "\(answer.prefix(300))")
        #expect(a.server.summary.unexpectedTotal == 1 && b.summary.upstreamFailures.isEmpty == false)
        #expect(a.server.summary.totalRequests == 2)
    }

    @Test func recordingItsOwnAddressIsRefusedByName() throws {
        var options = MockServer.Options()
        options.recordingRoot = NSTemporaryDirectory() + "never-\(UUID().uuidString)"
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
        let port = try server.start(port: 0)
        defer { server.stop() }
        for base in ["http://127.0.0.1:\(port)", "http://localhost:\(port)/v1", "http://[::1]:\(port)"] {
            let (status, body) = admin(server, "POST", "/__admin/recordings/start", #"{"targetBaseUrl": "\#(base)"}"#)
            #expect(status == 422 && body.contains("is this server's own address"), "\(base): \(body)")
        }
        #expect(
            admin(server, "POST", "/__admin/recordings/start", #"{"targetBaseUrl": "http://127.0.0.1:\#(port &+ 1 == 0 ? 1 : port &+ 1)"}"#)
                .0 == 200)
        // A proxyBaseUrl mapping posted through the admin API is held to the same rule.
        let (status, body) = admin(
            server, "POST", "/__admin/mappings", #"{"request": {"url": "/x"}, "response": {"proxyBaseUrl": "http://localhost:\#(port)"}}"#)
        #expect(status == 422 && body.contains("proxyBaseUrl http://localhost:\(port) is this server's own address"), "\(body)")
    }

    @Test func aForwardCarriesViaAndTheBodyAsTheProgramSentIt() throws {
        // The backend answers only a gzip-coded body (its Content-Encoding kept) and says what it got.
        let backend = try TestServer(
            #"{"request": {"method": "POST", "url": "/up", "headers": {"Content-Encoding": {"equalTo": "gzip"}}, "bodyPatterns": [{"equalToJson": {"a": 1}}]}, "response": {"body": "{{request.headers.Content-Length}}|{{request.headers.Via}}", "transformers": ["response-template"]}}"#
        )
        defer { backend.stop() }
        var options = MockServer.Options()
        options.proxyUnmatched = ProxyRule(target: try UpstreamTarget(backend.url))
        let proxy = MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
        let port = try proxy.start(port: 0)
        defer { proxy.stop() }
        let gzip: [UInt8] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0x4a, 0x54, 0xb2, 0x32, 0xac, 0x05, 0x00, 0xaf, 0xac,
            0x1b, 0x56, 0x07, 0x00, 0x00, 0x00,
        ]
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send(
            "POST /up HTTP/1.1\r\nHost: 127.0.0.1\r\nVia: 1.1 upstream-gw\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 27\r\nConnection: close\r\n\r\n"
        )
        client.send(gzip)
        let answer = client.read(timeout: 20)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(400))")
        #expect(answer.contains("\r\n\r\n27|"), "\(answer.suffix(200))") // 27 bytes: the gzip, not the 7 decoded
        let sent = try #require(backend.server.journal.ordered.first?.request)
        #expect(sent.headers.values("Via") == ["1.1 upstream-gw", "1.1 \(proxy.parts.proxy.loop.token)"])
    }
}
