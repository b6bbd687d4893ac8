import AutomationSupport

/// WireMock 2.35's `equalToXml`: XMLUnit's similar comparison as WireMock configures it. White space between
/// elements and around text is ignored, comments too, text and CDATA are one; attributes compare by name and
/// namespace in any order; elements by local name (WireMock counts no namespace difference on an element), children
/// paired by name in any order (two of one name in their order); with placeholders, `${xmlunit.ignore}` takes any
/// text or attribute value (or none) and `${xmlunit.isNumber}` any number Java reads. `exemptedComparisons` names
/// XMLUnit comparisons not to count.
package struct XMLComparison: Sendable {
    /// XMLUnit's comparison types WireMock counts (the others never fail a match).
    package static let countedComparisons: Set<String> = [
        "ELEMENT_TAG_NAME", "SCHEMA_LOCATION", "NO_NAMESPACE_SCHEMA_LOCATION", "NODE_TYPE", "NAMESPACE_URI", "TEXT_VALUE",
        "PROCESSING_INSTRUCTION_TARGET", "PROCESSING_INSTRUCTION_DATA", "ELEMENT_NUM_ATTRIBUTES", "ATTR_VALUE",
        "CHILD_NODELIST_LENGTH", "CHILD_LOOKUP", "ATTR_NAME_LOOKUP",
    ]
    /// Every name of XMLUnit's `ComparisonType`, which `exemptedComparisons` may hold.
    package static let comparisonTypes: Set<String> = countedComparisons.union([
        "ATTR_VALUE_EXPLICITLY_SPECIFIED", "HAS_DOCTYPE_DECLARATION", "DOCTYPE_NAME", "DOCTYPE_PUBLIC_ID", "DOCTYPE_SYSTEM_ID",
        "NAMESPACE_PREFIX", "XML_VERSION", "XML_STANDALONE", "XML_ENCODING", "CHILD_NODELIST_SEQUENCE",
    ])

    package let expected: XMLElement
    let counted: Set<String>
    let placeholder: RegexBox?

    /// - Parameters:
    ///   - expected: the mapping's document (parsed when the mapping loads).
    ///   - placeholders: the opening and closing delimiters' regular expressions when placeholders are enabled.
    ///   - exempted: comparison type names not to count (each one of ``comparisonTypes``).
    /// - Throws: ``XMLError`` for a document that is not XML, a delimiter that is not a regular expression, an
    ///   unknown comparison type.
    package init(_ expected: String, placeholders: (opening: String, closing: String)?, exempted: [String]) throws(XMLError) {
        self.expected = try XML.parse(expected)
        for name in exempted where !Self.comparisonTypes.contains(name) {
            throw XMLError("\"\(name)\" is not an XMLUnit comparison type (\(Self.comparisonTypes.sorted().joined(separator: ", ")))")
        }
        counted = Self.countedComparisons.subtracting(exempted)
        guard let placeholders else {
            placeholder = nil
            return
        }
        do {
            placeholder = try RegexBox("\\s*(?:\(placeholders.opening))\\s*xmlunit\\.(ignore|isNumber)\\s*(?:\(placeholders.closing))\\s*")
        } catch {
            throw XMLError(
                "placeholder delimiters \"\(placeholders.opening)\", \"\(placeholders.closing)\" are not regular expressions: \(error)")
        }
    }

    /// Whether the body `text` is XML similar to the expected document.
    package func matches(_ text: String) -> Bool {
        evaluate(text) == nil
    }

    /// Nil when the body `text` is similar; else why not: not XML, different, or the XML work budget spent (the
    /// body's elements are read only as far as the comparison goes, each counted), or the parse and comparison used
    /// `cpuLimitNanoseconds` of CPU when given (the matching budget left: stopped there; the caller charges the CPU used).
    package func evaluate(_ text: String, cpuLimitNanoseconds: Int? = nil) -> String? {
        do {
            let clock = ThreadCPUClock.current()
            let library = try LibXML2.shared.get()
            let document = try XMLDocument(text, library: library)
            if let clock, let cpuLimitNanoseconds { document.cpuLimit = (clock, cpuLimitNanoseconds) }
            guard let root = document.root else { return "XML without a root element" }
            return try similar(expected, root, document) ? nil : "not similar"
        } catch {
            return error.message
        }
    }

    private enum Placeholder { case ignore, isNumber }

    private func placeholder(in text: String) -> Placeholder? {
        guard let placeholder, text.contains("xmlunit."), placeholder.matchesWhole(text) else { return nil }
        return text.contains("xmlunit.ignore") ? .ignore : .isNumber
    }

    private func differ(_ type: String) -> Bool { counted.contains(type) }

    private func similar(_ expected: XMLElement, _ node: LibXML2.Pointer, _ document: XMLDocument) throws(XMLError) -> Bool {
        let (actual, children) = try document.shallow(node)
        if expected.name != actual.name && differ("ELEMENT_TAG_NAME") { return false }
        if !attributesSimilar(expected.attributes, actual.attributes) { return false }
        return try childrenSimilar(Self.significant(expected.children), Self.significant(children), document)
    }

    /// By name and namespace through a table: one element with 20,000 attributes took 24 s compared pair by pair.
    private func attributesSimilar(_ expected: [XMLAttribute], _ actual: [XMLAttribute]) -> Bool {
        if expected.count != actual.count && differ("ELEMENT_NUM_ATTRIBUTES") { return false }
        struct Key: Hashable {
            let name: String
            let namespace: String?
        }
        var actualByKey: [Key: String] = [:]
        for attribute in actual { actualByKey[Key(name: attribute.name, namespace: attribute.namespace)] = attribute.value }
        var expectedKeys = Set<Key>()
        for attribute in expected {
            let key = Key(name: attribute.name, namespace: attribute.namespace)
            expectedKeys.insert(key)
            guard let other = actualByKey[key] else {
                if differ("ATTR_NAME_LOOKUP") { return false }
                continue
            }
            if !valueSimilar(attribute.value, other) && differ("ATTR_VALUE") { return false }
        }
        if differ("ATTR_NAME_LOOKUP") && actualByKey.keys.contains(where: { !expectedKeys.contains($0) }) { return false }
        return true
    }

    private func valueSimilar(_ expected: String, _ actual: String) -> Bool {
        switch placeholder(in: expected) {
        case .ignore: return true
        case .isNumber: return JavaDouble.parses(actual)
        case nil: return expected == actual
        }
    }

    private func childrenSimilar(
        _ expected: [XMLChild], _ actual: [XMLDocument.ShallowChild], _ document: XMLDocument
    ) throws(XMLError) -> Bool {
        // `${xmlunit.ignore}` as an element's only text also holds when the element has no text.
        if expected.count == 1, actual.isEmpty, case .text(let text) = expected[0], placeholder(in: text) == .ignore { return true }
        if expected.count != actual.count && differ("CHILD_NODELIST_LENGTH") { return false }
        var used = [Bool](repeating: false, count: actual.count)
        var candidates = Candidates(actual)
        for child in expected {
            try document.charge(1)
            guard let index = candidates.next(for: child) else {
                if differ("CHILD_LOOKUP") { return false }
                continue
            }
            used[index] = true
            switch (child, actual[index]) {
            case (.element(let a), .element(_, let b)): if try !similar(a, b, document) { return false }
            case (.text(let a), .text(let b)): if !valueSimilar(a, b) && differ("TEXT_VALUE") { return false }
            default: return false
            }
        }
        return !(used.contains(false) && differ("CHILD_LOOKUP"))
    }

    /// XMLUnit's `ElementSelectors.byName` with its default for other nodes: an element pairs with the first unused
    /// one of its name, a text with the first unused text. Each name keeps its queue of positions: a scan from the
    /// first child for each expected one was quadratic (300,000 children, 12 s of CPU per stub).
    private struct Candidates {
        var elements: [String: (positions: [Int], next: Int)] = [:]
        var texts: (positions: [Int], next: Int) = ([], 0)

        init(_ actual: [XMLDocument.ShallowChild]) {
            for (index, child) in actual.enumerated() {
                switch child {
                case .element(let name, _): elements[name, default: ([], 0)].positions.append(index)
                case .text: texts.positions.append(index)
                }
            }
        }

        mutating func next(for expected: XMLChild) -> Int? {
            switch expected {
            case .element(let element):
                guard let queue = elements[element.name], queue.next < queue.positions.count else { return nil }
                elements[element.name]!.next += 1
                return queue.positions[queue.next]
            case .text:
                guard texts.next < texts.positions.count else { return nil }
                texts.next += 1
                return texts.positions[texts.next - 1]
            }
        }
    }

    /// Children as XMLUnit's `ignoreWhitespace` sees them: text trimmed, white space alone dropped.
    private static func significant(_ children: [XMLChild]) -> [XMLChild] {
        children.compactMap {
            guard case .text(let text) = $0 else { return $0 }
            let trimmed = text.trimmingXMLSpace
            return trimmed.isEmpty ? nil : .text(trimmed)
        }
    }

    private static func significant(_ children: [XMLDocument.ShallowChild]) -> [XMLDocument.ShallowChild] {
        children.compactMap {
            guard case .text(let text) = $0 else { return $0 }
            let trimmed = text.trimmingXMLSpace
            return trimmed.isEmpty ? nil : .text(trimmed)
        }
    }
}

/// Java's `Double.parseDouble` acceptance, for `${xmlunit.isNumber}`: optional white space and sign, digits with an
/// optional point and exponent, `NaN`, `Infinity`, and a trailing `d`/`f`.
enum JavaDouble {
    static func parses(_ text: String) -> Bool {
        // Java's trim: every character up to U+0020 at either end.
        var scalars = Substring(
            text.unicodeScalars.drop(while: { $0.value <= 0x20 }).reversed().drop(while: { $0.value <= 0x20 }).reversed().map(
                Character.init))
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        if scalars == "NaN" || scalars == "Infinity" { return true }
        if let last = scalars.last, "dDfF".contains(last) { scalars = scalars.dropLast() }
        let parts = scalars.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false)
        }
        guard let mantissa = parts.first, parts.count <= 2 else { return false }
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.count <= 2, pieces.allSatisfy({ $0.allSatisfy(isDigit) }), pieces.contains(where: { !$0.isEmpty }) else {
            return false
        }
        guard parts.count == 2 else { return true }
        var exponent = parts[1]
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy(isDigit)
    }
}

private func isDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) }
