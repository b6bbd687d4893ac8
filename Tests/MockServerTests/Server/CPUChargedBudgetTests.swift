import AutomationSupport
import Foundation
import Testing
import XMLSupport

@testable import MockServer

/// r8a A1 and A7: matchers whose counted units under-state their cost (XPath with a sub-matcher: nodes read and
/// printed; `equalToXml`: a document read and compared; JSONPath's deep scan and its sub-matcher) draw on the
/// request's one budget at the CPU they used. Before, each stub had a budget of its own for that work: six XPath
/// stubs cost six budgets and the answer was a plain 404. Now the request stops at its budget: a 500 naming it.
/// Real server, real socket; a small budget (a few tens of ms of CPU) so a debug build spends it in every stub.
@Suite struct CPUChargedBudgetTests {
    static let available = XML.unavailableReason == nil

    private func budgeted(_ mappings: [String], budget: Int) throws -> TestServer {
        var options = MockServer.Options()
        options.matchBudget = budget
        let text = #"{ "mappings": ["# + mappings.joined(separator: ",") + "] }"
        let server = MockServer(stubs: try StubLoader.parse(text, file: "budget.json", directory: "."), host: "127.0.0.1", options: options)
        return TestServer(server: server, port: try server.start(port: 0))
    }

    private func post(_ port: UInt16, _ path: String, _ body: [UInt8]) throws -> String {
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send(Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        return client.read(until: "\r\n\r\n", timeout: 120) + client.read(timeout: 0.5)
    }

    private func mapping(_ path: String, _ pattern: String) -> String {
        #"{ "request": { "method": "POST", "url": "\#(path)", "bodyPatterns": [ \#(pattern) ] }, "response": { "body": "m" } }"#
    }

    /// Counted as before, six stubs took 6 x (32 Ki parse + a little) of 1,000,000 units and the near miss as much:
    /// a 404. Printing 100 nested copies of 64 KB for each stub costs far more CPU than 40 ms: the budget is spent.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func xPathSubMatchersOfEveryStubDrawOnTheRequestsOneBudget() throws {
        let mappings = (1...6).map { mapping("/xp", #"{ "matchesXPath": { "expression": "//*", "equalTo": "nomatch\#($0)" } }"#) }
        let server = try budgeted(mappings, budget: 1_000_000)
        defer { server.stop() }
        let body = String(repeating: "<a>", count: 100) + String(repeating: "x", count: 64 << 10) + String(repeating: "</a>", count: 100)
        let answer = try post(server.port, "/xp", Array(body.utf8))
        #expect(answer.hasPrefix("HTTP/1.1 500 "), "\(answer.prefix(300))")
        #expect(answer.contains("spent its work budget of 1000000 units after trying"), "\(answer.prefix(400))")
    }

    /// Six `equalToXml` stubs, each a 10,000-child document differing in its last child: counted, only their parses
    /// (80 Ki units each) were charged; reading and comparing 10,000 children per stub is charged its CPU now.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func equalToXmlStubsDrawOnTheRequestsOneBudget() throws {
        let children = (0..<10_000).map { "<e\($0)>t</e\($0)>" }.joined()
        let mappings = (1...6).map { index in
            mapping("/ex", #"{ "equalToXml": "<r>\#(children)<zz\#(index)/></r>" }"#)
        }
        let server = try budgeted(mappings, budget: 1_000_000)
        defer { server.stop() }
        let answer = try post(server.port, "/ex", Array("<r>\(children)</r>".utf8))
        #expect(answer.hasPrefix("HTTP/1.1 500 "), "\(answer.prefix(300))")
        #expect(answer.contains("spent its work budget of 1000000 units after trying"), "\(answer.prefix(400))")
        // The same document with its own last child still matches (the comparison pairs children by name, in linear
        // time now: it scanned from the first child for each one).
        let alone = try budgeted([mapping("/one", #"{ "equalToXml": "<r>\#(children)<zz1/></r>" }"#)], budget: MatchBudget.perRequest)
        defer { alone.stop() }
        #expect(try post(alone.port, "/one", Array("<r>\(children)<zz1/></r>".utf8)).hasSuffix("\r\n\r\nm"))
    }

    /// Sixty `$..a` + `contains` stubs on 2,000 objects: counted, each took about 11 units an object (22 Ki), all
    /// sixty and the near miss fit in 5,000,000 units; their CPU is about ten times that: the budget is spent.
    @Test func aDeepJSONPathScanAndItsSubMatcherAreChargedTheirCPU() throws {
        let mappings = (1...60).map { mapping("/jp", #"{ "matchesJsonPath": { "expression": "$..a", "contains": "zzz\#($0)" } }"#) }
        let server = try budgeted(mappings, budget: 5_000_000)
        defer { server.stop() }
        let objects = (0..<2_000).map { _ in #"{"a":"\#(String(repeating: "v", count: 50))","b":[1,2,{"a":"q"}]}"# }
        let answer = try post(server.port, "/jp", Array((#"{"x":["# + objects.joined(separator: ",") + "]}").utf8))
        #expect(answer.hasPrefix("HTTP/1.1 500 "), "\(answer.prefix(300))")
        #expect(answer.contains("spent its work budget of 5000000 units after trying"), "\(answer.prefix(400))")
    }

    /// A document of at most `MatchBudget.untimedBytes` is not timed (two reads of the thread's CPU clock cost more than
    /// such a path), so its units must bound its cost: `$..a` over 60 nested objects prints each one for `contains`,
    /// most of the document 60 times, and that printing is charged (it was not: a few hundred units for ~100 KB printed).
    @Test func aSmallDocumentsPrintedValuesAreCharged() throws {
        var text = #"{"a":"end"}"#
        for _ in 0..<60 { text = #"{"pad":"\#(String(repeating: "p", count: 40))","a":\#(text)}"# }
        #expect(text.utf8.count <= MatchBudget.untimedBytes)
        let document = try JSONParser.parse(text)
        let path = try JSONPath("$..a")
        var printed = 0
        for node in path.evaluate(document) where node.members != nil { printed += JSONWriter.write(node).utf8.count }
        var budget = 10_000_000
        #expect(!path.matches(document, .contains("zzz", caseInsensitive: false), sourceBytes: text.utf8.count, budget: &budget))
        #expect(10_000_000 - budget >= printed / 4, "charged \(10_000_000 - budget) units for \(printed) bytes printed")
    }

    /// r9a B7: a date sub-matcher read each value a JSONPath found uncharged, so one evaluation finding 50,000 dates
    /// read them all past the request's budget (7-8 s of CPU in a debug build before the 500). Each read is charged, and
    /// once the budget is spent the rest are not read. Untimed here (`sourceBytes` 0), so the units alone must stop it.
    @Test func dateSubMatchersOverManyFoundValuesSpendTheBudget() throws {
        let text = #"{"x":["# + Array(repeating: #"{"d":"2021-06-14T12:13:14Z"}"#, count: 50_000).joined(separator: ",") + "]}"
        let document = try JSONParser.parse(text)
        let path = try JSONPath("$..d")
        let matcher = try Mappings.matcher(#"{"after": "2030-01-01T00:00:00Z"}"#)
        var budget = 600_000
        #expect(!path.matches(document, matcher, sourceBytes: 0, budget: &budget))
        #expect(budget < 0, "50,000 dates read for \(600_000 - budget) units")
    }

    /// r10a C1: the reads were charged, but a date read of a value that is no date costs far more than its units
    /// (`$..a` with `before: now` over 120,000 such values: 7 s of CPU, and the CPU was charged only after the whole
    /// scan). The reads now stop once their CPU spends the budget: here 0.4 s of CPU, which their units never reach.
    @Test func aDateSubMatchersReadsStopAtTheCPUTheBudgetBuys() throws {
        let objects = (0..<60_000).map { _ in #"{"a":"\#(String(repeating: "v", count: 50))","b":[1,2,{"a":"q"}]}"# }
        let text = #"{"x":["# + objects.joined(separator: ",") + "]}"
        let document = try JSONParser.parse(text)
        let path = try JSONPath("$..a")
        let matcher = try Mappings.matcher(#"{"before": "now"}"#)
        let units = 10_000_000
        var budget = units
        let clock = try #require(ThreadCPUClock.current())
        #expect(!path.matches(document, matcher, sourceBytes: text.utf8.count, budget: &budget))
        let used = clock.elapsedNanoseconds
        #expect(budget < 0, "120,000 values read for \(units - budget) units")
        #expect(used < 3 * MatchBudget.cpuNanoseconds(units), "\(used / 1_000_000) ms of CPU for a budget of \(units) units")
    }
}
