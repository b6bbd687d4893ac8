import AutomationSupport

extension JSONComparison {
    /// Whether every expected element can have an actual element of its own that it matches (json-unit's
    /// `ignoreArrayOrder`; `expected` is not longer than `actual`).
    mutating func matchesInAnyOrder(_ expected: [JSONNode], _ actual: [JSONNode]) -> Bool {
        if actual.count <= Self.smallArray { return matchesSmallInAnyOrder(expected, actual) }
        // 1. Equal elements pair by their canonical key: an element equal to an actual one in every respect can take
        // it, as any other expected element that matches it matches what this one matches.
        var byKey: [String: [Int]] = [:]
        for (index, element) in actual.enumerated().reversed() {
            guard let key = canonicalKey(element, placeholders: false) else { return false }
            byKey[key, default: []].append(index)
        }
        var owner = [Int?](repeating: nil, count: actual.count)
        var rest: [Int] = []
        for (index, element) in expected.enumerated() {
            if let key = canonicalKey(element, placeholders: true), let taken = byKey[key]?.popLast() {
                owner[taken] = index
            } else {
                rest.append(index)
            }
            guard remaining >= 0 else { return false }
        }
        guard !rest.isEmpty else { return true }
        // 2. The rest: first fit, then an augmenting path for each one left (Kuhn), with each pair compared once.
        let free = actual.indices.filter { owner[$0] == nil }
        var pairing = Pairing(expected: expected, actual: actual, columns: free, owner: owner)
        var unpaired: [Int] = []
        for row in rest {
            remaining -= free.count / 8 // the scan for a free column
            guard let column = free.first(where: { pairing.owner[$0] == nil && pairing.fits(row, $0, &self) }) else {
                unpaired.append(row)
                continue
            }
            pairing.owner[column] = row
        }
        for row in unpaired {
            var visited = Set<Int>()
            guard pairing.augment(row, &visited, &self, depth: 0), remaining >= 0 else { return false }
        }
        return remaining >= 0
    }

    /// Arrays up to this many actual elements pair by comparing elements directly: a canonical key per element (texts
    /// built, sorted, hashed) cost more than the few comparisons (callgrind: `[1, 2]` against `[2, 1]` was a third of
    /// a request's matching).
    static let smallArray = 16

    /// Units a value's canonical key costs besides its text (a String built per value, the keys of a container
    /// sorted and joined; numbers read as decimals): ~0.5 µs, where a unit of matching is ~40 ns (``MatchBudget``).
    /// At 1 a value, 50 `ignoreArrayOrder` mappings against a 5.8 MB body cost a minute of CPU.
    static let keyCost = 12

