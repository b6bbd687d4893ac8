import AutomationSupport
import XMLSupport

/// Matches one value (a header, query parameter, cookie, body): WireMock's string matchers.
indirect enum ValueMatcher: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case contains(String, caseInsensitive: Bool)
    case doesNotContain(String)
    case matches(RegexBox)
    case doesNotMatch(RegexBox)
    /// `absent: true`: the value must be missing; `absent: false`: present with any value.
    case absent(Bool)
    case equalToJSON(JSONNode, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
    case matchesJSONPath(JSONPath, ValueMatcher?)
    case and([ValueMatcher])
    case or([ValueMatcher])
    /// `before`, `after`, `equalToDateTime`.
    case date(DateMatcher)
    /// WireMock's `anything`: any value, and none.
    case anything
    /// `binaryEqualTo`: the body's bytes, exactly (body patterns only; see ``matches(body:text:)``).
    case binaryEqualTo([UInt8])
    /// `hasExactly` and `includes` on a header or query parameter's values (see ``matches(values:)``).
    case hasExactly([ValueMatcher])
    case includes([ValueMatcher])
    /// `equalToXml` and `matchesXPath` (+ a matcher for what it finds), on libxml2 (XMLSupport).
    case equalToXML(XMLComparison)
    case matchesXPath(XPathQuery, ValueMatcher?)

    /// Whether the (possibly missing) value matches, outside a request's matching (metadata, a recording's filter):
    /// with a budget of its own.
    func matches(_ value: String?) -> Bool {
        var budget = MatchBudget.perRequest
        return matches(value, budget: &budget)
    }

    /// Whether the (possibly missing) value matches, its work taken from `budget` (``MatchBudget``); false once the
    /// budget is spent (the caller stops there: below zero, nothing was decided).
    func matches(_ value: String?, budget: inout Int) -> Bool {
        switch self {
        case .absent(let mustBeAbsent): return mustBeAbsent ? value == nil : value != nil
        case .and(let all): return all.allSatisfy { $0.matches(value, budget: &budget) }
        case .or(let any): return any.contains { $0.matches(value, budget: &budget) }
        case .doesNotContain(let text):
            guard let value else { return true }
            budget -= MatchBudget.scanning(value.utf8.count)
            return !ByteSearch.contains(value, text)
        case .doesNotMatch(let regex): return value.map { regex.matchesWhole($0, budget: &budget) == false } ?? true
        case .anything: return true
        case .date(let matcher):
            budget -= MatchBudget.scanning(value?.utf8.count ?? 0)
            return matcher.matches(value)
        case .hasExactly, .includes: return matches(values: value.map { [$0] } ?? [], budget: &budget)
        default: break
        }
        guard let value else { return false }
        return matchesPresent(value, budget: &budget)
    }

    private func matchesPresent(_ value: String, budget: inout Int) -> Bool {
        let bytes = value.utf8.count
        switch self {
        // Text compares code point by code point, as Java's equals and contains do: Swift's == and contains treat
        // canonically equivalent text as equal ("é" and "e" + U+0301), where WireMock does not.
        case .equalTo(let expected, let caseInsensitive):
            guard caseInsensitive else {
                budget -= MatchBudget.scanning(min(bytes, expected.utf8.count))
                return value.sameScalars(expected) // the same bytes, compared contiguous (a UTF8View walk: ~200 instructions)
            }
            budget -= MatchBudget.folding(bytes)
            return value.javaEqualsIgnoringCase(expected)
        case .contains(let expected, let caseInsensitive):
            guard caseInsensitive else {
                budget -= MatchBudget.scanning(bytes)
                return ByteSearch.contains(value, expected)
            }
            budget -= MatchBudget.folding(bytes)
            return ByteSearch.contains(value.lowercased(), expected.lowercased())
        case .matches(let regex): return regex.matchesWhole(value, budget: &budget) == true
        case .equalToJSON(let expected, let ignoreArrayOrder, let ignoreExtraElements):
            budget -= MatchBudget.parsingJSON(bytes)
            guard budget >= 0, let actual = try? JSONParser.parse(request: value) else { return false }
            return JSONComparison.matches(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements, requestBudget: &budget)
        case .matchesJSONPath(let path, let valueMatcher):
            budget -= MatchBudget.parsingJSON(bytes)
            guard budget >= 0 else { return false }
            return path.matches(try? JSONParser.parse(request: value), valueMatcher, sourceBytes: bytes, budget: &budget)
        case .binaryEqualTo(let expected):
            budget -= MatchBudget.scanning(min(bytes, expected.count))
            return value.utf8.elementsEqual(expected)
        case .equalToXML(let comparison): return Self.xmlSimilar(comparison, XMLBody(value), budget: &budget).matched
        case .matchesXPath(let query, let valueMatcher): return Self.xPathMatches(query, valueMatcher, value, budget: &budget)
        default: return false
        }
    }
    /// How the expectation reads in a near-miss message: `equal to "Milano"`.
    var description: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): "equal to \"\(text)\"\(caseInsensitive ? " (any case)" : "")"
        case .contains(let text, _): "containing \"\(text)\""
        case .doesNotContain(let text): "not containing \"\(text)\""
        case .matches(let regex): "matching /\(regex.source)/"
        case .doesNotMatch(let regex): "not matching /\(regex.source)/"
        case .absent(let absent): absent ? "absent" : "present"
        case .equalToJSON(let node, _, let extra): "JSON \(extra ? "including" : "equal to") \(JSONWriter.write(node).prefix(120))"
        case .matchesJSONPath(let path, let matcher): "JSON with \(path.source)" + (matcher.map { " " + $0.description } ?? "")
        case .and(let all): all.map(\.description).joined(separator: " and ")
        case .or(let any): any.map(\.description).joined(separator: " or ")
        case .date(let matcher): matcher.description
        case .anything: "anything"
        case .binaryEqualTo(let bytes):
            "binary equal to \(Base64Text.encode(Array(bytes.prefix(90))))\(bytes.count > 90 ? "…" : "") (base64, \(bytes.count) byte\(bytes.count == 1 ? "" : "s"))"
        case .hasExactly(let all):
            "exactly \(all.count) value\(all.count == 1 ? "" : "s"): " + all.map(\.description).joined(separator: "; ")
        case .includes(let all): "values including: " + all.map(\.description).joined(separator: "; ")
        case .equalToXML(let comparison):
            "XML similar to \(comparison.expected.rendered.split(separator: "\n").map { $0.drop { $0 == " " } }.joined().prefix(120))"
        case .matchesXPath(let query, let matcher): "XML with \(query.source)" + (matcher.map { " " + $0.description } ?? "")
        }
    }
}

