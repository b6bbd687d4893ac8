import AutomationSupport

extension ValueMatcher {
    static let knownOperators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson", "matchesJsonPath", "and", "or",
    ]
    static let modifiers = ["caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements"]
    static let unsupportedOperators: [String: String] = [
        "binaryEqualTo": "binary bodies: use base64 in equalTo on text, or a native requestBody",
        "equalToXml": "XML matching is not implemented", "matchesXPath": "XML matching is not implemented",
        "before": "date matchers are not implemented", "after": "date matchers are not implemented",
        "equalToDateTime": "date matchers are not implemented", "hasExactly": "multi-value matchers are not implemented",
        "includes": "multi-value matchers are not implemented", "matchesJsonSchema": "JSON Schema is not implemented",
        "not": "use doesNotMatch or doesNotContain",
    ]

    /// Parses a WireMock matcher object (`{"equalTo": "x", "caseInsensitive": true}`), or a plain string or
    /// number as `equalTo`.
    static func parse(_ node: JSONNode, file: String, what: String) throws(StubError) -> ValueMatcher {
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
            do { return try RegexBox(source) } catch {
                throw reader.error(name, "\(what): invalid regular expression \"\(source)\": \(error)")
            }
        }
        switch name {
        case "equalTo": return .equalTo(try text(), caseInsensitive: caseInsensitive)
        case "contains": return .contains(try text(), caseInsensitive: caseInsensitive)
        case "doesNotContain": return .doesNotContain(try text())
        case "matches": return .matches(try regex())
        case "doesNotMatch": return .doesNotMatch(try regex())
        case "absent": return .absent(try reader.bool("absent") ?? true)
        case "equalToJson":
            var expected = reader["equalToJson"]!
            if case .string(let embedded) = expected.value {
                do { expected = try JSONParser.parse(embedded) } catch {
                    throw reader.error(name, "\(what): equalToJson holds a string that is not JSON: \(error.message)")
                }
            }
            return .equalToJSON(
                expected, ignoreArrayOrder: try reader.bool("ignoreArrayOrder") ?? false,
                ignoreExtraElements: try reader.bool("ignoreExtraElements") ?? false)
        case "matchesJsonPath":
            let value = reader["matchesJsonPath"]!
            if let expression = value.string { return .matchesJSONPath(try jsonPath(expression, reader), nil) }
            let inner = try ObjectReader(value, file: file, what: "matchesJsonPath")
            guard let expression = try inner.string("expression") else {
                throw StubError(file: file, position: value.position, "matchesJsonPath needs \"expression\" and one matcher")
            }
            var rest = value
            if case .object(let members) = value.value { rest.value = .object(members.filter { $0.key != "expression" }) }
            return .matchesJSONPath(try jsonPath(expression, reader), try parse(rest, file: file, what: "matchesJsonPath"))
        default:
            guard let elements = try reader.array(name) else { return .absent(false) }
            var matchers: [ValueMatcher] = []
            for element in elements { matchers.append(try parse(element, file: file, what: what)) }
            return name == "and" ? .and(matchers) : .or(matchers)
        }
    }

    private static func jsonPath(_ expression: String, _ reader: ObjectReader) throws(StubError) -> JSONPath {
        do { return try JSONPath(expression) } catch { throw reader.error("matchesJsonPath", error.message) }
    }
}
