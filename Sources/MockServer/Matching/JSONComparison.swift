import AutomationSupport

/// Structural JSON comparison for `equalToJson` and native `requestJson`/`requestJsonIncludes`, with a work budget
/// per evaluation: one unit per value compared or read for a key, as JSONPath counts its own.
///
/// `ignoreArrayOrder` pairs the elements of two arrays as json-unit does (any pairing in which each expected element
/// matches its own actual one). Elements equal in every respect are paired first by a canonical key (linear); the
/// rest by first fit, then augmenting paths (a complete bipartite matching). Each array pairing used to compare every
/// pair: a 100 KB mapping and a 100 KB request cost 47 s of CPU. What the budget does not cover is no match, and the
/// near miss says so.
struct JSONComparison {
    /// The units one evaluation may spend.
    static let budget = 1_000_000

    enum Outcome: Equatable {
        case match, noMatch, overBudget
    }

    let ignoreArrayOrder: Bool
    let ignoreExtraElements: Bool
    var remaining: Int

    static func matches(expected: JSONNode, actual: JSONNode, ignoreArrayOrder: Bool, ignoreExtraElements: Bool) -> Bool {
        evaluate(expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements)
            == .match
    }

    static func evaluate(
        expected: JSONNode, actual: JSONNode, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, budget: Int = budget
    ) -> Outcome {
        var comparison = JSONComparison(ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements, remaining: budget)
        let matched = comparison.matches(expected, actual)
        // Spending stops every comparison with false, and a false never makes a match: over budget is no match.
        return comparison.remaining < 0 ? .overBudget : (matched ? .match : .noMatch)
    }

    /// Within a request's matching budget (``MatchBudget``): at most this evaluation's own budget, and what it
    /// spends is charged to the request's (left negative when the request's ran out first).
    static func matches(
        expected: JSONNode, actual: JSONNode, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, requestBudget request: inout Int
    ) -> Bool {
        evaluate(
            expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
            requestBudget: &request) == .match
    }

    /// ``evaluate(expected:actual:ignoreArrayOrder:ignoreExtraElements:budget:)`` within a request's budget.
    static func evaluate(
        expected: JSONNode, actual: JSONNode, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, requestBudget request: inout Int
    ) -> Outcome {
        let allowed = max(0, min(budget, request))
        var comparison = JSONComparison(ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements, remaining: allowed)
        let matched = comparison.matches(expected, actual)
        request -= allowed - comparison.remaining
        return comparison.remaining < 0 ? .overBudget : (matched ? .match : .noMatch)
    }

    /// The near miss's words for an evaluation stopped by the budget.
    static let overBudgetNote = "more than equalToJson's work budget (\(budget) units) to compare: no match"

    mutating func matches(_ expected: JSONNode, _ actual: JSONNode) -> Bool {
        remaining -= 1
        guard remaining >= 0 else { return false }
        switch (expected.value, actual.value) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            if !ignoreExtraElements && expectedMembers.count < actualMembers.count { return false }
            var found = 0
            // A large object is looked up through a table, not scanned once per expected member.
            // Keyed by code points: a key in NFD is not the same key in NFC (Java compares code points).
            var table: [ScalarKey: JSONNode]?
            if expectedMembers.count > 8 && actualMembers.count > 8 {
                remaining -= actualMembers.count * 4 // a dictionary built: each key hashed and stored
                table = Dictionary(actualMembers.map { (ScalarKey($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            }
            for member in expectedMembers {
                guard let other = table.map({ $0[ScalarKey(member.key)] }) ?? JSONNode.member(member.key, in: actualMembers) else {
                    // `${json-unit.ignore-element}` holds for a member that is not there too (WireMock 2.35).
                    if case .ignoreElement = JSONPlaceholder(member.value) { continue }
                    return false
                }
                found += 1
                guard matches(member.value, other) else { return false }
            }
            return ignoreExtraElements || found == actualMembers.count
        case (.array(let expectedElements), .array(let actualElements)):
            if !ignoreExtraElements && expectedElements.count != actualElements.count { return false }
            guard expectedElements.count <= actualElements.count else { return false }
            if ignoreArrayOrder { return matchesInAnyOrder(expectedElements, actualElements) }
            if ignoreExtraElements && expectedElements.count != actualElements.count {
                // In order, as a subsequence.
                var index = 0
                for element in actualElements where index < expectedElements.count {
                    if matches(expectedElements[index], element) { index += 1 }
                }
                return index == expectedElements.count
            }
            for (one, other) in zip(expectedElements, actualElements) where !matches(one, other) { return false }
            return true
        // An integer and a decimal are equal when they are the same number, exactly (a Double conversion made
        // 9007199254740993 equal to 9007199254740992.0).
        case (.int(let a), .double(let b)): return Int(exactly: b) == a
        case (.double(let a), .int(let b)): return Int(exactly: a) == b
        case (.string, _):
            guard let placeholder = JSONPlaceholder(expected) else {
                // Code point by code point, as Java compares: `é` is not `e` + U+0301 (Swift's == would say it is).
                guard case .string(let want) = expected.value, case .string(let got) = actual.value else { return false }
                return want.sameScalars(got)
            }
            switch (placeholder, actual.value) {
            case (.ignore, _), (.ignoreElement, _), (.anyString, .string), (.anyNumber, .int), (.anyNumber, .double), (.anyBoolean, .bool):
                return true
            case (.regex(let pattern), .string(let text)):
                remaining -= text.utf8.count
                return (try? RegexBox(pattern))?.matchesWhole(text) ?? false
            default: return false
            }
        default: return expected.value == actual.value
        }
    }
}
