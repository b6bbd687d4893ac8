import AutomationSupport

/// WireMock 2.35's `equalToXml`: XMLUnit's similar comparison as WireMock configures it. White space between
/// elements and around text is ignored, comments too, text and CDATA are one; attributes compare by the name as
/// written (`p:k` and `q:k` differ whatever their namespaces), in any order; elements by local name and by the default
/// namespace (`xmlns="…"`) in scope where the expected document has one (prefixes and the namespaces they bind are not
/// compared: see ``namespacesSimilar(_:_:)``); a document with an `xml:` attribute matches nothing; children
/// sorted by local name and paired in that order, processing instructions compared by target and data (see
/// ``childrenSimilar(_:_:_:)`` for the lists WireMock never matches); with placeholders, `${xmlunit.ignore}` takes
/// any text or attribute value (or none) and `${xmlunit.isNumber}` any number Java reads. `exemptedComparisons`
/// names XMLUnit comparisons not to count.
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
    /// A processing instruction before or after the expected root: WireMock then matches no body (see
    /// ``childrenSimilar(_:_:_:)``).
    let expectedInstructionOutsideRoot: Bool
    /// An `xml:space` or other `xml:` attribute in the expected document: WireMock then matches no body.
    let expectedXMLAttribute: Bool
    let counted: Set<String>
    let placeholder: RegexBox?

    /// - Parameters:
    ///   - expected: the mapping's document (parsed when the mapping loads).
    ///   - placeholders: the opening and closing delimiters' regular expressions when placeholders are enabled.
    ///   - exempted: comparison type names not to count (each one of ``comparisonTypes``).
    /// - Throws: ``XMLError`` for a document that is not XML, a delimiter that is not a regular expression, an
    ///   unknown comparison type.
    package init(_ expected: String, placeholders: (opening: String, closing: String)?, exempted: [String]) throws(XMLError) {
        let library = try LibXML2.shared.get()
        let document = try XMLDocument(expected, library: library)
        guard let root = document.root else { throw XMLError("XML without a root element") }
        self.expected = try document.element(root)
        expectedInstructionOutsideRoot = document.hasInstructionOutsideRoot
        expectedXMLAttribute = document.holdsXMLPrefixedAttribute
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

    /// Whether the expected document is similar to itself: not where WireMock's node matcher fails on one of its
    /// child lists (``childrenSimilar(_:_:_:)``: a processing instruction or a text beside other nodes, or a
    /// processing instruction outside the root), which it visits whenever a body pairs every element.
    package var similarToItself: Bool {
        !expectedInstructionOutsideRoot && !expectedXMLAttribute && !Self.holdsUnsortableList(expected)
    }

    private static func holdsUnsortableList(_ element: XMLElement) -> Bool {
        let children = significant(element.children)
        if children.count > 1 && children.contains(where: { $0.sortName == nil }) { return true }
        return children.contains { if case .element(let child) = $0 { holdsUnsortableList(child) } else { false } }
    }

    /// Whether the body `text` is XML similar to the expected document.
    package func matches(_ text: String) -> Bool {
        evaluate(text) == nil
    }

    /// Nil when the body `text` is similar; else why not: not XML, different, or the XML work budget spent (the
    /// body's elements are read only as far as the comparison goes, each counted), or the parse and comparison used
    /// `cpuLimitNanoseconds` of CPU when given (the matching budget left: stopped there; the caller charges the CPU used).
    package func evaluate(_ text: String, cpuLimitNanoseconds: Int? = nil) -> String? {
        evaluate(XMLBody(text), cpuLimitNanoseconds: cpuLimitNanoseconds)
    }

    /// The same over a body parsed once for every matcher that reads it (parsed here when no matcher did before).
    package func evaluate(_ body: XMLBody, cpuLimitNanoseconds: Int? = nil) -> String? {
        do {
            let clock = ThreadCPUClock.current()
            let document = try body.document()
            document.begin(clock, cpuLimitNanoseconds: cpuLimitNanoseconds)
            guard let root = document.root else { return "XML without a root element" }
            if expectedInstructionOutsideRoot || document.hasInstructionOutsideRoot {
                return "a processing instruction outside the root element (WireMock 2.35.1 matches no such document)"
            }
            if expectedXMLAttribute { return Self.xmlAttributeReason }
            guard try similar(expected, root, document, (nil, nil)) else { return "not similar" }
            // Asked only of a body found similar: reading every element of one that differs early is what the
            // comparison avoids (a 15.8 MB body told at its root).
            return document.holdsXMLPrefixedAttribute ? Self.xmlAttributeReason : nil
        } catch {
            return error.message
        }
    }

    private static let xmlAttributeReason = "an xml: attribute such as xml:space (WireMock 2.35.1 matches no such document)"

    private enum Placeholder { case ignore, isNumber }

    private func placeholder(in text: String) -> Placeholder? {
        guard let placeholder, text.contains("xmlunit."), placeholder.matchesWhole(text) else { return nil }
        return text.contains("xmlunit.ignore") ? .ignore : .isNumber
    }

    private func differ(_ type: String) -> Bool { counted.contains(type) }

    /// The default namespaces in scope of the expected element's parent and of the body's (nil: none).
    typealias Defaults = (expected: String?, actual: String?)

    private func similar(_ expected: XMLElement, _ node: LibXML2.Pointer, _ document: XMLDocument, _ inherited: Defaults)
        throws(XMLError) -> Bool
    {
        let (actual, children) = try document.shallow(node)
        if expected.name != actual.name && differ("ELEMENT_TAG_NAME") { return false }
        let defaults: Defaults = (Self.defaultNamespace(expected, inherited.expected), Self.defaultNamespace(actual, inherited.actual))
        if !namespacesSimilar(defaults.expected, defaults.actual) { return false }
        if !attributesSimilar(expected.attributes, actual.attributes) { return false }
        return try childrenSimilar(Self.significant(expected.children), Self.significant(children), document, defaults)
    }

    /// The default namespace in scope of `element`: its own `xmlns="…"`, else its parent's (`xmlns=""`: none).
    private static func defaultNamespace(_ element: XMLElement, _ inherited: String?) -> String? {
        guard let declared = element.declarations.first(where: { $0.prefix == nil }) else { return inherited }
        return declared.uri.isEmpty ? nil : declared.uri
    }

    /// WireMock reads both documents without namespaces, then its transforms give each element the default namespace
    /// in scope, whatever its prefix (`<x:a xmlns:x="urn:x">` has none; `<b/>` under `xmlns="urn:x"` has `urn:x`), and
    /// XMLUnit's NAMESPACE_URI comparison counts only where the expected element has one: so `<b xmlns=""/>` under
    /// `<a xmlns="urn:x">` differs from `<b/>` there, while `<p:a xmlns:p="urn:x"/>` matches `<q:a xmlns:q="urn:y"/>`.
    private func namespacesSimilar(_ expected: String?, _ actual: String?) -> Bool {
        guard let expected else { return true }
        return expected == actual || !differ("NAMESPACE_URI")
    }

    /// By name and namespace through a table: one element with 20,000 attributes took 24 s compared pair by pair.
    private func attributesSimilar(_ expected: [XMLAttribute], _ actual: [XMLAttribute]) -> Bool {
        if expected.count != actual.count && differ("ELEMENT_NUM_ATTRIBUTES") { return false }
        // By the name as written: WireMock reads attributes without namespaces (`p:k` is found as `p:k` alone).
        var actualByKey: [String: String] = [:]
        for attribute in actual { actualByKey[attribute.qualifiedName] = attribute.value }
        var expectedKeys = Set<String>()
        for attribute in expected {
            let key = attribute.qualifiedName
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

    /// XMLUnit's comparison of two child lists with WireMock's `OrderInvariantNodeMatcher`: the count (the
    /// placeholder aside), then each list sorted by local name (Java's `compareTo`, a stable sort), each expected
    /// child paired with the next unused actual child of its kind (element, text, processing instruction), wrapping
    /// around; an expected child left unpaired is a difference (`${xmlunit.ignore}` text aside), an actual one is not.
    /// The sort asks every node for its local name, which a text or processing instruction does not have: in a list
    /// of two or more nodes holding one, WireMock 2.35.1 fails (a NullPointerException) and answers no match, so
    /// `<a><b/>t</a>` and `<a><b/><?pi x?></a>` match nothing, not even themselves.
    private func childrenSimilar(
        _ expected: [XMLChild], _ actual: [XMLDocument.ShallowChild], _ document: XMLDocument, _ defaults: Defaults
    ) throws(XMLError) -> Bool {
        // `${xmlunit.ignore}` as an element's only text also holds when the element has no text.
        if expected.count == 1, actual.isEmpty, case .text(let text) = expected[0], placeholder(in: text) == .ignore { return true }
        if expected.count != actual.count && differ("CHILD_NODELIST_LENGTH") { return false }
        guard let expectedOrder = Self.sortedByName(expected.map(\.sortName)), let actualOrder = Self.sortedByName(actual.map(\.sortName))
        else { return false }
        var used = [Bool](repeating: false, count: actual.count)
        var (last, pairs) = (-1, 0)
        for child in expectedOrder.map({ expected[$0] }) {
            try document.charge(1)
            // Lists of more than one node hold elements only: the next one pairs, and once all are paired none does.
            let free = { (index: Int) in !used[index] && child.kind == actual[actualOrder[index]].kind }
            let next = pairs == actual.count ? nil : (last + 1..<actual.count).first(where: free) ?? (0..<max(last, 0)).first(where: free)
            guard let position = next else {
                if case .text(let text) = child, placeholder(in: text) == .ignore { continue }
                if differ("CHILD_LOOKUP") { return false }
                continue
            }
            used[position] = true
            (last, pairs) = (position, pairs + 1)
            switch (child, actual[actualOrder[position]]) {
            case (.element(let a), .element(_, let b)): if try !similar(a, b, document, defaults) { return false }
            case (.text(let a), .text(let b)): if !valueSimilar(a, b) && differ("TEXT_VALUE") { return false }
            case (.instruction(let target, let data), .instruction(let otherTarget, let otherData)):
                if target != otherTarget && differ("PROCESSING_INSTRUCTION_TARGET") { return false }
                if data.trimmingXMLSpace != otherData.trimmingXMLSpace && differ("PROCESSING_INSTRUCTION_DATA") { return false }
            default: return false
            }
        }
        return true
    }

    /// The order WireMock's node matcher sorts a list in (indices into `names`, stable), or nil where its sort fails:
    /// two or more nodes, one without a local name.
    private static func sortedByName(_ names: [String?]) -> [Int]? {
        if names.count < 2 { return Array(names.indices) }
        let present = names.compactMap { $0 }
        guard present.count == names.count else { return nil }
        return present.indices.sorted {
            let (a, b) = (present[$0].utf16, present[$1].utf16)
            return a.elementsEqual(b) ? $0 < $1 : a.lexicographicallyPrecedes(b)
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

/// What XMLUnit's node matcher pairs: nodes of one kind (text and CDATA are one).
private enum NodeKind { case element, text, instruction }

extension XMLChild {
    fileprivate var kind: NodeKind {
        switch self {
        case .element: .element
        case .text, .cdata: .text
        case .instruction: .instruction
        }
    }

    /// The local name WireMock sorts by: an element's, none for other nodes.
    fileprivate var sortName: String? { if case .element(let element) = self { element.name } else { nil } }
}

extension XMLDocument.ShallowChild {
    fileprivate var kind: NodeKind {
        switch self {
        case .element: .element
        case .text, .cdata: .text
        case .instruction: .instruction
        }
    }

    fileprivate var sortName: String? { if case .element(let name, _) = self { name } else { nil } }
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
