import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// Backends that do not complete a handshake: each ends the client's connect with one line, within its deadline,
/// never a crash or a wait without end.
@Suite(.enabled(if: tlsAvailable, "needs libssl.so.3 or libssl.so.1.1"))
struct TLSClientHostileServerTests {
    @Test func aServerThatNeverSpeaksTimesOutWithinTheDeadline() throws {
        let server = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000) // the ClientHello
            _ = ScriptedServer.read(socket, milliseconds: 5_000) // then silence until the client gives up
        }
        defer { server.stop() }
        let start = MonotonicClock.milliseconds()
        let refusal = tlsRefusal(port: server.port, insecure: true, timeoutMs: 300)
        let elapsed = MonotonicClock.milliseconds() - start
        #expect(refusal == "TLS handshake with localhost not completed within 300 ms")
        #expect(elapsed >= 290 && elapsed < 2_000, "\(elapsed) ms")
        // A deadline of 0 or below is spent at once, never read as "wait forever".
        #expect(tlsRefusal(port: server.port, insecure: true, timeoutMs: 0) == "TLS handshake with localhost not completed within 0 ms")
        #expect(tlsRefusal(port: server.port, insecure: true, timeoutMs: -1) == "TLS handshake with localhost not completed within 0 ms")
    }

    @Test func aServerThatClosesOrResetsHalfwayIsNamed() throws {
        let closing = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
        }
        defer { closing.stop() }
        #expect(tlsRefusal(port: closing.port) == "the server closed the connection during the TLS handshake with localhost")
        let resetting = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
            socket.resetOnClose()
        }
        defer { resetting.stop() }
        #expect(tlsRefusal(port: resetting.port) == "the server reset the connection during the TLS handshake with localhost")
        // Half a ServerHello, then the close.
        let halfway = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
            _ = socket.send([0x16, 0x03, 0x03, 0x00, 0x7A, 0x02, 0x00, 0x00, 0x76, 0x03, 0x03])
        }
        defer { halfway.stop() }
        #expect(tlsRefusal(port: halfway.port) == "the server closed the connection during the TLS handshake with localhost")
    }

    @Test func garbageOrPlainHTTPFromTheServerIsACleanFailure() throws {
        let garbage = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
            _ = socket.send(Array("\u{1B}]0;owned\u{07}\r\nnot TLS at all\0".utf8) + [UInt8](repeating: 0xFF, count: 64))
            _ = ScriptedServer.read(socket, milliseconds: 2_000)
        }
        defer { garbage.stop() }
        let refusal = tlsRefusal(port: garbage.port, insecure: true)
        #expect(refusal?.hasPrefix("TLS handshake with localhost failed: ") == true, "\(refusal ?? "accepted")")
        #expect(refusal?.contains("\u{1B}") == false && refusal?.contains("\n") == false)
        let plain = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
            _ = socket.send(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { plain.stop() }
        #expect(tlsRefusal(port: plain.port) == "localhost answered in plain HTTP, not TLS: is it an http:// server?")
    }

    @Test func randomBytesAsTheServersAnswerNeverCrashAndEndInTime() throws {
        let seeds = Locked<[UInt64]>([])
        let server = try ScriptedServer { socket in
            _ = ScriptedServer.read(socket, milliseconds: 5_000)
            let seed = seeds.withLock { $0.isEmpty ? 1 : $0.removeFirst() }
            var random = SplitMix64(seed: seed)
            // A plausible record header half of the time, so the bytes reach OpenSSL's parsers past the first check.
            var body = (0..<Int(4 + random.next() % 4_096)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if seed % 4 == 0 { // a ServerHello of the right length, random inside: its parser, not the record's, refuses it
                body[0...3] = [0x02, 0x00, UInt8((body.count - 4) >> 8), UInt8((body.count - 4) & 0xFF)]
                body[4...5] = [0x03, 0x03]
            }
            let header: [UInt8] = [0x16, 0x03, 0x03, UInt8(body.count >> 8), UInt8(body.count & 0xFF)]
            _ = socket.send(seed % 2 == 0 ? header + body : body)
            if seed % 3 != 0 { _ = ScriptedServer.read(socket, milliseconds: 1_000) } // else closed at once
        }
        defer { server.stop() }
        for seed in UInt64(1)...120 {
            seeds.withLock { $0.append(seed) }
            let start = MonotonicClock.milliseconds()
            let refusal = tlsRefusal(port: server.port, insecure: seed % 5 == 0, timeoutMs: 250)
            #expect(refusal != nil, "seed \(seed) completed a handshake from random bytes")
            #expect(refusal?.contains("\n") == false)
            #expect(MonotonicClock.milliseconds() - start < 2_000, "seed \(seed)")
        }
    }
}
