import Foundation
import Testing

@testable import MockServer

/// Request bodies sent with `Content-Encoding: gzip` or `deflate` are decoded before matching, as WireMock decodes
/// them (it answered 200 where this server answered 404); bounded by the body limit like every body.
@Suite(.enabled(if: hasCommand("python3"), "needs python3 (its zlib and gzip modules compress the bodies)"))
struct ContentCodingTests {
    static let order = #"{"item": "book", "quantity": 2, "gift": false}"#

    /// An `equalToJson` mapping that echoes the body it matched.
    static let mappings = """
        { "mappings": [
          { "request": { "method": "POST", "urlPath": "/orders", "bodyPatterns": [ { "equalToJson": { "quantity": 2, "item": "book", "gift": false } } ] },
            "response": { "status": 200, "body": "ordered {{{request.body}}}", "transformers": ["response-template"] } }
        ] }
        """

    /// `bytes` compressed by Python's zlib: `gzip`, `zlib`, `raw` (DEFLATE without a wrapper).
    static func compressed(_ bytes: [UInt8], _ format: String) throws -> [UInt8] {
        let script = """
            import sys, zlib
            wbits = {"gzip": 31, "zlib": 15, "raw": -15}[sys.argv[1]]
            c = zlib.compressobj(6, zlib.DEFLATED, wbits)
            sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())
            """
        return try python(script, [format], stdin: bytes)
    }

    /// What a Python script writes to its standard output, as bytes.
    static func python(_ script: String, _ arguments: [String] = [], stdin: [UInt8] = []) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        let bytes = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return bytes
    }

    /// Sends one POST with these codings and body; the status line and the body of the answer.
    static func post(_ server: TestServer, _ body: [UInt8], encoding: String) throws -> (status: String, body: String) {
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: \(encoding)\r\n")
        client.send("Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
        client.send(body)
        let whole = client.read(timeout: 20) // until the server closes
        let status = String(whole.prefix { $0 != "\r\n" })
        let content = whole.range(of: "\r\n\r\n").map { String(whole[$0.upperBound...]) } ?? ""
        return (status, content)
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func curlSendingAGzipBodyMatchesEqualToJsonOnTheDecodedBody() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString).json.gz")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try Self.compressed(Array(Self.order.utf8), "gzip")).write(to: file)
        let result = try run(
            "curl",
            [
                "-s", "-w", " %{http_code}", "--data-binary", "@\(file.path)", "-H", "Content-Encoding: gzip", "-H",
                "Content-Type: application/json", "\(server.url)/orders",
            ])
        #expect(result.stdout == "ordered \(Self.order) 200")
        // The journal keeps the decoded body (what matchers and templates saw) and the headers as sent.
        let entry = try #require(server.server.journal.ordered.last)
        #expect(entry.request.body == Array(Self.order.utf8))
        #expect(entry.request.headers["Content-Encoding"] == "gzip")
        #expect(entry.stubID != nil)
    }

    @Test func deflateAsZlibOrRawAndStackedOrListedCodingsAreDecoded() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        let order = Array(Self.order.utf8)
        let gzip = try Self.compressed(order, "gzip")
        for (body, encoding) in [
            (try Self.compressed(order, "zlib"), "deflate"), (try Self.compressed(order, "raw"), "deflate"), (gzip, "x-gzip"),
            (gzip, "GZIP"), (gzip, "gzip, identity"), (gzip, "identity,gzip"), (try Self.compressed(gzip, "zlib"), "gzip, deflate"),
        ] {
            let answer = try Self.post(server, body, encoding: encoding)
            #expect(answer.status == "HTTP/1.1 200 OK", "Content-Encoding: \(encoding)")
            #expect(answer.body == "ordered \(Self.order)", "Content-Encoding: \(encoding)")
        }
    }

    @Test func unknownCodingsLeaveTheBodyAsSent() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        // WireMock decodes what it knows and leaves the rest: a body "in br" that is plain JSON matches as sent.
        #expect(try Self.post(server, Array(Self.order.utf8), encoding: "br").status == "HTTP/1.1 200 OK")
        let gzip = try Self.compressed(Array(Self.order.utf8), "gzip")
        #expect(try Self.post(server, gzip, encoding: "gzip, br").status == "HTTP/1.1 404 Not Found")
        #expect(server.server.journal.ordered.last?.request.body == gzip)
    }

    @Test func aDecompressionBombIsA413AndAnUnexpectedRequest() throws {
        // 1 GiB of zeros in about 1 MB of gzip: each 1 MiB compresses to the same bytes after a full flush.
        let bomb = try Self.python(
            """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, 31)
            head = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            chunk = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
            sys.stdout.buffer.write(head + chunk * 1023 + b"\\x03\\x00" + bytes(8))
            """)
        #expect(bomb.count < 1_100_000)
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        let started = ContinuousClock.now
        let answer = try Self.post(server, bomb, encoding: "gzip")
        #expect(answer.status == "HTTP/1.1 413 Content Too Large")
        #expect(answer.body == "request body decoded from gzip is larger than 16777216 bytes\n")
        #expect(ContinuousClock.now - started < .seconds(20)) // stopped at 16 MiB, not 1 GiB
        let summary = server.server.summary
        #expect(summary.unexpectedTotal == 1)
        #expect(summary.unexpected.first?.nearMiss.contains("refused 413: request body decoded from gzip is larger than") == true)
        let entry = try #require(server.server.journal.ordered.last)
        #expect(entry.status == 413 && entry.isUnexpected)
    }

    @Test func aBodyThatDoesNotDecodeIsA400AndAnUnexpectedRequest() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        var gzip = try Self.compressed(Array(Self.order.utf8), "gzip")
        gzip[gzip.count - 8] ^= 0xFF
        var answer = try Self.post(server, gzip, encoding: "gzip")
        #expect(answer.status == "HTTP/1.1 400 Bad Request")
        #expect(answer.body.hasPrefix("request body is not valid gzip (Content-Encoding): corrupt compressed data at byte "))
        #expect(answer.body.hasSuffix(": CRC-32 does not match the data\n"))
        answer = try Self.post(server, Array(Self.order.utf8), encoding: "deflate")
        #expect(answer.status == "HTTP/1.1 400 Bad Request")
        answer = try Self.post(server, Array(gzip.dropLast(4)), encoding: "gzip")
        #expect(answer.body == "request body is not valid gzip (Content-Encoding): the compressed data ends too soon\n")
        answer = try Self.post(server, Array(Self.order.utf8), encoding: "gzip,gzip,gzip,gzip,gzip")
        #expect(answer.body == "request body with 5 content codings (at most 4 are decoded)\n")
        #expect(server.server.summary.unexpectedTotal == 4)
    }
}
