import AutomationSupport
import Testing
import XMLSupport

@testable import MockServer

/// `equalToXml`, `matchesXPath` and the `xPath`/`soapXPath` helpers through a server: loaded from mapping files,
/// refused by name when a document, expression or option is bad, and answered as WireMock 2.35.1 answers them
/// (WireMockDifferentialTests holds 527 requests and 18 templates against the jar; these keep the core without Java).
@Suite struct XMLMatcherTests {
    static let available = XML.unavailableReason == nil

    private func ask(_ server: MockServer, _ body: String) -> Bool {
        Mappings.ask(server, method: "POST", "/", body: Array(body.utf8)).matched
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func equalToXmlMatchesSimilarDocuments() throws {
        let server = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"equalToXml": "<r><a x='1' y='2'>t</a></r>"}]}"#)
        #expect(ask(server, "<r>\n  <a y='2' x='1'> t </a><!-- c -->\n</r>"))
        #expect(!ask(server, "<r><a x='1'>t</a></r>"))
        #expect(!ask(server, "not xml"))
        let near = Mappings.ask(server, method: "POST", "/", body: Array("<r/>".utf8)).text
        #expect(near.contains("XML similar to <r>"), "\(near)")
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func matchesXPathAloneWithNamespacesAndWithAMatcher() throws {
        let alone = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"matchesXPath": "/r/a[@x='1']"}]}"#)
        #expect(ask(alone, "<r><a x='1'/></r>"))
        #expect(!ask(alone, "<r><a x='2'/></r>"))
        let named = try Mappings.server(
            #"{"method": "POST", "bodyPatterns": [{"matchesXPath": "//n:a", "xPathNamespaces": {"n": "urn:n"}}]}"#)
        #expect(ask(named, "<r xmlns='urn:n'><a/></r>"))
        #expect(!ask(named, "<r><a/></r>"))
        let inner = try Mappings.server(
            #"{"method": "POST", "bodyPatterns": [{"matchesXPath": {"expression": "//a/text()", "equalTo": "hi"}}]}"#)
        #expect(ask(inner, "<r><a>ho</a><a>hi</a></r>"))
        #expect(!ask(inner, "<r><a>ho</a></r>"))
        let number = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"matchesXPath": "count(//a) > 0"}]}"#)
        #expect(!ask(number, "<r><a/></r>")) // WireMock matches node sets only
    }

    @Test(
        .enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"),
        arguments: [
            (
                #"{"bodyPatterns": [{"matchesXPath": "//a["}]}"#,
                #"mapping.json:1:48: a body pattern: matchesXPath: invalid XPath expression "//a[": Invalid expression"#
            ),
            (#"{"bodyPatterns": [{"matchesXPath": {"expression": "//a", "equalTo": "x", "contains": "y"}}]}"#, "has 2 matchers"),
            (#"{"bodyPatterns": [{"matchesXPath": {"equalTo": "x"}}]}"#, "matchesXPath needs an expression"),
            (#"{"bodyPatterns": [{"matchesXPath": "//a", "xPathNamespaces": {"n": 1}}]}"#, "an object of strings"),
            (#"{"bodyPatterns": [{"equalToXml": "<r>"}]}"#, "equalToXml: not well-formed XML"),
            (#"{"bodyPatterns": [{"equalToXml": "<r/>", "exemptedComparisons": ["NOPE"]}]}"#, #""NOPE" is not an XMLUnit comparison type"#),
            (#"{"bodyPatterns": [{"equalTo": "x", "xPathNamespaces": {}}]}"#, "belongs beside equalToXml or matchesXPath"),
            (
                #"{"bodyPatterns": [{"equalToXml": "<r/>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "("}]}"#,
                "are not regular expressions"
            ),
        ])
    func badXMLMatchersAreRefusedWhenTheFileLoads(request: String, message: String) {
        let problem = Mappings.problem(request)
        #expect(problem?.contains(message) == true, "\(problem ?? "loaded")")
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func xPathHelpersRenderAsWireMockDoes() throws {
        let stubs = try StubLoader.parse(
            #"{"request": {"method": "POST"}, "response": {"body": "{{xPath request.body '/r/a/text()'}}|{{{xPath request.body '/r'}}}|{{xPath request.body 'count(//a)'}}", "transformers": ["response-template"]}}"#,
            file: "mapping.json")
        let server = MockServer(stubs: stubs)
        let answer = Mappings.ask(server, method: "POST", "/", body: Array("<r><a>hi</a></r>".utf8)).text
        #expect(answer == "hi|<r>\n  <a>hi</a>\n</r>\n|[ERROR: count(//a) is not a valid XPath expression]")
        let soap = try StubLoader.parse(
            #"{"request": {"method": "POST"}, "response": {"body": "{{soapXPath request.body '/w/text()'}}", "transformers": ["response-template"]}}"#,
            file: "mapping.json")
        let envelope = "<s:Envelope xmlns:s='urn:s'><s:Body><w>ok</w></s:Body></s:Envelope>"
        #expect(Mappings.ask(MockServer(stubs: soap), method: "POST", "/", body: Array(envelope.utf8)).text == "ok")
        #expect(
            Mappings.problem(#"{"url": "/"}, "response": {"body": "{{xPath request.body}}", "transformers": ["response-template"]"#) != nil)
    }

    /// r7a-F2: an expression whose work libxml2's operation limit does not count (node-sets merged per node) spends the
    /// request's budget, not minutes: the answer is the 500 naming the budget, as for every matcher; the `xPath` helper
    /// ends in the template's work budget, not "not a valid XPath expression" after the time was spent.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func anXPathOverItsCPUSpendsTheBudget() throws {
        let body = Array(("<r>" + String(repeating: "<a><b/></a>", count: 3_000) + "</r>").utf8)
        var options = MockServer.Options()
        options.matchBudget = 1_000_000 // 40 ms of CPU
        let matcher = MockServer(
            stubs: try StubLoader.parse(
                Mappings.file(#"{"method": "POST", "bodyPatterns": [{"matchesXPath": "//a[count(//*//*//*//*) > 1]"}]}"#),
                file: "mapping.json"), host: "127.0.0.1", options: options)
        let answer = Mappings.ask(matcher, method: "POST", "/", body: body)
        #expect(!answer.matched)
        #expect(answer.text.contains("spent its work budget of 1000000 units"), "\(answer.text.prefix(300))")

        let template = MockServer(
            stubs: try StubLoader.parse(
                #"{"request": {"method": "POST"}, "response": {"body": "{{xPath request.body '//a[count(//*//*//*//*) > 1]'}}", "#
                    + #""transformers": ["response-template"]}}"#, file: "mapping.json"))
        let rendered = template.handle(HTTPRequest(method: "POST", target: "/", headers: HTTPHeaders([]), body: body))
        let text = String(decoding: rendered.body, as: UTF8.self)
        #expect(rendered.status == 500 && text.contains("work (64 Mi units"), "\(rendered.status) \(text.prefix(300))")
        #expect(!text.contains("is not a valid XPath expression"))
    }

    /// WireMock compiles `matches` with Java's DOTALL (r8b A11): a printed element ends with a newline, so `.*&amp;.*`
    /// never matched it here, where WireMock does; a body's line breaks likewise.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func matchesReadsLineBreaksAsWireMockDoes() throws {
        let printed = try Mappings.server(
            #"{"method": "POST", "bodyPatterns": [{"matchesXPath": {"expression": "//a", "matches": ".*&amp;.*"}}]}"#)
        #expect(ask(printed, "<a>x&amp;y</a>"))
        #expect(!ask(printed, "<a>xy</a>"))
        let end = try Mappings.server(
            #"{"method": "POST", "bodyPatterns": [{"matchesXPath": {"expression": "//a", "matches": ".*</a>"}}]}"#)
        #expect(!ask(end, "<a>x</a>")) // the newline after the end tag is part of the text, as in WireMock
        let body = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"matches": "a.b"}]}"#)
        #expect(ask(body, "a\nb"))
        let off = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"matches": "(?-s)a.b"}]}"#)
        #expect(!ask(off, "a\nb"))
        let not = try Mappings.server(#"{"method": "POST", "bodyPatterns": [{"doesNotMatch": "a.*b"}]}"#)
        #expect(!ask(not, "a\nb"))
    }
}
