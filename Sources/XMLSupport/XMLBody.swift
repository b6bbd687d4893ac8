import AutomationSupport

/// A request's body as XML, parsed on first use and kept for every XML matcher of every stub that looks at it, as
/// `MatchInput.bodyJSON` keeps the body's JSON: twelve XPath stubs on one URL parsed a 1 MB body twelve times, each
/// parse charged to the request's budget. Holds the document, or why the body is not XML. Used on one thread (the
/// request's), as libxml2's documents are.
package final class XMLBody {
    package let text: String
    private var parsed: Result<XMLDocument, XMLError>?
    /// How many times the body was parsed: 0 before the first XML matcher looks, 1 after.
    package private(set) var parses = 0

    package init(_ text: String) { self.text = text }

    /// Whether the body was parsed already (its cost paid by the first matcher that looked).
    package var isParsed: Bool { parsed != nil }

    /// The parsed document, or why the body is not XML; parsed once.
    func document() throws(XMLError) -> XMLDocument {
        if let parsed { return try parsed.get() }
        parses += 1
        let result: Result<XMLDocument, XMLError>
        do {
            result = .success(try XMLDocument(text, library: try LibXML2.shared.get()))
        } catch {
            result = .failure(error)
        }
        parsed = result
        return try result.get()
    }
}
