import AutomationSupport
import Foundation
import Testing

@testable import AutomationHost

/// A control endpoint written here, on a real loopback socket: each connection gets the next canned answer, and
/// every request line it received is kept (the acknowledgements a program sent).
private final class CannedEndpoint: @unchecked Sendable {
    let port: UInt16
    private let listener: Socket
    private let lock = NSLock()
    private var lines: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init(answers: [[UInt8]]) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        let thread = Thread { [self] in
            for answer in answers {
                guard let (client, _) = listener.accept() else { break }
                var request: [UInt8] = []
                var scratch = [UInt8](repeating: 0, count: 4096)
                while !request.containsHeadEnd, client.waitReadable(timeoutMs: 10_000),
                    client.receive(into: &request, scratch: &scratch) > 0
                {}
                let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
                lock.withLock { lines.append(line) }
                client.send(answer)
                client.close()
            }
            done.signal()
        }
        thread.start()
    }

    /// The request lines received so far.
    var requests: [String] { lock.withLock { lines } }

    /// Waits until every canned answer was given (a deadline-bound wait), then closes the listener.
    func finish() -> Bool {
        defer { listener.close() }
        return done.wait(timeout: .now() + 30) == .success
    }
}

extension [UInt8] {
    fileprivate var containsHeadEnd: Bool {
        count >= 4 && indices.dropLast(3).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}

@Suite struct ControlChannelFramingTests {
    private static func answer(_ head: String, _ body: String = "") -> [UInt8] { Array((head + "\r\n\r\n" + body).utf8) }

    /// A message is taken, and its acknowledgement names the id as the server wrote it: the control of the refusals below.
    @Test func aWholeMessageIsTakenAndAcknowledgedByItsId() throws {
        let endpoint = try CannedEndpoint(answers: [
            Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 12\r\nContent-Length: 21", "flag set greeting=pwn"),
            Self.answer("HTTP/1.1 204 No Content\r\nContent-Length: 0"),
        ])
        let channel = ControlChannel(host: "127.0.0.1", port: endpoint.port)
        let message = channel.receive(timeoutMs: 0)
        #expect(message == ControlMessage(id: 12, text: "flag set greeting=pwn"))
        if let message { #expect(channel.acknowledge(message, reply: "done")) }
        #expect(endpoint.finish())
        #expect(endpoint.requests.last?.hasPrefix("POST /__sut/control/ack?id=12 ") == true, "\(endpoint.requests)")
    }

    /// A body cut short (the server closed after 21 of 100 bytes), two different Content-Lengths, a chunked body, an
    /// id written `01`, `-1` or `+1`, two ids: each was delivered as a message (the chunk framing as its text) and
    /// acknowledged, `01` as `id=1`. Each is now refused: no message, so nothing acted on and nothing acknowledged.
    @Test func framingTheClientCannotTrustIsRefusedNeverDelivered() throws {
        let hostile: [(String, [UInt8])] = [
            ("cut short", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: 100", "flag set greeting=pwn")),
            ("two lengths", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: 2\r\nContent-Length: 5", "hello")),
            ("chunked", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nTransfer-Encoding: chunked", "5\r\nhello\r\n0\r\n\r\n")),
            ("id 01", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 01\r\nContent-Length: 2", "hi")),
            ("id -1", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: -1\r\nContent-Length: 2", "hi")),
            ("id +1", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: +1\r\nContent-Length: 2", "hi")),
            ("two ids", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nX-Sut-Message-Id: 2\r\nContent-Length: 2", "hi")),
            ("no length", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1", "flag set greeting=pwn")),
            ("longer", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: 2", "hi there")),
            ("length +2", Self.answer("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: +2", "hi")),
            ("head cut", Array("HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Le".utf8)),
        ]
        let endpoint = try CannedEndpoint(answers: hostile.map(\.1))
        let channel = ControlChannel(host: "127.0.0.1", port: endpoint.port)
        for (name, _) in hostile {
            let message = channel.receive(timeoutMs: 0)
            #expect(message == nil, "\(name): delivered \(String(describing: message))")
        }
        #expect(endpoint.finish())
        #expect(endpoint.requests.allSatisfy { $0.hasPrefix("GET /__sut/control?") }, "\(endpoint.requests)")
        #expect(endpoint.requests.count == hostile.count)
    }

    /// The Host library escapes its own lines by sut-launch's rule (it cannot import the toolbox): the two agree on
    /// every scalar of the ranges either escapes, and around them.
    @Test func theHostEscapesAsSutLaunchDoes() {
        let ranges: [ClosedRange<UInt32>] = [0...0xFF, 0x2000...0x206F, 0xFEFF...0xFEFF, 0x1F600...0x1F600]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = "a" + String(Character(scalar)) + "b"
                #expect(HostEscaping.escaped(text) == text.escapingControlCharacters(), "U+\(String(value, radix: 16))")
            }
        }
    }
}
