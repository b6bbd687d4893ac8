import AutomationSupport
import XMLSupport

// WireMock's XML matchers, parsed when the mapping loads: the document and the expression are checked then (loading
// libxml2 the first time), so a bad one, or a machine without libxml2, is a refusal naming the file and mapping.
extension ValueMatcher {
    static let xmlModifiers = [
        "enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex", "exemptedComparisons",
        "xPathNamespaces",
    ]

    static func equalToXML(_ reader: ObjectReader, what: String) throws(StubError) -> ValueMatcher {
        let expected = try reader.string("equalToXml") ?? ""
        let placeholders =
            try reader.bool("enablePlaceholders") == true
            ? (
                opening: try reader.string("placeholderOpeningDelimiterRegex") ?? "\\$\\{",
                closing: try reader.string("placeholderClosingDelimiterRegex") ?? "\\}"
            ) : nil
        var exempted: [String] = []
        for element in try reader.array("exemptedComparisons") ?? [] {
            guard let name = element.string else { throw reader.typeError("exemptedComparisons", element, "a list of strings") }
            exempted.append(name)
        }
        do {
            return .equalToXML(try XMLComparison(expected, placeholders: placeholders, exempted: exempted))
        } catch {
            throw reader.error("equalToXml", "\(what): equalToXml: \(error.message)")
        }
    }

    static func matchesXPath(_ reader: ObjectReader, what: String) throws(StubError) -> ValueMatcher {
        var namespaces: [(prefix: String, uri: String)] = []
        if let node = reader["xPathNamespaces"] {
            guard let members = node.members else { throw reader.typeError("xPathNamespaces", node, "an object of strings") }
            for member in members {
                guard let uri = member.value.string else { throw reader.typeError("xPathNamespaces", member.value, "an object of strings") }
                namespaces.append((member.key, uri))
            }
        }
        let value = reader["matchesXPath"]!
        var expression = value.string
        var matcher: ValueMatcher?
        if expression == nil {
            let inner = try ObjectReader(value, file: reader.file, what: "matchesXPath")
            expression = try inner.string("expression")
            var rest = value
            if case .object(let members) = value.value { rest.value = .object(members.filter { $0.key != "expression" }) }
            matcher = try parse(rest, file: reader.file, what: "matchesXPath")
        }
        guard let expression else {
            throw StubError(
                file: reader.file, position: value.position, "matchesXPath needs an expression, or \"expression\" and one matcher")
        }
        do {
            return .matchesXPath(try XPathQuery(expression, namespaces: namespaces), matcher)
        } catch {
            throw reader.error("matchesXPath", "\(what): matchesXPath: \(error.message)")
        }
    }
}
