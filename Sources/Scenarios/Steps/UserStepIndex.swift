/// User steps indexed by the literal text each pattern begins with (``CucumberExpression/head``: the words before the
/// first parameter, optional text or alternation). A step text can only match a pattern whose head is a prefix of
/// it, so a step tries those patterns alone, in the order the step files gave them, and the load's clash check
/// compares a pattern only with those whose head is a prefix of its own or has its own as prefix. A file of 3,000
/// patterns tried every pattern for every step, and every pair of patterns at load (19 s in a debug build).
///
/// Heads are compared as UTF-8 bytes, as the patterns match code points (no Unicode normalization).
package struct UserStepIndex: Sendable {
    package private(set) var steps: [UserStep] = []
    /// A trie over the heads' bytes: each node's children, and the steps whose head ends there.
    private var children: [[UInt8: Int]] = [[:]]
    private var ending: [[Int]] = [[]]

    package init(_ steps: [UserStep] = []) {
        for step in steps { append(step) }
    }

    package var isEmpty: Bool { steps.isEmpty }

    /// Adds `step` after the ones already indexed.
    package mutating func append(_ step: UserStep) {
        var node = 0
        for byte in step.expression.head.utf8 {
            if let next = children[node][byte] {
                node = next
            } else {
                children.append([:])
                ending.append([])
                children[node][byte] = children.count - 1
                node = children.count - 1
            }
        }
        ending[node].append(steps.count)
        steps.append(step)
    }

    /// The steps that may match `text` (their head is a prefix of it), in the order they were added.
    package func candidates(for text: String) -> [UserStep] {
        var node = 0
        var found = ending[0]
        for byte in text.utf8 {
            guard let next = children[node][byte] else { break }
            node = next
            found += ending[node]
        }
        return found.sorted().map { steps[$0] }
    }

    /// The first step (in the files' order) that matches `text`, with the values it captured.
    package func first(matching text: String) -> (step: UserStep, values: [String])? {
        for step in candidates(for: text) {
            if let values = step.match(text) { return (step, values) }
        }
        return nil
    }

    /// Whether a step matches `text`, or could not tell within its budget (``UserStep/mayMatch(_:)``).
    package func mayMatch(_ text: String) -> Bool {
        candidates(for: text).contains { $0.mayMatch(text) }
    }

    /// The steps that may clash with a pattern of head `head`: those whose head is a prefix of it, and those whose
    /// head starts with it (either may match the other's sample), in the order they were added.
    package func related(toHead head: String) -> [UserStep] {
        var node = 0
        var found = ending[0]
        var reached = true
        for byte in head.utf8 {
            guard let next = children[node][byte] else {
                reached = false
                break
            }
            node = next
            found += ending[node]
        }
        if reached {
            var stack = Array(children[node].values)
            while let next = stack.popLast() {
                found += ending[next]
                stack += children[next].values
            }
        }
        return found.sorted().map { steps[$0] }
    }
}
