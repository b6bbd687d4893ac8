import Foundation
import Testing

@testable import MockServer

/// What a broken or hostile client gets from the HTTPS port: the plain server's treatment, and none of it holds
/// up another client (HOSTILE.md 5 and 6, for the TLS surface).
@Suite(.enabled(if: tlsAvailable, "needs libssl.so.3 or libssl.so.1.1"))
struct TLSHostileClientTests {
    private func shortLimits() -> ServerLimits {
        var limits = ServerLimits()
        limits.headerTimeoutMs = 500
        return limits
    }

    /// A curl request that must be answered within `seconds`, verifying the certificate.
    private func curlAnswers(_ server: TLSTestServer, within seconds: Double = 3) throws -> Bool {
        let start = Date()
        let result = try server.shell(#"curl -sS --max-time 5 --cacert "$CA" "$URL/hello""#)
        return result.stdout == "hello over tls" && Date().timeIntervalSince(start) < seconds
    }

    @Test func plainHTTPToTheHTTPSPortGetsA400ThatSaysSoAndTheConnectionCloses() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = client.read(timeout: 5)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
        #expect(answer.contains("plain HTTP sent to an HTTPS port"))
        #expect(answer.contains("Connection: close"))
        #expect(client.isClosed())
        // With a body still coming, the answer is not lost to a reset.
        let poster = try RawClient(port: server.port)
        defer { poster.close() }
        poster.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 100_000))
        #expect(poster.read(until: "HTTPS port", timeout: 5).contains("plain HTTP sent to an HTTPS port"))
        // Both are unexpected requests in the journal, with the reason (a strict run fails on them).
        server.server.settle(timeout: .seconds(5))
        let entries = server.server.journal.ordered
        #expect(entries.map(\.request.target) == ["/hello", "/upload"], "\(entries.map(\.request.target))")
        #expect(entries.allSatisfy { $0.nearMiss?.contains("plain HTTP sent to an HTTPS port") == true && $0.status == 400 })
    }

    /// r6a-12: the Host library speaks no TLS; sut-launch gives it `SUT_CONTROL_URL=http://` on the HTTPS port. A
    /// loopback client's plain request for the control channel is served; any other plain request on that
    /// connection, or to any other path, is still the 400.
    @Test func plainHTTPToTheControlChannelIsServedOnTheHTTPSPort() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(
            "POST /__sut/control HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 2\r\n\r\nhi"
                + "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = client.read(until: "HTTPS port", timeout: 5)
        #expect(answer.hasPrefix("HTTP/1.1 202 "), "\(answer)")
        #expect(answer.contains("plain HTTP sent to an HTTPS port"), "\(answer)")
        #expect(!answer.contains("hello over tls"), "\(answer)")
    }

    @Test(.enabled(if: hasCommand("curl"))) func curlSpeakingPlainHTTPSeesWhy() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let result = try server.shell(#"curl -sS -w ' %{http_code}' "http://127.0.0.1:$PORT/hello""#)
        #expect(result.stdout == "plain HTTP sent to an HTTPS port: use https:// for this server\n 400", "\(result.stderr)")
    }

    /// Bytes that are no TLS a server should go on with, by name (the name is what a failure prints).
    static let garbage: [String: [UInt8]] = [
        "zeros": [UInt8](repeating: 0, count: 64),
        "a handshake record holding junk": [0x16, 0x03, 0x01, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        "a record over the 16 KiB limit": [0x16, 0x03, 0x01, 0x48, 0x01] + [UInt8](repeating: 0x01, count: 18_433),
        "application data before any handshake": [0x17, 0x03, 0x03, 0x00, 0x10] + [UInt8](repeating: 0x41, count: 16),
        "control characters and a blank line": Array("\u{1}\u{2}garbage\r\n\r\n".utf8),
    ]

    @Test(.enabled(if: hasCommand("curl")), arguments: garbage.keys.sorted())
    func garbageClosesTheConnectionAtOnce(name: String) throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(Self.garbage[name]!)
        #expect(client.endsWithin(3))
        #expect(try curlAnswers(server))
    }

    @Test(.enabled(if: hasCommand("curl"))) func aTruncatedClientHelloClosesWhenTheClientStopsAndTimesOutWhenItStalls() throws {
        let server = try TLSTestServer(tlsStubs, limits: shortLimits())
        defer { server.stop() }
        // The first 60 bytes of a ClientHello whose record and message announce 256 and 252 bytes.
        let prefix: [UInt8] = [0x16, 0x03, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFC, 0x03, 0x03] + [UInt8](repeating: 7, count: 49)
        let ending = try RawClient(port: server.port)
        defer { ending.close() }
        ending.send(prefix)
        shutdown(ending.fd, Int32(SHUT_WR))
        #expect(ending.endsWithin(3))

        let stalling = try RawClient(port: server.port)
        defer { stalling.close() }
        let start = Date()
        stalling.send(prefix)
        // Meanwhile another client is served at once.
        #expect(try curlAnswers(server, within: 2))
        #expect(stalling.endsWithin(5))
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.4 && waited < 3, "closed after \(waited) s; the head timeout is 0.5 s")
    }

    @Test(.enabled(if: hasCommand("curl"))) func aHandshakeFloodIsBoundedByTheConnectionCap() throws {
        var limits = shortLimits()
        limits.maxConnections = 4
        limits.headerTimeoutMs = 10_000
        let server = try TLSTestServer(tlsStubs, limits: limits)
        defer { server.stop() }
        var flood: [RawClient] = []
        defer { flood.forEach { $0.close() } }
        for _ in 0..<4 {
            let client = try RawClient(port: server.port)
            client.send([0x16, 0x03, 0x01])
            flood.append(client)
        }
        usleep(300_000) // all four accepted and waiting in their handshakes
        // Over the cap: closed without a plain-text 503 a TLS client would misread.
        let extra = try RawClient(port: server.port)
        defer { extra.close() }
        #expect(extra.read(timeout: 3).isEmpty)
        #expect(extra.isClosed(timeout: 1))
        flood.removeFirst().close()
        usleep(300_000) // its thread has seen the close
        #expect(try curlAnswers(server))
    }

    @Test func stoppingTheServerEndsAHandshakeInProgress() throws {
        let server = try TLSTestServer(tlsStubs)
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send([0x16, 0x03, 0x01])
        usleep(100_000)
        server.stop()
        #expect(client.endsWithin(3))
    }
}
