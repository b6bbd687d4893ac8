import Testing
import XMLSupport

/// `equalToXml` as WireMock 2.35.1 answered each of these (probed against the standalone jar).
@Suite struct XMLComparisonTests {
    static let available = XML.unavailableReason == nil

    private func check(_ expected: String, _ cases: [String: Bool], placeholders: (String, String)? = nil, exempted: [String] = []) throws {
        let comparison = try XMLComparison(expected, placeholders: placeholders.map { (opening: $0.0, closing: $0.1) }, exempted: exempted)
        for (body, matches) in cases { #expect(comparison.matches(body) == matches, "\(expected) against \(body)") }
    }

    /// Second outside attack: one element with 50,000 attributes took minutes (libxml2 2.9 checks each attribute
    /// against all before it; we compared them pair by pair too). Past 1,000 on one element the body is not parsed
    /// (no match); 1,000 compare through a table. The bound is for a hang, not a speed target.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func manyAttributesCompareInLinearTime() throws {
        let many = "<r " + (0..<50_000).map { "a\($0)='\($0)'" }.joined(separator: " ") + "/>"
        #expect(throws: XMLError.self) { try XMLComparison(many, placeholders: nil, exempted: []) }
        #expect(try !XMLComparison("<r a0='0'/>", placeholders: nil, exempted: []).matches(many))
        let attributes = (0..<1_000).map { "a\($0)='\($0)'" }
        let expected = "<r " + attributes.joined(separator: " ") + "/>"
        let shuffled = "<r " + attributes.reversed().joined(separator: " ") + "/>"
        let comparison = try XMLComparison(expected, placeholders: nil, exempted: [])
        let start = ContinuousClock.now
        #expect(comparison.matches(shuffled))
        #expect(!comparison.matches(String(shuffled.dropLast(2)) + " z=''/>"))
        #expect(ContinuousClock.now - start < .seconds(30))
        // Only start tags count: a comment or CDATA full of `=` is text, not attributes.
        let equals = String(repeating: "a=1;", count: 2_000)
        #expect(
            try XMLComparison("<r><![CDATA[\(equals)]]><!-- \(equals) --></r>", placeholders: nil, exempted: [])
                .matches("<r><![CDATA[\(equals)]]></r>"))
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func whitespaceCommentsOrderAndPrefixes() throws {
        try check(
            "<r><a x='1' y='2'>t</a><!-- c --></r>",
            [
                "<r>\n  <a y='2' x='1'>t</a>\n</r>": true, "<r><a x='1' y='2'> t </a></r>": true,
                "<p:r xmlns:p='urn:x'><p:a x='1' y='2'>t</p:a></p:r>": true, "<r><a x='1'>t</a></r>": false, "not xml": false,
            ])
        try check("<r><a/><b/></r>", ["<r><b/><a/></r>": true, "<r><a/></r>": false, "<r><a/><b/><c/></r>": false])
        try check("<r><a>1</a><a>2</a></r>", ["<r><a>2</a><a>1</a></r>": false, "<r><a>1</a><a>2</a></r>": true])
        try check(
            "<r a='1'/>",
            [
                "<r><!-- x --></r>": false, "<r a='1'><!-- x --></r>": true, "<r a='1'>\n</r>": true, "<r a='1'><![CDATA[]]></r>": true,
                "<r a='1'>x</r>": false, "<r xmlns:z='urn:z' z:a='1'/>": false,
            ])
        try check("<r>a<![CDATA[b]]></r>", ["<r>ab</r>": true, "<r><![CDATA[ab]]></r>": true])
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func placeholdersAndExemptions() throws {
        try check(
            "<r><a>${xmlunit.ignore}</a><b>${xmlunit.isNumber}</b></r>",
            ["<r><a>zz</a><b>12.5</b></r>": true, "<r><a>zz</a><b>x</b></r>": false], placeholders: ("\\$\\{", "\\}"))
        try check(
            "<r b='${xmlunit.isNumber}'>${xmlunit.ignore}</r>",
            ["<r b='1e3'>5</r>": true, "<r b='x'>5</r>": false, "<r b=' 7 '>5</r>": true, "<r b='1'></r>": true],
            placeholders: ("\\$\\{", "\\}"))
        try check("<r>#xmlunit.ignore#</r>", ["<r>5</r>": true], placeholders: ("#", "#"))
        try check("<r>#x#</r>", ["<r>5</r>": false], placeholders: ("#", "#"))
        try check("<r a='1'>x</r>", ["<r a='2'>y</r>": true, "<r b='2'>y</r>": false], exempted: ["ATTR_VALUE", "TEXT_VALUE"])
        #expect(throws: XMLError.self) { try XMLComparison("<r/>", placeholders: nil, exempted: ["ATTR_VALEU"]) }
        #expect(throws: XMLError.self) { try XMLComparison("<r>", placeholders: nil, exempted: []) }
    }

    /// Finding r7a-F9: processing instructions were dropped, so `<a><b>hi</b><?pi x?></a>` matched `<a><b>hi</b></a>`.
    /// WireMock 2.35.1's answers (its jar): a PI is a child like any other (count, kind, target, data trimmed), and
    /// WireMock's node matcher sorts each list by local name, which fails (no match) on a list of two or more nodes
    /// holding a PI or a text: such a document matches nothing, not even itself. Before or after the root the same.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func processingInstructionsCountAsInWireMock() throws {
        try check(
            "<a><b>hi</b></a>",
            [
                "<a><b>hi</b></a>": true, "<a><b>hi</b><?pi x?></a>": false, "<?pi x?><a><b>hi</b></a>": false,
                "<a><b>h<?pi x?>i</b></a>": false, "<a><?pi?><b>hi</b></a>": false, "<a><b>hi</b></a><?pi x?>": false,
                "<a><b>hi<?pi x?></b></a>": false, "<?xml-stylesheet href='s.xsl'?><a><b>hi</b></a>": false,
                "<?xml version='1.0'?><a><b>hi</b></a>": true, "<!DOCTYPE a><a><b>hi</b></a>": true, "<!-- c --><a><b>hi</b></a>": true,
            ])
        try check(
            "<a><?pi x?></a>",
            [
                "<a><?pi x?></a>": true, "<a><?pi y?></a>": false, "<a><?qi x?></a>": false, "<a>x</a>": false, "<a/>": false,
                "<a><?pi x ?></a>": true, "<a>  <!--c--><?pi x?>  </a>": true, "<a><?pi x?><?pi x?></a>": false,
            ])
        try check("<a><?pi x  y?></a>", ["<a><?pi x y?></a>": false])
        try check("<a><b><?pi x?></b></a>", ["<a><b><?pi x?></b></a>": true])
        #expect(try XMLComparison("<a><b><?pi x?></b></a>", placeholders: nil, exempted: []).similarToItself)
        for unmatchable in ["<a><b>hi</b><?pi x?></a>", "<?pi x?><a><b>hi</b></a>", "<a><b>h<?pi x?>i</b></a>", "<a><b>hi</b>t</a>"] {
            try check(unmatchable, [unmatchable: false])
            #expect(try !XMLComparison(unmatchable, placeholders: nil, exempted: []).similarToItself)
        }
        try check("<a><?pi x?></a>", ["<a><?pi y?></a>": true, "<a><?qi x?></a>": false], exempted: ["PROCESSING_INSTRUCTION_DATA"])
        try check("<a><?pi x?></a>", ["<a><?qi x?></a>": true, "<a><?pi y?></a>": false], exempted: ["PROCESSING_INSTRUCTION_TARGET"])
        try check("<a>t</a>", ["<a><?pi t?></a>": true], exempted: ["CHILD_LOOKUP"])
        try check("<a><?pi t?></a>", ["<a>t</a>": false], exempted: ["NODE_TYPE"])
        try check("<a/>", ["<a><?pi x?></a>": true], exempted: ["CHILD_NODELIST_LENGTH"])
        try check("<a><b>hi</b></a>", ["<a><b>hi</b><?pi x?></a>": false], exempted: ["CHILD_NODELIST_LENGTH", "CHILD_LOOKUP"])
        let ignore = ("\\$\\{", "\\}")
        try check(
            "<a><?pi ${xmlunit.ignore}?></a>", ["<a><?pi zzz?></a>": false, "<a><?pi ${xmlunit.ignore}?></a>": true], placeholders: ignore)
        try check(
            "<a>${xmlunit.ignore}</a>", ["<a><?pi z?></a>": true, "<a><b/></a>": true, "<a>t<?pi z?></a>": false], placeholders: ignore)
    }

    /// WireMock's node matcher sorts children by local name and pairs them in that order (not by name): with a
    /// comparison exempted, `b` pairs with `c` (jar: `<r><b/><a/></r>` matches `<r><a/><c/></r>` without
    /// ELEMENT_TAG_NAME); an extra child in the body is only a count difference.
    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func childrenPairInTheOrderOfTheirNames() throws {
        try check("<r><b/><a/></r>", ["<r><a/><c/></r>": true, "<r><c/><a/></r>": true], exempted: ["ELEMENT_TAG_NAME"])
        try check("<r><c/></r>", ["<r><b/><c/></r>": false], exempted: ["CHILD_NODELIST_LENGTH"])
        try check("<r><b/></r>", ["<r><b/><c/></r>": true], exempted: ["CHILD_NODELIST_LENGTH"])
        try check("<r><b/><c/></r>", ["<r><c/></r>": false], exempted: ["CHILD_NODELIST_LENGTH", "CHILD_LOOKUP"])
        try check("<r><b/></r>", ["<r><c/></r>": false], exempted: ["CHILD_LOOKUP"])
    }
}
