import Foundation
import Testing
import XMLSupport

/// XPath 1.0 through our libxml2 binding against lxml (Python, with the libxml2 its wheel bundles): every
/// expression of a corpus over every document, node sets compared by each node's string value. What is held is the
/// binding (the structs' offsets, results, namespaces), not libxml2 against itself alone: the versions differ.
@Suite struct XPathDifferentialTests {
    static let lxml: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import lxml.etree"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let documents: [(String, [String: String])] = [
        ("<r><a x='1'>hi</a><a x='2'>ho<b>t</b></a><c/>tail</r>", [:]),
        ("<shop><item id='1' price='3.5'><name>tea</name></item><item id='2' price='1'><name>milk</name></item><item id='3'/></shop>", [:]),
        ("<r xmlns='urn:d' xmlns:p='urn:p'><a p:k='v'>1</a><p:a>2</p:a><a><![CDATA[34]]></a></r>", ["d": "urn:d", "p": "urn:p"]),
        ("<doc><!-- c --><?pi data?><p>one <em>two</em> three</p><p/><p>  </p></doc>", [:]),
        ("<n><v>10</v><v>-2.5</v><v>x</v><v>1e3</v><v> 7 </v></n>", [:]),
        ("<é lang='fr'>ça <ü>ö</ü></é>", [:]),
    ]

    /// `/` (the document node) is left out: lxml returns no node for it, where WireMock prints the whole document
    /// (held by XPathQueryTests and the WireMock differential test).
    static let expressions = [
        "/*", "//*", "//a", "/r/a[1]", "/r/a[last()]", "//a[@x='2']", "//@x", "//@*", "//text()", "//node()", "//b/..",
        "//a/following-sibling::*", "//c/preceding-sibling::a", "//b/ancestor::*", "//b/ancestor-or-self::*", "/*/descendant::*",
        "//*[not(*)]", "//*[count(*) > 0]", "count(//*)", "count(//@*)", "sum(//v)", "sum(//@price)", "string(/*)", "name(/*)",
        "local-name(//*[2])", "namespace-uri(/*)", "string-length(string(/*))", "normalize-space(//p[1])", "concat('a', 'b', 'c')",
        "contains(string(/*), 'o')", "starts-with(name(/*), 'r')", "substring('12345', 2, 3)", "substring-before('a-b', '-')",
        "substring-after('a-b', '-')", "translate('abc', 'abc', 'ABC')", "boolean(//zz)", "not(//zz)", "true() and false()",
        "1 + 2 * 3", "10 div 4", "7 mod 3", "-(2)", "1 div 0", "0 div 0", "floor(2.7)", "ceiling(2.1)", "round(2.5)", "round(-2.5)",
        "number('x')", "number(//v[2])", "//v[number(.) > 0]", "//v[. = 10]", "//item[@price > 2]/name", "//item[not(@price)]/@id",
        "//item[position() mod 2 = 1]", "(//*)[3]", "//*[self::a or self::c]", "//a | //c", "id('x')", "lang('fr')",
        "//d:a", "//p:a", "//@p:k", "//d:a[. = '34']", "//zz", "//", "//a[", "count(", "foo()", "$v", "//a[@x=]", "1 +",
    ]

    private static func ours(_ document: String, _ expression: String, _ namespaces: [String: String]) -> String {
        let result: XPathQuery.Result
        do {
            result = try XPathQuery(expression, namespaces: namespaces.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
                .evaluate(document)
        } catch {
            return "error"
        }
        switch result {
        case .nodes(let nodes):
            return "nodes "
                + nodes.map { node in
                    if case .element(let element) = node { return element.stringValue }
                    return Self.stringValue(node.text)
                }.description
        case .boolean(let value): return "boolean \(value)"
        case .number(let value): return "number " + number(value)
        case .string(let value): return "string " + value.debugDescription
        }
    }

    /// XPath's string value of a node found: a CDATA section, comment or processing instruction is read as WireMock
    /// gives it (`[#cdata-section: v]`, `[#comment: v]`, `[target: v]`), here its value, as lxml gives it.
    private static func stringValue(_ text: String) -> String {
        guard text.hasPrefix("["), text.hasSuffix("]"), let colon = text.range(of: ": ") else { return text }
        return String(text[colon.upperBound..<text.index(before: text.endIndex)])
    }

    private static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    private static func reference(_ answer: [String: Any]) -> String {
        switch answer["kind"] as? String {
        case "nodes": return "nodes " + ((answer["values"] as? [String]) ?? []).description
        case "boolean": return "boolean \(answer["value"] as? Bool ?? false)"
        case "number": return "number " + (answer["value"] as? String ?? "")
        case "string": return "string " + (answer["value"] as? String ?? "").debugDescription
        default: return "error"
        }
    }

    @Test(.enabled(if: XML.unavailableReason == nil && lxml, "needs libxml2.so.2 and lxml: scripts/install-test-deps.sh installs both"))
    func everyExpressionOverEveryDocumentAgreesWithLxml() throws {
        var cases: [[Any]] = []
        for (document, namespaces) in Self.documents {
            for expression in Self.expressions { cases.append([document, expression, namespaces]) }
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("xpath-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference_xpath.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, input.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let answers = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        try #require(answers.count == cases.count)
        var agreed = 0
        for (index, answer) in answers.enumerated() {
            let (document, namespaces) = Self.documents[index / Self.expressions.count]
            let expression = Self.expressions[index % Self.expressions.count]
            let mine = Self.ours(document, expression, namespaces)
            let theirs = Self.reference(answer)
            #expect(mine == theirs, "\(expression) over \(document)")
            if mine == theirs { agreed += 1 }
        }
        #expect(agreed == answers.count && answers.count == 432, "\(agreed) of \(answers.count) cases agree with lxml")
    }
}