    /// ``matchesInAnyOrder(_:_:)`` for a small array: Kuhn's augmenting paths over the pairs, each pair compared at
    /// most once, the state on the stack (no dictionary, no key text).
    private mutating func matchesSmallInAnyOrder(_ expected: [JSONNode], _ actual: [JSONNode]) -> Bool {
        let columns = actual.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: expected.count * columns + columns) { memory in
            // Per pair: 0 not compared yet, 1 fits, -1 does not; then each column's row, -1 while it is free.
            let known = UnsafeMutableBufferPointer(rebasing: memory[..<(expected.count * columns)])
            let owner = UnsafeMutableBufferPointer(rebasing: memory[(expected.count * columns)...])
            known.initialize(repeating: 0)
            owner.initialize(repeating: -1)
            for row in expected.indices {
                var visited: UInt32 = 0
                guard Self.augment(row, expected, actual, known, owner, &visited, &self), remaining >= 0 else { return false }
            }
            return remaining >= 0
        }
    }

    private static func augment(
        _ row: Int, _ expected: [JSONNode], _ actual: [JSONNode], _ known: UnsafeMutableBufferPointer<Int>,
        _ owner: UnsafeMutableBufferPointer<Int>, _ visited: inout UInt32, _ comparison: inout JSONComparison
    ) -> Bool {
        for column in actual.indices where visited & (1 << column) == 0 {
            comparison.remaining -= 1
            guard comparison.remaining >= 0 else { return false }
            let slot = row * actual.count + column
            if known[slot] == 0 { known[slot] = comparison.matches(expected[row], actual[column]) ? 1 : -1 }
            guard known[slot] == 1 else { continue }
            visited |= 1 << column
            if owner[column] < 0 || augment(owner[column], expected, actual, known, owner, &visited, &comparison) {
                owner[column] = row
                return true
            }
        }
        return false
    }

    /// A text that two values share exactly when they are equal with array order ignored (members sorted by name,
    /// array elements by key, numbers by decimal value, so `1` and `1.0` share one); nil when `placeholders` and the
    /// value holds a json-unit placeholder (it is compared, never paired by key), or when the budget is spent.
    mutating func canonicalKey(_ node: JSONNode, placeholders: Bool) -> String? {
        remaining -= Self.keyCost
        guard remaining >= 0 else { return nil }
        switch node.value {
        case .null: return "n"
        case .bool(let flag): return flag ? "t" : "f"
        case .int(let number): return Self.numberKey(String(number))
        case .double(let number): return Self.numberKey(number.description)
        case .string(let text):
            if placeholders, JSONPlaceholder(node) != nil { return nil }
            remaining -= text.utf8.count / 8
            return "s\(text.utf8.count):\(text)"
        case .array(let elements):
            var keys: [String] = []
            for element in elements {
                guard let key = canonicalKey(element, placeholders: placeholders) else { return nil }
                keys.append(key)
            }
            return "[" + keys.sorted().joined(separator: ",") + "]"
        case .object(let members):
            var keys: [String] = []
            for member in members {
                remaining -= member.key.utf8.count / 8
                guard let key = canonicalKey(member.value, placeholders: placeholders) else { return nil }
                keys.append("s\(member.key.utf8.count):\(member.key)=\(key)")
            }
            return "{" + keys.sorted().joined(separator: ",") + "}"
        }
    }

    private static func numberKey(_ text: String) -> String {
        guard let decimal = JSONParser.decimal(text) else { return "#" + text }
        return "#\(decimal.negative ? "-" : "")\(String(decoding: decimal.digits, as: UTF8.self))e\(decimal.exponent)"
    }
}

/// The bipartite pairing of expected elements (rows) with actual ones (columns), each pair compared at most once.
private struct Pairing {
    let expected: [JSONNode]
    let actual: [JSONNode]
    let columns: [Int]
    var owner: [Int?]
    var known: [Int: Bool] = [:]
    static let maxDepth = 500

    mutating func fits(_ row: Int, _ column: Int, _ comparison: inout JSONComparison) -> Bool {
        let slot = row &* actual.count &+ column
        if let result = known[slot] { return result }
        comparison.remaining -= 4 // the pair's entry in `known` (a dictionary: hashed, stored)
        let result = comparison.matches(expected[row], actual[column])
        known[slot] = result
        return result
    }

    /// Finds `row` a column, moving earlier rows to others where needed (an augmenting path).
    mutating func augment(_ row: Int, _ visited: inout Set<Int>, _ comparison: inout JSONComparison, depth: Int) -> Bool {
        // A path longer than this is work the budget would not cover anyway (and a thread's stack is small).
        guard depth < Self.maxDepth else {
            comparison.remaining = -1
            return false
        }
        for column in columns where !visited.contains(column) {
            comparison.remaining -= 1
            guard comparison.remaining >= 0 else { return false }
            guard fits(row, column, &comparison) else { continue }
            visited.insert(column)
            if let other = owner[column] {
                guard augment(other, &visited, &comparison, depth: depth + 1) else { continue }
            }
            owner[column] = row
            return true
        }
        return false
    }
}