extension ValueMatcher {
    /// WireMock's `matchesXPath`: a body that is XML and an expression that selects a node (with a matcher, a node
    /// whose text, or printed element, it matches); a boolean, number or string result never matches, as there.
    static func xPathMatches(_ query: XPathQuery, _ matcher: ValueMatcher?, _ value: String, budget: inout Int) -> Bool {
        xPathMatches(query, matcher, XMLBody(value), budget: &budget)
    }

    /// The same over a body parsed once for every XML matcher of the request (``MatchInput/bodyXML``).
    static func xPathMatches(_ query: XPathQuery, _ matcher: ValueMatcher?, _ body: XMLBody, budget: inout Int) -> Bool {
        // A body the budget left cannot pay to parse spends it; else the parse (by the first matcher that reads the
        // body: the others find it parsed), the evaluation and the reading of the nodes may use the CPU the budget
        // has left, and the whole (printing and sub-matcher too) is charged what it used: past it, the budget is
        // spent and no further stub is tried.
        guard canParse(body, budget: &budget) else { return false }
        return MatchBudget.chargingCPU(&budget) { budget, floor in
            var used = 0
            let result = try? query.evaluate(body, cpuLimitNanoseconds: MatchBudget.cpuNanoseconds(budget), cpuUsed: &used)
            budget -= MatchBudget.cpu(nanoseconds: used)
            guard budget >= 0, case .nodes(let nodes)? = result else { return false }
            guard let matcher else { return !nodes.isEmpty }
            // The nodes' reads stop once their CPU spends the budget too (MatchBudget.CPUFloor).
            return nodes.contains { node in
                floor.check(&budget)
                return budget >= 0 && matcher.matches(node.text, budget: &budget)
            }
        }
    }

