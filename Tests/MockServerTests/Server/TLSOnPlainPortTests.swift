import Foundation
import Testing

@testable import MockServer

/// A TLS client on the plain-HTTP port is told so at once (a 400 naming the mistake, then the close), not left to
/// the 10 s header timeout with its ClientHello reported as a request line (the converse of the HTTPS port's
/// "plain HTTP sent to an HTTPS port").
@Suite struct TLSOnPlainPortTests {
    private let stubs = #"{"routes": [{"method": "GET", "path": "/hello", "body": "hello"}]}"#
    private static let message = "TLS sent to a plain HTTP port: this port speaks plain HTTP; use http:// or --https"

    @Test func aTLSRecordIsAnswered400AtOnceAndRecordedWithItsFirstBytesOnly() throws {
        let server = try TestServer(stubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        // A ClientHello's record header and the start of its body: the rest never comes.
        client.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + [UInt8](repeating: 0x5A, count: 300))
        let started = Date()
        let answer = client.read(until: "--https", timeout: 8)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && answer.contains(Self.message), "\(answer)")
        #expect(client.isClosed())
        #expect(Date().timeIntervalSince(started) < 5, "answered only after the header timeout")
        server.server.settle(timeout: .seconds(5))
        let entries = server.server.journal.ordered
        #expect(entries.map(\.request.target) == [#"\x16\x03\x01"#], "\(entries.map(\.request.target))")
        #expect(entries.first?.status == 400 && entries.first?.nearMiss?.contains(Self.message) == true)
        // The plain port still serves plain HTTP.
        let plain = try RawClient(port: server.port)
        defer { plain.close() }
        plain.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(plain.read(timeout: 5).hasSuffix("hello"))
    }

    @Test func oneByteOfARecordIsEnoughAndAKeepAliveConnectionIsCheckedAtEachRequest() throws {
        let server = try TestServer(stubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send([0x16])
        #expect(client.read(until: "--https", timeout: 5).contains(Self.message))
        // After a plain request on the same connection, a record where the next request should start.
        let reused = try RawClient(port: server.port)
        defer { reused.close() }
        reused.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(reused.read(until: "hello", timeout: 5).hasSuffix("hello"))
        reused.send([0x16, 0x03, 0x03, 0x00, 0x02, 0x01, 0x00])
        #expect(reused.read(until: "--https", timeout: 5).contains(Self.message))
    }

    @Test(.enabled(if: hasCommand("python3"))) func pythonsTLSClientFailsAtOnceAndTheAnswerSaysWhy() throws {
        let server = try TestServer(stubs)
        defer { server.stop() }
        let script = """
            import socket, ssl, sys, time
            context = ssl.create_default_context()
            started = time.monotonic()
            raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
            try:
                context.wrap_socket(raw, server_hostname="localhost")
                print("handshake completed")
            except OSError as error:
                print("ssl error after %.1f s" % (time.monotonic() - started))
            """
        let result = try run("python3", ["-c", script, String(server.port)])
        let seconds = Double(result.stdout.split(separator: " ").dropFirst(3).first ?? "") ?? 99
        #expect(result.stdout.hasPrefix("ssl error after") && seconds < 5, "\(result.stdout) \(result.stderr)")
        server.server.settle(timeout: .seconds(5))
        #expect(server.server.journal.ordered.first?.nearMiss?.contains(Self.message) == true)
    }

    @Test(.enabled(if: hasCommand("curl"))) func curlSpeakingHTTPSToThePlainPortFailsAtOnce() throws {
        let server = try TestServer(stubs)
        defer { server.stop() }
        let started = Date()
        let result = try run("curl", ["-sS", "--max-time", "20", "https://127.0.0.1:\(server.port)/hello"])
        #expect(result.status == 35, "\(result.stderr)") // curl's "SSL connect error": what it says of a 400 in plain text
        #expect(Date().timeIntervalSince(started) < 5, "answered only after the header timeout")
        server.server.settle(timeout: .seconds(5))
        #expect(server.server.journal.ordered.map(\.status) == [400])
    }
}
