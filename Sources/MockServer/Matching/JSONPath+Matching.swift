import AutomationSupport

/// `matchesJsonPath`: what a path finds, read by WireMock 2.35's rules, charged to the request's budget.
extension JSONPath {
    /// Whether `document` (nil: the body is not JSON) matches `matchesJsonPath` with this path and `matcher`, with
    /// WireMock's rules (2.35, held against it by WireMockDifferentialTests):
    /// - without a matcher, a definite path must find a value that is not null, not an empty array or object,
    ///   and not an empty array (an array of nulls is found); an indefinite one must find anything;
    /// - `absent` holds when nothing, null or an empty array is found (or the body is not JSON);
    /// - `equalToJson` sees what was found written as JSON, whole: one value, or a deep scan's or filter's list;
    /// - other matchers see each value found as text: strings as they are, numbers as Java prints them (`1.0`),
    ///   objects and arrays as JSON; an array a definite path finds counts element by element when its elements
    ///   are plain values; one text that matches is enough.
    func matches(_ document: JSONNode?, _ matcher: ValueMatcher?) -> Bool {
        var budget = MatchBudget.perRequest
        return matches(document, matcher, sourceBytes: Int.max, budget: &budget)
    }

    /// Its evaluation counts at most ``matchBudget`` units; the request's `budget` is charged those, or, for a document
    /// of more than ``MatchBudget/untimedBytes`` bytes (`sourceBytes`), the CPU the evaluation and its sub-matcher used
    /// when that is more (``MatchBudget/chargingCPU(_:timed:_:)``). A smaller document is charged its units only: reading the
    /// thread's CPU clock is two system calls (~1.3 µs each on a loaded VM), more than such a path costs. When the
    /// request's budget is what runs out, `budget` ends below zero (the request stops), else the path alone was too
    /// costly: no match.
    func matches(_ document: JSONNode?, _ matcher: ValueMatcher?, sourceBytes: Int, budget: inout Int) -> Bool {
        MatchBudget.chargingCPU(&budget, timed: sourceBytes > MatchBudget.untimedBytes) { budget, floor in
            counted(document, matcher, budget: &budget, floor: &floor)
        }
    }

    /// The evaluation, `floor` (for a timed document) stopping the sub-matcher's reads once their CPU spends the budget.
    private func counted(_ document: JSONNode?, _ matcher: ValueMatcher?, budget: inout Int, floor: inout MatchBudget.CPUFloor) -> Bool {
        let allowed = min(max(budget, 0), Self.matchBudget)
        var left = allowed
        let evaluated = document.map { evaluate($0, budget: &left) } ?? []
        budget -= allowed - max(left, 0)
        if evaluated == nil && allowed < Self.matchBudget { budget = min(budget, -1) }
        guard let found = evaluated else { return false } // over budget: not seen, so not a match (nor absent)
        if case .absent(let absent)? = matcher {
            let nothing = isDefinite ? found.first.map { $0.value == .null || $0.elements?.isEmpty == true } ?? true : found.isEmpty
            return absent == nothing
        }
        guard let matcher else {
            guard isDefinite else { return !found.isEmpty }
            guard let value = found.first else { return false }
            switch value.value {
            case .null: return false
            case .array(let elements): return !elements.isEmpty // `[null]` too, as WireMock 2.35
            case .object(let members): return !members.isEmpty
            default: return true
            }
        }
        if case .equalToJSON = matcher {
            // WireMock writes what the path found as JSON, whole (a deep scan's list too; nothing found is null), and
            // compares that: a string that holds JSON is a string, not the value it spells.
            guard document != nil else { return false }
            let written = JSONWriter.write(isDefinite ? found.first ?? JSONNode(.null) : JSONNode(.array(found)))
            budget -= MatchBudget.printing(written.utf8.count)
            return matcher.wireMockResult(written, budget: &budget).matched
        }
        var candidates = found
        if isDefinite, let value = found.first, let elements = value.elements,
            elements.allSatisfy({ if case .array = $0.value { false } else if case .object = $0.value { false } else { true } })
        {
            candidates = elements
        }
        // WireMock keeps the value nearest the matcher (the least distance; see ValueMatcher.bestMatch).
        return ValueMatcher.bestMatch(candidates) { node in
            // Once the request's budget is spent, by units or by CPU, the rest are not read (the request stops; the
            // answer is no match).
            floor.check(&budget)
            guard budget >= 0 else { return (matched: false, distance: .infinity) }
            return switch node.value {
            case .null: (matched: false, distance: 1)
            case .string(let text): matcher.wireMockResult(text, budget: &budget)
            case .double(let number): matcher.wireMockResult(Self.javaText(number), budget: &budget)
            default: Self.printedResult(node, matcher, budget: &budget)
            }
        }
    }

    /// An object or array found, printed as JSON for `matcher`, the printing charged: `$..a` over nested objects prints
    /// most of the document for each value it finds.
    private static func printedResult(_ node: JSONNode, _ matcher: ValueMatcher, budget: inout Int) -> (matched: Bool, distance: Double) {
        let written = JSONWriter.write(node)
        budget -= MatchBudget.printing(written.utf8.count)
        return matcher.wireMockResult(written, budget: &budget)
    }
}