    /// WireMock's `equalToXml`: whether `value` is similar, and why not when a budget stopped the comparison. The parse
    /// and comparison may use the CPU the request's budget has left and are charged what they used (each stub got
    /// 64 Mi units of its own: 4 stubs on a 5.8 MB body cost 45 s of CPU, a plain 404).
    static func xmlSimilar(_ comparison: XMLComparison, _ body: XMLBody, budget: inout Int) -> (matched: Bool, note: String?) {
        guard canParse(body, budget: &budget) else { return (false, nil) }
        return MatchBudget.chargingCPU(&budget) { budget, _ in
            let reason = comparison.evaluate(body, cpuLimitNanoseconds: MatchBudget.cpuNanoseconds(budget))
            return (reason == nil, reason.flatMap { $0.contains("budget") ? $0 : nil })
        }
    }

    /// Whether the budget can pay for `body`'s parse when it is not parsed yet (false: the budget is spent by its
    /// cost, ``MatchBudget/parsingXML(_:)``).
    private static func canParse(_ body: XMLBody, budget: inout Int) -> Bool {
        guard !body.isParsed else { return true }
        let parsing = MatchBudget.parsingXML(body.text.utf8.count)
        guard budget >= parsing else {
            budget -= parsing
            return false
        }
        return true
    }
}

/// json-unit's placeholders in `equalToJson`, as WireMock 2.35 reads them: `${json-unit.NAME}` or `#{json-unit.NAME}`
/// as a whole string value; other `${json-unit.…}` text is compared as it is, as there.
enum JSONPlaceholder {
    case ignore, ignoreElement, anyString, anyNumber, anyBoolean
    case regex(String)
    case matcher(String)

    init?(_ node: JSONNode) {
        guard case .string(let text) = node.value, text.hasPrefix("${json-unit.") || text.hasPrefix("#{json-unit.") else { return nil }
        let rest = text.dropFirst(12)
        if let simple = Self.simple[String(rest)] {
            self = simple
        } else if rest.hasPrefix("regex}") {
            self = .regex(String(rest.dropFirst(6)))
        } else if rest.hasPrefix("matches:") {
            self = .matcher(String(rest.prefix { $0 != "}" }.dropFirst(8)))
        } else {
            return nil
        }
    }

    private static let simple: [String: JSONPlaceholder] = [
        "ignore}": .ignore, "ignore-element}": .ignoreElement, "any-string}": .anyString, "any-number}": .anyNumber,
        "any-boolean}": .anyBoolean,
    ]

    /// Why `expected` cannot be compared, for the loader: a placeholder WireMock never matches (a named matcher it is not
    /// given), or a pattern that does not compile (WireMock answers 500).
    static func problem(in expected: JSONNode) -> String? {
        switch expected.value {
        case .object(let members): return members.lazy.compactMap { problem(in: $0.value) }.first
        case .array(let elements): return elements.lazy.compactMap { problem(in: $0) }.first
        default:
            switch Self(expected) {
            case .matcher(let name):
                return
                    "${json-unit.matches:\(name.prefix(60))} is not supported by sut-launch (WireMock 2.35 has no named matchers to give it: it never matches)"
            case .regex(let pattern):
                do { _ = try RegexBox(pattern) } catch { return "${json-unit.regex}\(pattern.prefix(60)): \(error)" }
                return nil
            default: return nil
            }
        }
    }
}
