import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// r10a C3: `GET /__admin/requests` (and `…/unmatched`) built its whole answer before writing a byte (each journaled
/// body twice, as text and base64: 300 bodies of 60 KB made 43 MB per reader) and went on building it after its client
/// had gone: 8 readers that hung up cost 34 s of CPU and 830 MB. Now the listings are written as they are made, in
/// pieces, and the making stops at the first piece that cannot be written. Real sockets.
@Suite struct AdminListingStreamTests {
    /// A server whose journal holds `count` POSTs of `bytes` bytes each.
    private func journaled(_ count: Int, bytes: Int) throws -> (MockServer, UInt16) {
        let mock = MockServer(stubs: StubSet(), host: "127.0.0.1")
        let upload = [UInt8](repeating: 0x7A, count: bytes)
        for index in 0..<count {
            _ = mock.parts.journal.record(
                HTTPRequest(method: "POST", target: "/j\(index)", body: upload), stub: nil, response: MockResponse(status: 404),
                nearMiss: "none")
        }
        return (mock, try mock.start(port: 0))
    }

    /// Sends `request` and reads the answer to the server's close: its head and its body's bytes.
    private func exchange(_ port: UInt16, _ request: String) throws -> (head: String, body: [UInt8]) {
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send(request)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let count = recv(client.fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let end = try #require(ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: received))
        return (String(decoding: received[..<end], as: UTF8.self), Array(received[(end + 4)...]))
    }

    /// A chunked body's chunks.
    private func chunks(_ body: [UInt8]) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var at = 0
        while true {
            var lineEnd = at
            while lineEnd + 1 < body.count, body[lineEnd] != 0x0D || body[lineEnd + 1] != 0x0A { lineEnd += 1 }
            let size = try #require(Int(String(decoding: body[at..<lineEnd], as: UTF8.self), radix: 16))
            at = lineEnd + 2
            if size == 0 { return chunks }
            chunks.append(Array(body[at..<(at + size)]))
            at += size + 2
        }
    }

    @Test func theJournalListingIsWrittenInPiecesAndReadsWhole() throws {
        let (mock, port) = try journaled(100, bytes: 20_000)
        defer { mock.stop() }
        let (head, body) = try exchange(port, "GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.contains("Transfer-Encoding: chunked"), "\(head)")
        #expect(!head.contains("Content-Length"), "\(head)")
        let pieces = try chunks(body)
        #expect(pieces.count > 20, "\(pieces.count) chunks")
        #expect(pieces.allSatisfy { $0.count < 1024 * 1024 }, "\(pieces.map(\.count).max() ?? 0) bytes in one chunk")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(pieces.joined())) as? [String: Any])
        #expect((listing["requests"] as? [Any])?.count == 100)
        #expect((listing["meta"] as? [String: Any])?["total"] as? Int == 100)
        // HTTP/1.0 has no chunks: the body goes as it comes and ends with the connection.
        let (head10, body10) = try exchange(port, "GET /__admin/requests?limit=2 HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(head10.hasPrefix("HTTP/1.0 200 OK") && !head10.contains("Transfer-Encoding") && head10.contains("Connection: close"))
        let limited = try #require(try JSONSerialization.jsonObject(with: Data(body10)) as? [String: Any])
        #expect(
            (limited["requests"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } == [
                "/j99", "/j98",
            ])
    }

    @Test func aStreamWhoseClientsHaveGoneStopsBeingMade() throws {
        let made = Counter()
        let server = HTTPServer { _ in
            var response = MockResponse(status: 200, headers: ["Content-Type": "application/json"])
            response.stream = BodyStream { emit in
                for _ in 0..<200_000 {
                    made.add()
                    guard emit(String(repeating: "x", count: 1024)) else { return }
                }
            }
            return response
        }
        _ = try server.start(port: 0)
        defer { server.stop() }
        // Eight readers at once, each gone after the head (a 200 MB answer each, were it made).
        let clients = try (0..<8).map { _ in try SlowClient(port: server.port) }
        for client in clients { client.send("GET /listing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        for client in clients { #expect(client.read(until: "\r\n\r\n").contains("Transfer-Encoding: chunked")) }
        for client in clients { client.close() }
        #expect(waitUntil(timeout: 60) { server.openConnections == 0 }, "a connection whose client has gone is still served")
        #expect(made.value < 8 * 20_000, "\(made.value) pieces of 1 KiB made for 8 clients that had gone")
    }
}

/// A count shared with a server's connection threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
