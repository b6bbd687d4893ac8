import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// r10a C7: an answer had no write deadline. Each write had a 30 s send timeout of its own, so a client that sent a
/// request and never read held its connection and a thread as long as each partial write took a few bytes (still open
/// after 300 s), and a write that did time out left the connection idling 60 s more. Now the client may keep the
/// server waiting ``ServerLimits/sendTimeoutMs`` in all for one answer, then the connection is closed. Real sockets;
/// a client with a small receive buffer that never reads; the deadline set to 1 s.
@Suite struct WriteDeadlineTests {
    private func server(_ handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
        var limits = ServerLimits()
        limits.sendTimeoutMs = 1_000
        let server = HTTPServer(limits: limits, handler: handler)
        _ = try server.start(port: 0)
        return server
    }

    /// Sends `target`, reads the answer's head, then reads nothing until the server has closed the connection (at most
    /// 20 s); then everything left. The head, whether it closed, and the bytes after the head.
    private func neverReading(_ server: HTTPServer, _ target: String) throws -> (head: String, closed: Bool, rest: Int) {
        let client = try SlowClient(port: server.port)
        defer { client.close() }
        client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = client.read(until: "\r\n\r\n")
        let closedByServer = waitUntil(timeout: 20) { server.openConnections == 0 }
        let (rest, closed) = client.readToEnd(timeout: 20)
        return (head, closedByServer && closed, rest.count)
    }

    @Test func aClientThatNeverReadsALargeAnswerIsClosedAtTheWriteDeadline() throws {
        let body = [UInt8](repeating: 0x78, count: 16 * 1024 * 1024)
        let server = try server { _ in MockResponse(status: 200, body: body) }
        defer { server.stop() }
        let (head, closed, rest) = try neverReading(server, "/big")
        #expect(head.hasPrefix("HTTP/1.1 200 OK"), "\(head)")
        #expect(closed, "the server kept the connection of a client that does not read")
        #expect(rest < body.count, "\(rest) bytes: the whole answer was written")
    }

    @Test func aStreamedListingHasOneWriteDeadlineForAllItsPieces() throws {
        let mock = MockServer(stubs: StubSet(), host: "127.0.0.1")
        let upload = [UInt8](repeating: 0x79, count: 60_000)
        for index in 0..<300 {
            _ = mock.parts.journal.record(
                HTTPRequest(method: "POST", target: "/j\(index)", body: upload), stub: nil, response: MockResponse(status: 404),
                nearMiss: "none")
        }
        let server = try server { MockServer.respond(to: $0, parts: mock.parts) }
        defer { server.stop() }
        let (head, closed, rest) = try neverReading(server, "/__admin/requests")
        #expect(head.contains("Transfer-Encoding: chunked"), "\(head)")
        #expect(closed, "the server kept the connection of a client that does not read")
        #expect(rest < 300 * 60_000, "\(rest) bytes: the whole listing was written")
    }
}
