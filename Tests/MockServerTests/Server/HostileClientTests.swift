import Foundation
import Testing

@testable import MockServer

/// No request, stub or admin call can crash, freeze, bloat the server or read files through it (issue 10).
@Suite struct HostileClientTests {
    private func post(_ client: RawClient, _ path: String, body: String, headers: String = "") -> String {
        client.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return client.read(until: "\r\n\r\n", timeout: 10)
    }

    private func statusLine(_ response: String) -> String { String(response.prefix { $0 != "\r\n" && $0 != "\n" }) }

    @Test(arguments: [127, 128, 129, 300, 100_000])
    func deeplyNestedJSONBodiesCannotCrashTheServer(depth: Int) throws {
        let server = try TestServer(
            """
            { "routes": [ { "method": "POST", "path": "/x", "requestJson": { "a": 1 }, "body": "matched" } ] }
            """)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let body = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(statusLine(post(client, "/x", body: body)) == "HTTP/1.1 404 Not Found")
        let object = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(statusLine(post(client, "/x", body: object)).hasPrefix("HTTP/1.1 "))
        let after = try RawClient(port: server.port)
        defer { after.close() }
        #expect(statusLine(post(after, "/x", body: "{\"a\":1}")) == "HTTP/1.1 200 OK")
    }

    /// Third attack, F8: bytes that are not UTF-8 in the target or a header value were read as U+FFFD, so a strict
    /// replay matched bytes never sent and a proxy forwarded others. A 400 naming them; UTF-8 text still answers.
    @Test(arguments: [
        ("GET /\u{FF}\u{FE}/x HTTP/1.1\r\nHost: a\r\n\r\n", "400", "the request target is not UTF-8"),
        ("GET /x HTTP/1.1\r\nHost: a\r\nX-V: \u{FF}\u{FE}\r\n\r\n", "400", "header X-V's value is not UTF-8"),
        ("GET /\u{C3}\u{A9} HTTP/1.1\r\nHost: a\r\nX-V: \u{C3}\u{A9}\r\n\r\n", "200", "accented"),
    ])
    func bytesThatAreNotUTF8AreRefusedNotReplaced(request: String, status: String, said: String) throws {
        let server = try TestServer(#"{ "routes": [ { "path": "/x", "body": "x" }, { "path": "/\#u{E9}", "body": "accented" } ] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        // Each scalar below U+0100 stands for one byte (Latin-1), so the request holds exactly the bytes written.
        client.send(request.unicodeScalars.map { UInt8($0.value) })
        let answer = client.read(until: said, timeout: 10)
        #expect(statusLine(answer).hasPrefix("HTTP/1.1 \(status)") && answer.contains(said), "\(answer)")
    }

    @Test func aCatastrophicPatternDoesNotStallOtherRequests() throws {
        let server = try TestServer(#"{ "request": { "urlPathPattern": "/r/(a+)+$" }, "response": { "body": "r" } }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /r/\(String(repeating: "a", count: 30))! HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(statusLine(client.read(until: "\r\n\r\n", timeout: 10)) == "HTTP/1.1 404 Not Found")
        client.send("GET /r/aaaa HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: "\r\n\r\nr", timeout: 10).hasSuffix("\r\n\r\nr"))
    }

    @Test func adminMappingsCannotReadFilesOutsideTheirFilesRoot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(UUID().uuidString)")
        let files = root.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "inside".write(to: files.appendingPathComponent("ok.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: files.appendingPathComponent("out").path, withDestinationPath: "/etc/passwd")
        let stubFile = root.appendingPathComponent("stubs.json")
        try #"{ "request": { "urlPath": "/seed" }, "response": { "body": "seed" } }"#.write(to: stubFile, atomically: true, encoding: .utf8)
        let server = try TestServer(stubs: try StubLoader.load(stubFile.path))
        defer { server.stop() }
        for (name, expected) in [("/etc/passwd", "422"), ("../stubs.json", "422"), ("out", "422"), ("ok.txt", "201")] {
            let client = try RawClient(port: server.port)
            defer { client.close() }
            let mapping = #"{"request":{"urlPath":"/f"},"response":{"bodyFileName":"\#(name)"}}"#
            let response = post(client, "/__admin/mappings", body: mapping, headers: "Content-Type: application/json\r\n")
            #expect(statusLine(response).contains(expected), "bodyFileName \(name): \(statusLine(response))")
        }
    }

    @Test(arguments: [
        ("Host: evil.example\r\n", "application/json", "403"),
        ("Host: 127.evil.example\r\n", "application/json", "403"),
        ("Origin: http://evil.example\r\n", "application/json", "403"),
        ("", "text/plain", "415"),
        ("", "application/x-www-form-urlencoded", "415"),
        // Another origin on this machine (a page served by a dev server on another port) is cross-site too.
        ("Origin: http://127.0.0.1:9\r\n", "application/json", "403"),
        ("Sec-Fetch-Site: cross-site\r\n", "application/json", "403"),
        // A Host that is no authority, and two types (the first was read): 400, as other malformed heads (r7a F8).
        ("Host: localhost:18080:1\r\n", "application/json", "400"),
        ("Host: 127.0.0.1\r\nContent-Type: text/plain\r\n", "application/json", "400"),
        ("Host: 127.0.0.1\r\nContent-Type: application/json\r\n", "text/plain", "400"),
    ])
    func theAdminAPIRefusesCrossSiteWrites(header: String, contentType: String, expected: String) throws {
        let server = try TestServer(#"{ "routes": [] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let mapping = #"{"request":{"urlPath":"/added"},"response":{"body":"x"}}"#
        let hostLine = header.hasPrefix("Host:") ? "" : "Host: 127.0.0.1\r\n"
        client.send(
            "POST /__admin/mappings HTTP/1.1\r\n\(hostLine)\(header)Content-Type: \(contentType)\r\nContent-Length: \(mapping.utf8.count)\r\n\r\n\(mapping)"
        )
        let response = client.read(until: "\r\n\r\n", timeout: 10)
        #expect(statusLine(response).contains(expected), "\(statusLine(response))")
        #expect(!response.lowercased().contains("access-control-allow"))
    }

    @Test func noAdminTurnsTheAdminAPIOff() throws {
        var options = MockServer.Options()
        options.admin = false
        let server = MockServer(stubs: try StubLoader.parse(#"{ "routes": [] }"#, file: "t.json"), host: "127.0.0.1", options: options)
        let port = try server.start(port: 0)
        defer { server.stop() }
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(statusLine(client.read(until: "\r\n\r\n")) == "HTTP/1.1 404 Not Found")
        #expect(server.summary.unexpectedTotal == 1)
    }

    @Test func chunkExtensionsCountTowardALimit() throws {
        let server = try TestServer(#"{ "routes": [ { "method": "POST", "path": "/u", "body": "ok" } ] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("1;\(String(repeating: "e", count: 1000))\r\nx\r\n".utf8)
        var answer = ""
        for _ in 0..<2_000 where answer.isEmpty {
            client.send(chunk)
            var pfd = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 0) > 0 { answer = client.read(until: "\r\n\r\n", timeout: 1) }
        }
        if answer.isEmpty { answer = client.read(until: "\r\n\r\n", timeout: 5) }
        #expect(statusLine(answer) == "HTTP/1.1 400 Bad Request")
        #expect(answer.contains("chunk size lines"))
    }

    @Test func trailersHaveALimit() throws {
        let server = try TestServer(#"{ "routes": [ { "method": "POST", "path": "/u", "body": "ok" } ] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n")
        for index in 0..<400 { client.send("X-Trailer-\(index): \(String(repeating: "t", count: 100))\r\n") }
        #expect(statusLine(client.read(until: "\r\n\r\n")) == "HTTP/1.1 431 Request Header Fields Too Large")
        let ok = try RawClient(port: server.port)
        defer { ok.close() }
        ok.send("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-Small: 1\r\n\r\n")
        #expect(ok.read(until: "\r\n\r\nok").hasSuffix("ok"))
    }

    @Test func theJournalKeepsBoundedBodiesAndRedactsSecrets() throws {
        let server = try TestServer(#"{ "routes": [ { "method": "POST", "path": "/u", "body": "ok" } ] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let body = String(repeating: "b", count: 1 << 20)
        for _ in 0..<5 {
            #expect(
                statusLine(post(client, "/u", body: body, headers: "Authorization: Bearer s3cret\r\nCookie: session=abc\r\n"))
                    == "HTTP/1.1 200 OK")
        }
        let journal = server.server.journal
        #expect(journal.ordered.allSatisfy { $0.request.body.count == Journal.maxBodyBytes && $0.bodySize == 1 << 20 && $0.bodyTruncated })
        let json = journal.json()
        #expect(json.contains("\"Authorization\":\"[redacted]\"") && json.contains("\"Cookie\":\"[redacted]\""))
        #expect(!json.contains("s3cret") && json.contains("\"bodyTruncated\":true"))
        #expect(journal.json(secrets: true).contains("Bearer s3cret"))
        // The in-memory journal keeps the values: steps and assertions can still check them.
        #expect(journal.ordered.first?.request.header("Authorization") == "Bearer s3cret")
    }

    @Test func theJournalHasAMemoryBudgetAndTheSummarySaysWhatItDropped() {
        var journal = Journal(limit: 10_000, byteBudget: 256 * 1024)
        for sequence in 1...20 {
            journal.append(
                JournalEntry(
                    sequence: sequence, receivedAtMs: 0,
                    request: HTTPRequest(method: "POST", target: "/u", body: Array(repeating: 1, count: 100_000)),
                    stubID: "s", stubName: "s", status: 200))
        }
        #expect(journal.count == 3 && journal.dropped == 17)
        #expect(journal.ordered.first?.sequence == 18)
        // The coded body a proxy forwards counts too, and is kept only within the per-body bound.
        var coded = Journal(limit: 10_000, byteBudget: 256 * 1024)
        for (sequence, size) in [60_000, 60_000, 60_000, 60_000, 60_000, 16 << 20].enumerated() {
            var request = HTTPRequest(method: "POST", target: "/u")
            request.codedBody = Array(repeating: 1, count: size)
            coded.append(JournalEntry(sequence: sequence + 1, receivedAtMs: 0, request: request, stubID: "s", stubName: "s", status: 200))
        }
        #expect(coded.count == 5 && coded.dropped == 1, "\(coded.count) \(coded.dropped)")
        #expect(coded.ordered.last?.request.codedBody == nil && coded.ordered.first?.request.codedBody?.count == 60_000)
    }

    @Test func bodyFilesInStubFilesStayBesideTheirStubFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("link").path, withDestinationPath: "/etc/passwd")
        for name in ["/etc/passwd", "../x", "link"] {
            #expect {
                try StubLoader.parse(
                    #"{ "routes": [ { "path": "/a", "bodyFile": "\#(name)" } ] }"#, file: "s.json", directory: directory.path)
            } throws: {
                "\($0)".contains("s.json:1:") && ("\($0)".contains("absolute") || "\($0)".contains("..") || "\($0)".contains("outside"))
            }
        }
    }
}
