import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// One work budget per request for every stub's matchers and the near miss, one per admin search (issue 28): a big
/// body against a thousand regex mappings, or a posted pattern against the whole journal, ends in seconds with an
/// answer naming the budget, and other connections are served meanwhile.
@Suite struct MatchBudgetTests {
    /// Whole-matches a body of `a`s with several threads alive at every position: about 3 steps a byte. No literal is
    /// required of every match (an alternation at the end), so no body is skipped by a memmem.
    private static let heavyPattern = #"(?s).*(a|b)+(c|d).*"#

    private static func mappings(_ count: Int, method: String = "POST") -> String {
        let heavy = (0..<count).map { index in
            #"{ "request": { "method": "\#(method)", "url": "/upload", "bodyPatterns": [ { "matches": "(?s).*(a|b)+(c|d\#(index)).*" } ] }, "response": { "body": "m" } }"#
        }
        let plain = #"{ "request": { "method": "GET", "url": "/plain" }, "response": { "body": "plain" } }"#
        return #"{ "mappings": ["# + (heavy + [plain]).joined(separator: ",") + "] }"
    }

    /// The budget these tests give (the default, 50,000,000, takes minutes of a debug build on a shared machine;
    /// `scripts/bench-server.sh` measures it in a release build).
    private static let budget = 2_000_000
    /// Enough body for about a million steps per mapping: the budget is spent after a few.
    private static let body = [UInt8](repeating: UInt8(ascii: "a"), count: 256 << 10)

    private func budgeted(_ text: String) throws -> TestServer {
        var options = MockServer.Options()
        options.matchBudget = Self.budget
        let server = MockServer(stubs: try StubLoader.parse(text, file: "budget.json", directory: "."), host: "127.0.0.1", options: options)
        return TestServer(server: server, port: try server.start(port: 0))
    }

