import Testing

@testable import XMLSupport

/// r8b A11: a CDATA section is a node of its own, as in WireMock's DOM (it was merged into the text before it), and
/// printed as a section; a CDATA section, comment or processing instruction found reads as Java's DOM names it. The
/// expected values are WireMock 2.35.1's (`matchesXPath` and the `xPath` helper, probed against the jar).
@Suite struct XPathCDATATests {
    private func first(_ expression: String, _ body: String) throws -> String {
        guard case .nodes(let nodes) = try XPathQuery(expression).evaluate(body) else { return "(not nodes)" }
        return nodes.first?.text ?? "(none)"
    }

    @Test(.enabled(if: XPathQueryTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func aCDATASectionIsANodeOfItsOwn() throws {
        // Java's XPath reads adjacent text and CDATA as one text node, the run's first: `x`, never `y` nor `xy`.
        #expect(try XPathQuery("//a/text()").evaluate("<a>x<![CDATA[y]]></a>") == .nodes([.text("x")]))
        #expect(try XPathQuery("//a/text()").evaluate("<a><![CDATA[y]]>x</a>") == .nodes([.text("[#cdata-section: y]")]))
        #expect(
            try XPathQuery("//a/text()").evaluate("<a>x<!-- c --><![CDATA[y]]></a>") == .nodes([.text("x"), .text("[#cdata-section: y]")]))
        #expect(try first("//a/text()", "<r><a>x&amp;y<![CDATA[<z>]]></a></r>") == "x&y")
        #expect(try first("//a/text()", "<a><![CDATA[y]]></a>") == "[#cdata-section: y]")
        #expect(try first("//comment()", "<a><!-- c --><?pi  d e ?></a>") == "[#comment:  c ]")
        #expect(try first("//processing-instruction()", "<a><!-- c --><?pi  d e ?></a>") == "[pi: d e ]")
        // XPath's string value still joins them.
        #expect(try XPathQuery("string(//a)").evaluate("<a>x<![CDATA[y]]></a>") == .string("xy"))
    }

    @Test(.enabled(if: XPathQueryTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func anElementHoldingASectionPrintsItAsOne() throws {
        let printed: [(String, String)] = [
            ("<r><a>x&amp;y<![CDATA[<z>]]></a></r>", "<a>x&amp;y<![CDATA[<z>]]></a>\n"),
            ("<a><![CDATA[y]]></a>", "<a><![CDATA[y]]></a>\n"),
            ("<a> <![CDATA[y]]> </a>", "<a> <![CDATA[y]]> </a>\n"),
            ("<a><![CDATA[]]></a>", "<a/>\n"),
            ("<a><![CDATA[y\nz]]></a>", "<a><![CDATA[y\nz]]></a>\n"),
            ("<a><b/><![CDATA[y]]></a>", "<a>\n  <b/><![CDATA[y]]></a>\n"),
            ("<a><![CDATA[y]]><b/></a>", "<a><![CDATA[y]]>\n  <b/>\n</a>\n"),
            ("<a><b/><![CDATA[y]]><c/></a>", "<a>\n  <b/><![CDATA[y]]>\n  <c/>\n</a>\n"),
            ("<a><b/> <![CDATA[y]]> </a>", "<a>\n  <b/> <![CDATA[y]]>\n   \n</a>\n"),
            ("<a><?pi d?><![CDATA[y]]></a>", "<a>\n  <?pi d?><![CDATA[y]]></a>\n"),
            ("<a><![CDATA[y]]><?pi d?></a>", "<a><![CDATA[y]]>\n  <?pi d?></a>\n"),
            ("<a>x<b/><![CDATA[ y ]]>z</a>", "<a>\n  x\n  <b/>\n  <![CDATA[ y ]]>\n  z\n</a>\n"),
            ("<a><b><![CDATA[q]]></b>t</a>", "<a>\n  <b><![CDATA[q]]></b>\n  t\n</a>\n"),
            ("<a>x&amp;y</a>", "<a>x&amp;y</a>\n"),
        ]
        for (body, expected) in printed { #expect(try first("//a", body) == expected, "\(body)") }
    }

    /// The body parsed once serves expressions with and without namespaces (stripped, then restored) and a comparison.
    @Test(.enabled(if: XPathQueryTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func oneParseServesEveryMatcher() throws {
        let body = XMLBody("<r xmlns='urn:n'><a>t<![CDATA[u]]></a></r>")
        let named = try XPathQuery("//n:a/text()", namespaces: [("n", "urn:n")])
        #expect(try XPathQuery("/r/a/text()").evaluate(body) == .nodes([.text("t")]))
        #expect(try named.evaluate(body) == .nodes([.text("t")]))
        guard case .nodes(let printed) = try XPathQuery("/r/a").evaluate(body) else { throw XMLError("no nodes") }
        #expect(printed.first?.text.hasSuffix(">t<![CDATA[u]]></a>\n") == true, "\(printed)")
        #expect(try XMLComparison("<r xmlns='urn:n'><a>tu</a></r>", placeholders: nil, exempted: []).evaluate(body) == nil)
        #expect(try named.evaluate(body) != .nodes([]))
        #expect(body.parses == 1)
        let broken = XMLBody("<r>")
        #expect(throws: XMLError.self) { try XPathQuery("/r").evaluate(broken) }
        #expect(try XMLComparison("<r/>", placeholders: nil, exempted: []).evaluate(broken) != nil)
        #expect(broken.parses == 1)
    }
}
