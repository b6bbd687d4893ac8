import Foundation
import Testing

/// `record` stopped while a forward still waits for its backend (R9D-9): the exchange is in no recording and no count,
/// and it passed (exit 0, a warning only). It is now a recording problem naming it: exit 4.
@Suite struct RecordingStopEndToEndTests {
    @Test func aForwardStillInFlightAtTheStopFailsTheRecording() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backendPort = try CLI.freePort()
        let backend = try #require(CLI.loopbackSocket(backendPort, listening: true))
        defer { close(backend) }
        let port = try CLI.freePort()
        let root = directory.appendingPathComponent("rec").path
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        let result = try CLI.run(["record", "--port", String(port), "--target", "http://127.0.0.1:\(backendPort)", "--into", root]) {
            process, _ in
            defer { kill(process.processIdentifier, SIGTERM) }
            try #require(CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil })
            // One exchange answered and recorded (so the recording is not empty), then one left waiting at the stop.
            let fast = try #require(Self.ask(port, "/fast"))
            held.append(fast)
            let first = try #require(Self.accepted(backend))
            _ = Self.read(first, untilEnd: false)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
            _ = answer.withUnsafeBytes { write(first, $0.baseAddress, $0.count) }
            close(first)
            try #require(Self.read(fast, untilEnd: true).hasSuffix("ok"))
            held.append(try #require(Self.ask(port, "/slow")))
            let second = try #require(Self.accepted(backend)) // the forward is in flight: never answered
            held.append(second)
        }
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("✗ recording: a request was still arriving or being forwarded"), "\(result.stderr)")
        #expect(result.stderr.contains("it is not in the recording"), "\(result.stderr)")
    }

    /// A client connection to the record server with `GET path` sent.
    private static func ask(_ port: UInt16, _ path: String) -> Int32? {
        guard let fd = CLI.loopbackSocket(port) else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return fd
    }

    /// The next connection on `listener`, waiting at most 20 s for it.
    private static func accepted(_ listener: Int32) -> Int32? {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 20_000) == 1 else { return nil }
        let fd = accept(listener, nil, nil)
        return fd >= 0 ? fd : nil
    }

    /// What arrives on `fd` (one read, or `untilEnd` everything until the peer closes), each wait at most 20 s.
    private static func read(_ fd: Int32, untilEnd: Bool) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        repeat {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20_000) == 1 else { break }
            let count = Glibc.read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[..<count]
        } while untilEnd
        return String(decoding: received, as: UTF8.self)
    }
}
