import AutomationSupport
import Testing

@testable import XMLSupport

@Suite struct XPathQueryTests {
    static let available = XML.unavailableReason == nil

    /// A machine without libxml2 gets one line naming the library and the package (a mapping that needs it is
    /// refused with it, by name; see XMLMatcherTests).
    @Test func aMissingLibraryIsNamedWithItsPackage() {
        guard case .failure(let error) = LibXML2.load("libxml2-absent.so.9") else {
            Issue.record("a library that does not exist loaded")
            return
        }
        #expect(error.message == "libxml2-absent.so.9 was not found (install the libxml2 package)")
    }

    /// Where the system has libxml2, it loads: the tests below never skip on a machine that could run them.
    @Test func libxml2LoadsWhereInstalled() {
        let installed = ["/usr/lib/x86_64-linux-gnu/libxml2.so.2", "/usr/lib/aarch64-linux-gnu/libxml2.so.2", "/usr/lib64/libxml2.so.2"]
            .contains { FileSystem.exists($0) }
        #expect(!installed || XML.unavailableReason == nil, "\(XML.unavailableReason ?? "")")
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func nodesBooleansNumbersAndStrings() throws {
        let body = "<r><a x='1'>hi</a><a>ho</a></r>"
        #expect(try XPathQuery("//a/text()").evaluate(body) == .nodes([.text("hi"), .text("ho")]))
        #expect(try XPathQuery("//a/@x").evaluate(body) == .nodes([.text("1")]))
        #expect(try XPathQuery("count(//a)").evaluate(body) == .number(2))
        #expect(try XPathQuery("count(//a) = 2").evaluate(body) == .boolean(true))
        #expect(try XPathQuery("string(//a)").evaluate(body) == .string("hi"))
        #expect(try XPathQuery("//zz").evaluate(body) == .nodes([]))
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func elementsPrintAsWireMockPrintsThem() throws {
        let found = try XPathQuery("/r/a").evaluate("<r><a x='1'>hi<b>t</b></a></r>")
        guard case .nodes(let nodes) = found, let first = nodes.first else {
            Issue.record("no node: \(found)")
            return
        }
        #expect(first.text == "<a x=\"1\">\n  hi\n  <b>t</b>\n</a>\n")
        #expect(try XPathQuery("/r").evaluate("<r><a>1</a></r>") == .nodes([.element(XML.parse("<r><a>1</a></r>"))]))
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func namespacesAreStrippedUnlessGiven() throws {
        let soap = "<s:Envelope xmlns:s='urn:s'><s:Body><a>s</a></s:Body></s:Envelope>"
        #expect(try XPathQuery("/Envelope/Body/a/text()").evaluate(soap) == .nodes([.text("s")]))
        let named = try XPathQuery("//n:a", namespaces: [("n", "urn:n")])
        #expect(try named.evaluate("<r xmlns='urn:n'><a/></r>") != .nodes([]))
        #expect(try named.evaluate("<r><a/></r>") == .nodes([]))
        #expect(throws: XMLError.self) { try XPathQuery("//p:a").evaluate("<r xmlns:p='urn:p'><p:a/></r>") }
    }

    @Test(.enabled(if: available, "needs libxml2.so.2 (Debian package libxml2)"))
    func invalidExpressionsAreRefusedWithTheReason() {
        #expect {
            try XPathQuery("//a[")
        } throws: { error in
            (error as? XMLError)?.message.hasPrefix("invalid XPath expression \"//a[\"") == true
        }
    }
}
