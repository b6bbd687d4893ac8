import AutomationSupport
import Testing
import XMLSupport

@testable import MockServer

/// A request's XML body is parsed once, on first use, for every XML matcher of every stub and the near miss
/// (`MatchInput.bodyXML`, as `bodyJSON` for JSON): twelve XPath stubs on one URL parsed a 1 MB body twelve times,
/// each parse charged to the request's budget.
@Suite struct XMLBodyParsedOnceTests {
    @Test(.enabled(if: XMLMatcherTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func twelveXPathStubsOverOneBigBodyCostOneParse() throws {
        let mappings = (1...12).map {
            #"{"request": {"method": "POST", "url": "/xp", "bodyPatterns": [{"matchesXPath": "//a[@k='nomatch\#($0)']"}]}, "response": {"status": 200}}"#
        }
        let registry = StubRegistry(try StubLoader.parse(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}", file: "xp.json"))
        registry.buildRouter()
        let body = "<r>" + String(repeating: "<a k='v'>some text</a>", count: 46_000) + "</r>"
        #expect(body.utf8.count > 900_000)
        let input = MatchInput(HTTPRequest(method: "POST", target: "/xp", body: Array(body.utf8)))
        #expect(input.bodyXML.parses == 0)
        #expect(registry.choose(input) == nil)
        #expect(input.exhausted == nil, "the budget was spent: \(String(describing: input.exhausted))")
        #expect(input.bodyXML.parses == 1)
        // The near miss reads every stub's matchers again: still the one parse.
        let (stubs, _, scenarios) = registry.snapshot()
        let nearMiss = NearMiss.explain(input, stubs: stubs, scenarios: scenarios, budget: MatchBudget.perRequest)
        #expect(nearMiss.contains("nomatch"), "\(nearMiss.prefix(300))")
        #expect(input.bodyXML.parses == 1)
    }

    /// One stub of twelve matches: the stubs before it read the parsed body, and its own answer is the same as alone.
    @Test(.enabled(if: XMLMatcherTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func xPathWithAndWithoutNamespacesAndEqualToXmlShareTheParse() throws {
        let patterns = [
            #"{"matchesXPath": "/r/a"}"#, #"{"matchesXPath": "//n:a", "xPathNamespaces": {"n": "urn:n"}}"#,
            #"{"equalToXml": "<r xmlns='urn:n'><a>t</a></r>"}"#,
        ]
        let mappings = patterns.map {
            #"{"request": {"method": "POST", "url": "/x", "bodyPatterns": [\#($0), {"matchesXPath": "/r/a/text()"}]}, "response": {"status": 200}}"#
        }
        let registry = StubRegistry(try StubLoader.parse(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}", file: "x.json"))
        registry.buildRouter()
        let input = MatchInput(HTTPRequest(method: "POST", target: "/x", body: Array("<r xmlns='urn:n'><a>t</a></r>".utf8)))
        #expect(registry.choose(input) != nil)
        #expect(input.bodyXML.parses == 1)
        let (stubs, _, _) = registry.snapshot()
        for stub in stubs {
            var budget = MatchBudget.perRequest
            #expect(stub.matches(input, scenarioState: nil, budget: &budget), "\(stub.body.map(\.description))")
        }
        #expect(input.bodyXML.parses == 1)
    }
}
