import AutomationSupport

/// Where a matcher stands, which decides the operators it may use: WireMock reads a header's or query parameter's
/// matcher as a `MultiValuePattern` (so `hasExactly`, `includes`), a body pattern as a `ContentPattern` (so
/// `binaryEqualTo`), and anything else (cookies, `host`, path parameters, inside `and`/`or`) as a string pattern.
enum MatcherPlace {
    case value, values, body
}

extension ValueMatcher {
    static let knownOperators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson", "matchesJsonPath", "and", "or",
        "before", "after", "equalToDateTime", "anything", "binaryEqualTo", "hasExactly", "includes", "equalToXml", "matchesXPath",
    ]
    static let modifiers = ["caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements"] + DateMatcher.modifiers + xmlModifiers
    static let unsupportedOperators: [String: String] = [
        "matchesJsonSchema": "JSON Schema is not implemented",
        "not": "it is WireMock 3's, and WireMock 2.35 refuses it too; use doesNotMatch or doesNotContain",
    ]
    /// The operators each place alone may use, with where they belong.
    static let placedOperators: [String: (place: MatcherPlace, where: String)] = [
        "binaryEqualTo": (.body, "body patterns (bodyPatterns, and a multipart pattern's)"),
        "hasExactly": (.values, "headers and queryParameters (and a multipart pattern's headers)"),
        "includes": (.values, "headers and queryParameters (and a multipart pattern's headers)"),
    ]

    /// Parses a WireMock matcher object (`{"equalTo": "x", "caseInsensitive": true}`), or a plain string or
    /// number as `equalTo`.
    static func parse(_ node: JSONNode, file: String, what: String, place: MatcherPlace = .value) throws(StubError) -> ValueMatcher {
        switch node.value {
        case .string(let text): return .equalTo(text, caseInsensitive: false)
        case .int, .double, .bool: return .equalTo(JSONWriter.write(node), caseInsensitive: false)
        default: break
        }
        let reader = try ObjectReader(node, file: file, what: what)
        try reader.checkKeys(knownOperators + modifiers, unsupported: unsupportedOperators)
        let operators = reader.keys.filter { knownOperators.contains($0) }
        guard operators.count == 1, let name = operators.first else {
            throw StubError(
                file: file, position: node.position,
                operators.isEmpty
                    ? "\(what) needs one matcher: \(knownOperators.joined(separator: ", "))"
                    : "\(what) has \(operators.count) matchers (\(operators.joined(separator: ", "))); use one, or \"and\"")
        }
        if let placed = placedOperators[name], placed.place != place {
            throw reader.error(name, "\(what): \"\(name)\" belongs to \(placed.where), as in WireMock")
        }
        let isDate = DateMatcher.operators.contains(name)
        for modifier in DateMatcher.modifiers where reader[modifier] != nil && !isDate {
            throw reader.error(modifier, "\(what): \"\(modifier)\" belongs beside before, after or equalToDateTime, not \(name)")
        }
        for modifier in xmlModifiers where reader[modifier] != nil && name != "equalToXml" && name != "matchesXPath" {
            throw reader.error(modifier, "\(what): \"\(modifier)\" belongs beside equalToXml or matchesXPath, not \(name)")
        }
        if isDate { return .date(try DateMatcher.parse(name, reader, what: what)) }
        return try parseOperator(name, reader, what: what)
    }

    private static func parseOperator(_ name: String, _ reader: ObjectReader, what: String) throws(StubError) -> ValueMatcher {
        let caseInsensitive = try reader.bool("caseInsensitive") ?? false
        func text() throws(StubError) -> String {
            guard let value = reader[name] else { return "" }
            switch value.value {
            case .string(let text): return text
            case .int, .double, .bool: return JSONWriter.write(value)
            default: throw reader.typeError(name, value, "a string")
            }
        }
        func regex() throws(StubError) -> RegexBox {
            let source = try text()
            // WireMock compiles `matches` and `doesNotMatch` with Java's DOTALL: `.*` spans a body's line breaks and
            // the newline a printed XML element ends with.
            do { return try RegexBox(source, dotAll: true) } catch {
                throw reader.error(name, "\(what): invalid regular expression \"\(source)\": \(error)")
            }
        }
        switch name {
        case "equalTo": return .equalTo(try text(), caseInsensitive: caseInsensitive)
        // WireMock 2.35 reads `caseInsensitive` beside `equalTo` only: beside `contains` it loads and is not applied.
        case "contains": return .contains(try text(), caseInsensitive: false)
        case "doesNotContain": return .doesNotContain(try text())
        case "matches": return .matches(try regex())
        case "doesNotMatch": return .doesNotMatch(try regex())
        case "absent": return .absent(try reader.bool("absent") ?? true)
        case "anything":
            _ = try reader.string(name) // WireMock wants a string there, and ignores it
            return .anything
        case "binaryEqualTo":
            guard let encoded = try reader.string(name) else { return .binaryEqualTo([]) }
            do { return .binaryEqualTo(try Base64Text.decodeExplained(encoded)) } catch {
                throw reader.error(name, "\(what): binaryEqualTo is not base64: \(error)")
            }
        case "equalToJson": return try equalToJSON(reader, what: what)
        case "matchesJsonPath": return try matchesJSONPath(reader)
        case "equalToXml": return try equalToXML(reader, what: what)
        case "matchesXPath": return try matchesXPath(reader, what: what)
        default: return try list(name, reader, what: what)
        }
    }

    private static func equalToJSON(_ reader: ObjectReader, what: String) throws(StubError) -> ValueMatcher {
        var expected = reader["equalToJson"]!
        if case .string(let embedded) = expected.value {
            do { expected = try JSONParser.parse(Array(embedded.utf8), refusingLoneSurrogates: true) } catch {
                throw reader.error("equalToJson", "\(what): equalToJson holds a string that is not JSON: \(error.message)")
            }
            // A number a Double would blur (R8a-A12): compared as its neighbour, a request with another number matched.
            do { _ = try JSONParser.parse(Array(embedded.utf8), exactDecimals: true) } catch {
                throw reader.error("equalToJson", "\(what): equalToJson: \(error.message)\(inexactAdvice)")
            }
        }
        if let problem = JSONPlaceholder.problem(in: expected) { throw reader.error("equalToJson", "\(what): equalToJson: \(problem)") }
        // The object form's literals are read already: a whole number at or past 2^63 may have been any of its neighbours.
        if reader["equalToJson"]?.string == nil, let big = beyondIntegers(expected) {
            throw StubError(
                file: reader.file, position: big.position,
                "\(what): equalToJson: the number here is an integer past 64 bits, read as the double \(big.value): compared so, "
                    + "every request number rounding to that double would equal it\(inexactAdvice)")
        }
        return .equalToJSON(
            expected, ignoreArrayOrder: try reader.bool("ignoreArrayOrder") ?? false,
            ignoreExtraElements: try reader.bool("ignoreExtraElements") ?? false)
    }

    private static let inexactAdvice =
        " (WireMock compares it exactly): leave it out of equalToJson, or match it with matchesJsonPath, whose filter compares it exactly"

    /// The first whole number of `expected` at or past 2^63 in magnitude: read from an integer literal past 64 bits (a
    /// Double then; the parser keeps every other integer exact), or from one like `1e20`, which cannot be told apart
    /// once read: `100000000000000000001` was read as 1e20 and matched a request's `100000000000000000000`.
    private static func beyondIntegers(_ expected: JSONNode) -> (position: SourcePosition, value: Double)? {
        switch expected.value {
        case .object(let members): return members.lazy.compactMap { beyondIntegers($0.value) }.first
        case .array(let elements): return elements.lazy.compactMap { beyondIntegers($0) }.first
        case .double(let number) where number.rounded() == number && abs(number) >= 0x1p63: return (expected.position, number)
        default: return nil
        }
    }

    private static func matchesJSONPath(_ reader: ObjectReader) throws(StubError) -> ValueMatcher {
        let value = reader["matchesJsonPath"]!
        if let expression = value.string { return .matchesJSONPath(try jsonPath(expression, reader), nil) }
        let inner = try ObjectReader(value, file: reader.file, what: "matchesJsonPath")
        guard let expression = try inner.string("expression") else {
            throw StubError(file: reader.file, position: value.position, "matchesJsonPath needs \"expression\" and one matcher")
        }
        var rest = value
        if case .object(let members) = value.value { rest.value = .object(members.filter { $0.key != "expression" }) }
        return .matchesJSONPath(try jsonPath(expression, reader), try parse(rest, file: reader.file, what: "matchesJsonPath"))
    }

    /// `and`, `or` (string patterns inside), `hasExactly`, `includes` (string patterns of one value each).
    private static func list(_ name: String, _ reader: ObjectReader, what: String) throws(StubError) -> ValueMatcher {
        guard let elements = try reader.array(name) else { return .absent(false) }
        // Empty, `and` held for anything (a missing header too) and the others never held: WireMock refuses and/or.
        guard !elements.isEmpty else {
            throw reader.error(
                name,
                "\(what): \"\(name)\": [] holds no matcher (it would \(name == "and" ? "match anything" : "never match")); list at least one"
            )
        }
        var matchers: [ValueMatcher] = []
        for element in elements {
            let matcher = try parse(element, file: reader.file, what: what)
            if name == "hasExactly" || name == "includes", case .absent(true) = matcher {
                throw StubError(
                    file: reader.file, position: element.position,
                    "\(what): {\"absent\": true} inside \(name) can never match (it is about each value, and there is one); write {\"absent\": true} alone"
                )
            }
            matchers.append(matcher)
        }
        switch name {
        case "and": return .and(matchers)
        case "or": return .or(matchers)
        case "hasExactly": return .hasExactly(matchers)
        default: return .includes(matchers)
        }
    }

    private static func jsonPath(_ expression: String, _ reader: ObjectReader) throws(StubError) -> JSONPath {
        do { return try JSONPath(expression) } catch { throw reader.error("matchesJsonPath", error.message) }
    }
}
