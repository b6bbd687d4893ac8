import AutomationSupport
import XMLSupport

// The XML matchers on libxml2: the first line is an XPath expression, the rest a document (a request body). The
// document is parsed, compared with itself as equalToXml compares (a document is similar to itself, but for those
// WireMock's node matcher fails on: a processing instruction or a text beside other children), and the
// expression compiled and evaluated over it, with and without a namespace; every element found prints. Each input
// must end within 5 s (a hang is a failure). Without libxml2 the target does nothing.
extension FuzzTargets {
    static func matchXML(_ bytes: [UInt8]) {
        guard XML.unavailableReason == nil else { return }
        let started = MonotonicClock.milliseconds()
        let text = String(decoding: bytes, as: UTF8.self)
        let newline = text.firstIndex(of: "\n") ?? text.endIndex
        let expression = String(text[..<newline])
        let document = newline == text.endIndex ? "" : String(text[text.index(after: newline)...])
        if (try? XML.parse(document)) != nil {
            let comparison = try? XMLComparison(document, placeholders: nil, exempted: [])
            precondition(
                comparison.map { $0.matches(document) == $0.similarToItself } == true, "a document compared with itself against its kind")
        }
        for namespaces in [[], [(prefix: "n", uri: "urn:n")]] {
            guard let query = try? XPathQuery(expression, namespaces: namespaces), case .nodes(let nodes)? = try? query.evaluate(document)
            else { continue }
            for node in nodes.prefix(100) { _ = node.text }
        }
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 5_000, "an input of \(bytes.count) bytes took \(Int(elapsed)) ms")
    }
}
