import Testing

@testable import Scenarios

/// Whole-output comparisons (`Then the output is:`, snapshots, files) cost about output lines × expected lines and
/// ignored every deadline (R10B-12: 20,000 lines against a 200-line snapshot took 85 s): each expected line is read
/// once, `...` runs are placed as a glob's `*` is, and the work has a limit that answers "stopped", never a pass.
@Suite struct OutputPatternMatchingTests {
    /// The reference: every place each `...` can reach, as the matcher did before (quadratic, plainly right).
    static func reference(_ pattern: [String], _ lines: [String]) -> Bool {
        var reachable = [0]
        for item in pattern {
            guard let first = reachable.first else { return false }
            if item == "..." {
                reachable = Array(first...lines.count)
            } else {
                reachable = reachable.compactMap { j in
                    j < lines.count && OutputPattern.LinePattern(Array(item.utf8)[...]).matches(Array(lines[j].utf8)[...]) ? j + 1 : nil
                }
            }
        }
        return reachable.last == lines.count
    }

    @Test func randomPatternsMatchAsEveryPlaceWouldBeTried() {
        var generator = SystemRandomNumberGenerator()
        let words = ["a", "b", "ab", "...", "a[..]", "[..]b", "[..]", "\\..."]
        let texts = ["a", "b", "ab", "...", "aab", "ba"]
        for _ in 0..<3000 {
            let pattern = (0..<Int.random(in: 0...6, using: &generator)).map { _ in words.randomElement(using: &generator)! }
            let lines = (0..<Int.random(in: 0...8, using: &generator)).map { _ in texts.randomElement(using: &generator)! }
            let patterns = pattern.map { OutputPattern.LinePattern(Array($0.utf8)[...]) }
            let got = OutputPattern.matches(patterns, lines.map { Array($0.utf8)[...] }[...])
            #expect(got == Self.reference(pattern, lines), "\(pattern) against \(lines)")
        }
    }

    @Test func aHostileOutputStopsTheComparisonWithoutAPass() {
        // 21 expected lines between two `...`, tried at each of a million output lines: over the limit.
        let expected = "...\n" + String(repeating: "b\n", count: 21) + "...\nc\n"
        let actual = String(repeating: "a\n", count: 1_000_000) + "c\n"
        let answer = OutputPattern.mismatch(expected: expected, actual: Array(actual.utf8))
        #expect(
            answer?.hasPrefix("the comparison stopped: the expected text's `...` lines against 1000001 lines") == true,
            "\(answer ?? "a pass")")
        // Within the limit, the same shape answers (here: a match).
        let matching = String(repeating: "a\n", count: 1000) + String(repeating: "b\n", count: 21) + "c\n"
        #expect(OutputPattern.mismatch(expected: expected, actual: Array(matching.utf8)) == nil)
    }

    @Test func aLongOutputAgainstManyExpectedLinesGetsItsDiff() {
        // The attacker's shape: 20,000 output lines against 200 expected ones: a diff, the differing lines in it.
        let expected = String(repeating: "b\n", count: 200)
        let actual = String(repeating: "a\n", count: 20_000)
        let diff = OutputPattern.mismatch(expected: expected, actual: Array(actual.utf8))
        #expect(diff?.hasPrefix("--- expected\n+++ actual\n@@ -1,200 +1,20000 @@\n-b") == true, "\(diff?.prefix(200) ?? "a pass")")
    }
}
