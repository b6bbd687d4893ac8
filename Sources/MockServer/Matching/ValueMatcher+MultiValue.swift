import AutomationSupport
import XMLSupport

extension ValueMatcher {
    /// Whether the values of a header or query parameter (each field line, each `name=value`; none when absent)
    /// match, as WireMock's `MultiValuePattern` decides: a single matcher takes the value nearest it (see
    /// ``bestMatch(_:)``), or, for none, must match a missing value (`absent`); `hasExactly` needs as many values as
    /// matchers and each matcher's nearest value to match; `includes` needs each matcher's nearest value to match.
    /// Both fail on a missing header, as in WireMock 3. (WireMock pairs neither: `hasExactly [equalTo a, equalTo a]`
    /// holds for `a, b`, and so it does here.)
    func matches(values: [String], budget: inout Int) -> Bool {
        switch self {
        case .hasExactly(let matchers):
            return !values.isEmpty && matchers.count == values.count && matchers.allSatisfy { $0.nearestMatches(values, &budget) }
        case .includes(let matchers):
            return !values.isEmpty && matchers.allSatisfy { $0.nearestMatches(values, &budget) }
        default:
            // One value is its own nearest: the result is whether it matches (no distances, no closure).
            if values.count == 1 { return matches(values[0], budget: &budget) }
            return values.isEmpty ? matches(nil, budget: &budget) : nearestMatches(values, &budget)
        }
    }

    /// ``matches(values:budget:)`` for the values of the field `name` in `headers`, looked up without an array of them
    /// when the field comes at most once (the usual request) and the matcher takes one value.
    func matches(field name: String, in headers: HTTPHeaders, budget: inout Int) -> Bool {
        switch self {
        case .hasExactly, .includes: return matches(values: headers.values(name), budget: &budget)
        default:
            let (value, repeated) = headers.first(name)
            return repeated ? matches(values: headers.values(name), budget: &budget) : matches(value, budget: &budget)
        }
    }

    private func nearestMatches(_ values: [String], _ budget: inout Int) -> Bool {
        switch self {
        case .date, .and, .or: return Self.bestMatch(values) { wireMockResult($0, budget: &budget) }
        case .equalTo(let expected, _) where expected.isEmpty: return Self.bestMatch(values) { wireMockResult($0, budget: &budget) }
        default:
            // Distance 0 for a match and 1 otherwise: the nearest value matches when any does (the first that does).
            for value in values where matches(value, budget: &budget) { return true }
            return false
        }
    }

    /// WireMock's `getBestMatch`: of several values, the one with the least distance decides (the first of equals).
    /// A match is at distance 0 for every matcher but the date matchers, whose distance is the years between the
    /// dates, matching or not: so of `2019-…` and `2021-…` against `after 2020-01-01`, WireMock keeps the first, which
    /// does not match, and so does sut-launch. And but `equalTo ''` against an empty value: its normalised Levenshtein
    /// distance is 0/0, NaN, which Java orders after every number, so of `?a=&a=1` WireMock keeps `1` and the match
    /// fails (r9a B6); only values all empty match it.
    static func bestMatch<Values: Sequence>(_ values: Values, _ result: (Values.Element) -> (matched: Bool, distance: Double)) -> Bool {
        var best: (matched: Bool, distance: Double)?
        for value in values {
            let result = result(value)
            if best == nil || javaLess(result.distance, best!.distance) { best = result }
        }
        return best?.matched ?? false
    }

    /// `Double.compare(a, b) < 0`: NaN after every number and equal to itself.
    static func javaLess(_ a: Double, _ b: Double) -> Bool { a.isNaN ? false : (b.isNaN || a < b) }

    /// One value's WireMock `MatchResult`: whether it matches, and its distance (0 for a match and 1 otherwise, but for
    /// the date matchers; `and` averages its operands' distances, `or` keeps the least).
    func wireMockResult(_ value: String?, budget: inout Int) -> (matched: Bool, distance: Double) {
        switch self {
        case .date(let matcher):
            // A date read is ~1 µs in a release build: uncharged, a JSONPath finding a million values read a million
            // dates past the request's budget (r9a B7: 7-8 s of CPU in one evaluation).
            budget -= MatchBudget.readingDate(value?.utf8.count ?? 0)
            return matcher.result(value)
        case .and(let all) where !all.isEmpty:
            let results = all.map { $0.wireMockResult(value, budget: &budget) }
            return (results.allSatisfy(\.matched), results.reduce(0) { $0 + $1.distance } / Double(results.count))
        case .or(let any) where !any.isEmpty:
            let results = any.map { $0.wireMockResult(value, budget: &budget) }
            return (results.contains(where: \.matched), results.map(\.distance).min(by: Self.javaLess)!)
        case .equalTo(let expected, _) where expected.isEmpty:
            // Levenshtein over the longer length: 0/0 for an empty value, 1 for any other.
            return (value?.isEmpty == true, value?.isEmpty == true ? .nan : 1)
        default:
            let matched = matches(value, budget: &budget)
            return (matched, matched ? 0 : 1)
        }
    }

    /// Whether a body matches: `binaryEqualTo` compares its bytes, every other matcher its text (`text` is nil for an
    /// empty request body, as the other body matchers have always read it).
    func matches(body: [UInt8], text: @autoclosure () -> String?, budget: inout Int) -> Bool {
        if case .binaryEqualTo(let expected) = self {
            budget -= MatchBudget.scanning(min(body.count, expected.count))
            return body == expected
        }
        return matches(text(), budget: &budget)
    }

    /// The same, with the body's JSON parsed once by the caller for every JSON matcher of every mapping that looks
    /// (`json` is nil for a body that is not JSON).
    func matches(body: [UInt8], text: @autoclosure () -> String?, json: (inout Int) -> JSONNode?, budget: inout Int) -> Bool {
        explained(body: body, text: text(), json: json, budget: &budget).matched
    }

    /// The same, with why a matcher with a work budget of its own did not match when that budget stopped it (for the
    /// near miss). The request's budget is charged too (``MatchBudget``).
    /// `xml` is the body parsed once for every XML matcher of the request (nil: each parses the text itself).
    func explained(
        body: [UInt8], text: @autoclosure () -> String?, json: (inout Int) -> JSONNode?, xml: XMLBody? = nil, budget: inout Int
    ) -> (matched: Bool, note: String?) {
        switch self {
        case .equalToJSON(let expected, let ignoreArrayOrder, let ignoreExtraElements):
            guard text() != nil, let actual = json(&budget) else { return (false, nil) }
            let outcome = JSONComparison.evaluate(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
                requestBudget: &budget)
            return (outcome == .match, outcome == .overBudget ? JSONComparison.overBudgetNote : nil)
        case .equalToXML(let comparison):
            guard let text = text() else { return (false, nil) }
            return Self.xmlSimilar(comparison, xml ?? XMLBody(text), budget: &budget)
        case .matchesXPath(let query, let matcher):
            guard let text = text() else { return (false, nil) }
            return (Self.xPathMatches(query, matcher, xml ?? XMLBody(text), budget: &budget), nil)
        case .matchesJSONPath(let path, let matcher):
            guard text() != nil else { return (false, nil) }
            let document = json(&budget)
            guard budget >= 0 else { return (false, nil) }
            return (path.matches(document, matcher, sourceBytes: body.count, budget: &budget), nil)
        default:
            return (matches(body: body, text: text(), budget: &budget), nil)
        }
    }
}