    private func request(_ port: UInt16, _ method: String, _ path: String, body: [UInt8] = [], headers: String = "") throws -> String {
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send(Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        return client.read(until: "\r\n\r\n", timeout: 120) + client.read(timeout: 0.5)
    }

    private func statusLine(_ response: String) -> String { String(response.prefix { $0 != "\r\n" && $0 != "\n" }) }

    @Test func aBigBodyAgainstAThousandRegexMappingsAnswers500NamingTheBudgetWhileOthersAreServed() throws {
        let server = try budgeted(Self.mappings(1_000))
        defer { server.stop() }
        let started = Date()
        let heavy = Locked<String?>(nil)
        let thread = Thread {
            heavy.withLock { $0 = try? self.request(server.port, "POST", "/upload", body: Self.body) }
        }
        thread.start()
        Thread.sleep(forTimeInterval: 0.3)
        let plainStarted = Date()
        #expect(try request(server.port, "GET", "/plain").hasSuffix("\r\n\r\nplain"))
        let plainSeconds = Date().timeIntervalSince(plainStarted)
        #expect(plainSeconds < 10, "a plain request waited \(plainSeconds) s behind the heavy one")
        while heavy.withLock({ $0 }) == nil && Date().timeIntervalSince(started) < 120 { Thread.sleep(forTimeInterval: 0.05) }
        let answer = heavy.withLock { $0 } ?? ""
        // Before the budget, 1,000 regex passes over 256 KiB: minutes of CPU. Generous: a debug build on a shared machine.
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(statusLine(answer) == "HTTP/1.1 500 Internal Server Error", "\(answer.prefix(300))")
        #expect(answer.contains("spent its work budget of 2000000 units after trying"), "\(answer.prefix(300))")
        // The heavy request's entry, whichever was journaled last (the plain one may be).
        let entry = try #require(server.server.parts.journal.entries.first { $0.request.path == "/upload" })
        #expect(entry.status == 500 && entry.isUnexpected)
        #expect(entry.nearMiss?.contains("work budget") == true)
    }

    @Test func aNearMissCutShortByTheBudgetStill404sAndSaysItStopped() throws {
        // Every mapping differs by method (choosing stops there, cheaply); the near miss compares bodies in full.
        let server = try budgeted(Self.mappings(60, method: "PUT"))
        defer { server.stop() }
        let answer = try request(server.port, "POST", "/upload", body: Self.body)
        #expect(statusLine(answer) == "HTTP/1.1 404 Not Found", "\(answer.prefix(300))")
        #expect(answer.contains("(the comparison stopped: the request's matching budget of 2000000 units is spent)"))
    }

    @Test func plainRequestsAreUntouchedByTheBudget() throws {
        let server = try budgeted(Self.mappings(50))
        defer { server.stop() }
        let answer = try request(server.port, "POST", "/upload", body: Array("aaac7".utf8))
        #expect(answer.hasSuffix("\r\n\r\nm"), "\(answer.prefix(300))")
        let miss = try request(server.port, "POST", "/upload", body: [])
        #expect(statusLine(miss) == "HTTP/1.1 404 Not Found")
        #expect(!miss.contains("work budget"))
    }

    @Test(arguments: ["/__admin/requests/count", "/__admin/requests/find", "/__admin/near-misses/request-pattern"])
    func anAdminSearchOverTheWholeJournalHasABudgetOfItsOwn(endpoint: String) throws {
        let server = try budgeted(#"{ "routes": [ { "method": "POST", "path": "/fill", "body": "ok" } ] }"#)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 8_000)
        for _ in 0..<300 {
            client.send(Array("POST /fill HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            _ = client.read(until: "\r\n\r\nok", timeout: 10)
        }
        let json = ["Content-Type: application/json\r\n"]
        let heavy = Array(#"{ "method": "POST", "bodyPatterns": [ { "matches": "\#(Self.heavyPattern)" } ] }"#.utf8)
        let answer = try request(server.port, "POST", endpoint, body: heavy, headers: json[0])
        #expect(statusLine(answer) == "HTTP/1.1 500 Internal Server Error", "\(answer.prefix(300))")
        #expect(answer.contains("\(endpoint) spent its work budget of 2000000 units after"), "\(answer.prefix(400))")
        // A cheap pattern over the same journal counts every entry: no partial count read as the whole.
        let cheap = Array(#"{ "method": "POST", "bodyPatterns": [ { "contains": "aaa" } ] }"#.utf8)
        let counted = try request(server.port, "POST", "/__admin/requests/count", body: cheap, headers: json[0])
        #expect(counted.hasSuffix("{\"count\":300}"), "\(counted.suffix(200))")
    }

    /// r9a B10: the metadata searches gave each mapping a budget of its own (12 s of CPU for one call over 120
    /// mappings, under the registry's lock). One budget per call, as the journal searches: a 500 naming it, and a
    /// `remove-by-metadata` that stops removes nothing.
    @Test(arguments: ["/__admin/mappings/find-by-metadata", "/__admin/mappings/remove-by-metadata"])
    func aMetadataSearchHasABudgetOfItsOwn(endpoint: String) throws {
        let note = String(repeating: "a", count: 64 << 10)
        let mappings = (0..<40).map { index in
            #"{ "request": { "url": "/m\#(index)" }, "response": { "body": "m" }, "metadata": { "note": "\#(note)" } }"#
        }
        let server = try budgeted(#"{ "mappings": ["# + mappings.joined(separator: ",") + "] }")
        defer { server.stop() }
        let json = "Content-Type: application/json\r\n"
        let heavy = Array(#"{ "matches": "\#(Self.heavyPattern)" }"#.utf8)
        let answer = try request(server.port, "POST", endpoint, body: heavy, headers: json)
        #expect(statusLine(answer) == "HTTP/1.1 500 Internal Server Error", "\(answer.prefix(300))")
        #expect(answer.contains("\(endpoint) spent its work budget of 2000000 units after"), "\(answer.prefix(400))")
        #expect(answer.contains("of 40 mappings"), "\(answer.prefix(400))")
        #expect(server.server.parts.stubs.stubs { _ in true }.count == 40)
        // A cheap pattern over the same mappings reads every one (the list is written as it is made: chunked, r10a C3).
        let cheap = Array(#"{ "contains": "aaa" }"#.utf8)
        let found = try request(server.port, "POST", "/__admin/mappings/find-by-metadata", body: cheap, headers: json)
        #expect(found.hasSuffix("\"meta\":{\"total\":40}}\r\n0\r\n\r\n"), "\(found.suffix(200))")
    }

    /// A JSON body is parsed once for every JSON matcher, and that parse is charged before it is made (a byte a unit):
    /// a body whose parse the budget cannot pay for is a 500 naming the budget, not a parse of any size for free.
    @Test func aJSONBodyIsChargedItsParseBeforeItIsParsed() throws {
        let mapping =
            #"{ "request": { "method": "POST", "url": "/j", "bodyPatterns": [ { "equalToJson": { "a": 1 }, "ignoreExtraElements": true } ] }, "#
            + #""response": { "body": "j" } }"#
        let server = try budgeted(mapping)
        defer { server.stop() }
        let json = ["Content-Type: application/json\r\n"]
        let big = Array(("{\"b\":[" + Array(repeating: "{}", count: 1_100_000).joined(separator: ",") + "],\"a\":1}").utf8)
        let answer = try request(server.port, "POST", "/j", body: big, headers: json[0])
        #expect(statusLine(answer) == "HTTP/1.1 500 Internal Server Error", "\(answer.prefix(300))")
        #expect(answer.contains("spent its work budget of 2000000 units after trying 1 of 1"), "\(answer.prefix(300))")
        // The same document, smaller than the budget: parsed, compared, matched.
        let small = Array(("{\"b\":[" + Array(repeating: "{}", count: 1_000).joined(separator: ",") + "],\"a\":1}").utf8)
        #expect(try request(server.port, "POST", "/j", body: small, headers: json[0]).hasSuffix("\r\n\r\nj"))
    }

    /// A pattern every match of which holds a literal (`.*zz.*`) costs a memmem on a body without it, and the Pike
    /// VM's steps on one with it: the same body with `zz` at its end spends the budget (500), without is a 404.
    @Test func aRegexSkipsABodyWithoutItsLiteralAndSpendsTheBudgetOnOneWithIt() throws {
        let mapping =
            #"{ "request": { "method": "POST", "url": "/m", "bodyPatterns": [ { "matches": ".*zz.*" } ] }, "response": { "body": "m" } }"#
        let server = try budgeted(mapping)
        defer { server.stop() }
        let large = [UInt8](repeating: UInt8(ascii: "a"), count: 1_500_000) // 3,000,000 steps: two threads a position
        let without = try request(server.port, "POST", "/m", body: large)
        #expect(statusLine(without) == "HTTP/1.1 404 Not Found", "\(without.prefix(300))")
        #expect(!without.contains("work budget"))
        let with = try request(server.port, "POST", "/m", body: large + Array("zz".utf8))
        #expect(statusLine(with) == "HTTP/1.1 500 Internal Server Error", "\(with.prefix(300))")
        #expect(with.contains("spent its work budget of 2000000 units"), "\(with.prefix(300))")
    }

    @Test func stoppingTheServerWhileABudgetHeavyRequestRunsReturnsAtOnce() throws {
        let server = try budgeted(Self.mappings(1_000))
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(Self.body.count)\r\n\r\n".utf8) + Self.body)
        Thread.sleep(forTimeInterval: 0.5)
        let stopping = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopping) < 5)
        // The connection ends (closed, or answered once the budget is spent): never a client left waiting.
        let started = Date()
        _ = client.read(timeout: 90)
        #expect(Date().timeIntervalSince(started) < 90)
    }
}

extension TestServer {
    init(server: MockServer, port: UInt16) {
        self.server = server
        self.port = port
    }
}
