import AutomationSupport
import Testing

@testable import MockServer

/// `equalToJson` with `ignoreArrayOrder` against HOSTILE.md class 6 (finding F-U: a 100 KB mapping and a 100 KB
/// request cost 47 s): equal elements pair by key in linear time, the rest within a work budget, and an evaluation the
/// budget stops is no match whose near miss names the budget.
@Suite struct JSONComparisonBudgetTests {
    static func node(_ text: String) throws -> JSONNode { try JSONParser.parse(request: text) }

    static func attack(_ count: Int) throws -> (expected: JSONNode, actual: JSONNode) {
        let expected = (0..<count).map { "[" + Array(repeating: "\($0 % 2)", count: 5).joined(separator: ",") + "]" }
        let actual =
            Array(repeating: "[1,1,1,1,1]", count: count / 2) + Array(repeating: "[0,0,0,0,0]", count: count / 2 - 1) + ["[2,2,2,2,2]"]
        return (try node("[" + expected.joined(separator: ",") + "]"), try node("[" + actual.joined(separator: ",") + "]"))
    }

    @Test func theAttackersArraysAreDecidedWithinTheBudget() throws {
        let (expected, actual) = try Self.attack(6_000)
        for extra in [true, false] {
            #expect(
                JSONComparison.evaluate(expected: expected, actual: actual, ignoreArrayOrder: true, ignoreExtraElements: extra)
                    == .noMatch)
        }
        // The same elements in another order match.
        let reversed = JSONNode(.array((expected.elements ?? []).reversed()))
        #expect(JSONComparison.matches(expected: expected, actual: reversed, ignoreArrayOrder: true, ignoreExtraElements: true))
        #expect(JSONComparison.matches(expected: expected, actual: reversed, ignoreArrayOrder: true, ignoreExtraElements: false))
    }

    /// Elements that are not equal (extra members ignored) are paired by search, counted: past the budget, no match.
    @Test func aSearchPastTheBudgetIsNoMatch() throws {
        let expected = try Self.node("[" + (0..<3_000).map { _ in #"{"a": 1}"# }.joined(separator: ",") + "]")
        let actual = try Self.node("[" + (0..<3_000).map { #"{"a": \#($0 == 2_999 ? 1 : 2), "b": \#($0)}"# }.joined(separator: ",") + "]")
        #expect(
            JSONComparison.evaluate(expected: expected, actual: actual, ignoreArrayOrder: true, ignoreExtraElements: true) == .overBudget)
        let small = try Self.node("[" + (0..<50).map { #"{"a": 1, "b": \#($0)}"# }.joined(separator: ",") + "]")
        let fifty = try Self.node("[" + (0..<50).map { _ in #"{"a": 1}"# }.joined(separator: ",") + "]")
        #expect(JSONComparison.evaluate(expected: fifty, actual: small, ignoreArrayOrder: true, ignoreExtraElements: true) == .match)
        #expect(
            JSONComparison.evaluate(expected: fifty, actual: small, ignoreArrayOrder: true, ignoreExtraElements: true, budget: 100)
                == .overBudget)
    }

    /// First fit alone missed a pairing that exists (json-unit finds it): the general element took the only one its
    /// narrower sibling could use.
    @Test func pairingIsCompleteNotFirstFit() throws {
        let expected = try Self.node(#"[{"a": 1}, {"a": 1, "b": 2}]"#)
        let actual = try Self.node(#"[{"a": 1, "b": 2, "c": 3}, {"a": 1, "c": 3}]"#)
        #expect(JSONComparison.matches(expected: expected, actual: actual, ignoreArrayOrder: true, ignoreExtraElements: true))
        #expect(!JSONComparison.matches(expected: expected, actual: actual, ignoreArrayOrder: true, ignoreExtraElements: false))
        // Placeholders are compared, never paired by key.
        let placeholders = try Self.node(#"["${json-unit.any-number}", 5]"#)
        #expect(
            JSONComparison.matches(
                expected: placeholders, actual: try Self.node("[5, 6]"), ignoreArrayOrder: true, ignoreExtraElements: false))
        #expect(
            !JSONComparison.matches(
                expected: placeholders, actual: try Self.node("[6, 7]"), ignoreArrayOrder: true, ignoreExtraElements: false))
    }

    /// An integer and a decimal are equal only when they are the same number (a Double conversion blurred 2^53 + 1).
    @Test func integersAndDecimalsCompareExactly() throws {
        #expect(
            !JSONComparison.matches(
                expected: try Self.node("9007199254740993"), actual: try Self.node("9007199254740992.0"),
                ignoreArrayOrder: false, ignoreExtraElements: false))
        #expect(
            JSONComparison.matches(
                expected: try Self.node("[1, 2]"), actual: try Self.node("[2.0, 1.0]"),
                ignoreArrayOrder: true, ignoreExtraElements: false))
    }

    /// The near miss of a stub the budget stopped says so.
    @Test func theNearMissNamesTheBudget() throws {
        let expected = try Self.node("[" + (0..<3_000).map { _ in #"{"a": 1}"# }.joined(separator: ",") + "]")
        let body = "[" + (0..<3_000).map { #"{"a": \#($0 == 2_999 ? 1 : 2), "b": \#($0)}"# }.joined(separator: ",") + "]"
        let matcher = ValueMatcher.equalToJSON(expected, ignoreArrayOrder: true, ignoreExtraElements: true)
        var budget = MatchBudget.perRequest
        let (matched, note) = matcher.explained(
            body: Array(body.utf8), text: body, json: { _ in try? JSONParser.parse(request: body) }, budget: &budget)
        #expect(!matched)
        #expect(note?.contains("equalToJson's work budget") == true)
    }
}
