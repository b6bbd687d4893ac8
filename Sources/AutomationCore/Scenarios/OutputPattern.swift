/// Expected output as trycmd writes it: a line may hold `[..]` (any text on that line), and a line that is
/// just `...` matches any number of lines. One trailing newline is ignored on both sides.
package enum OutputPattern {
    /// nil when `actual` matches `expected`; otherwise a unified diff (expected `-`, actual `+`).
    package static func mismatch(expected: String, actual: String) -> String? {
        let wanted = lines(expected), got = lines(actual)
        if matches(wanted[...], got[...]) { return nil }
        return UnifiedDiff.render(expected: wanted, actual: got)
    }

    static func lines(_ text: String) -> [String] {
        var text = Substring(text)
        if text.hasSuffix("\n") { text = text.dropLast() }
        if text.isEmpty { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    }

    /// Line by line; `...` tries every number of lines (iteratively, no recursion on the input).
    static func matches(_ pattern: ArraySlice<String>, _ lines: ArraySlice<String>) -> Bool {
        // reachable[j]: the pattern so far can consume exactly the first j lines.
        var reachable = [Bool](repeating: false, count: lines.count + 1)
        reachable[0] = true
        for item in pattern {
            var next = [Bool](repeating: false, count: lines.count + 1)
            if item == "..." {
                var any = false
                for j in 0...lines.count {
                    any = any || reachable[j]
                    next[j] = any
                }
            } else {
                for j in 0..<lines.count where reachable[j] && lineMatches(item, lines[lines.startIndex + j]) { next[j + 1] = true }
            }
            reachable = next
        }
        return reachable[lines.count]
    }

    /// A line with `[..]` wildcards against one actual line.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        guard pattern.contains("[..]") else { return pattern == line }
        let pieces = pattern.split(separator: "[..]", omittingEmptySubsequences: false)
        var rest = Substring(line)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for (offset, piece) in pieces.enumerated().dropFirst() {
            if offset == pieces.count - 1 { return rest.hasSuffix(piece) }
            guard let range = rest.firstRange(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

/// A unified diff of two line lists (longest common subsequence; large inputs fall back to the first
/// differing region so a diff never costs more than a few million steps).
enum UnifiedDiff {
    static func render(expected: [String], actual: [String], context: Int = 3) -> String {
        var prefix = 0
        while prefix < expected.count, prefix < actual.count, OutputPattern.lineMatches(expected[prefix], actual[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < actual.count - prefix,
              OutputPattern.lineMatches(expected[expected.count - 1 - suffix], actual[actual.count - 1 - suffix]) { suffix += 1 }
        let a = Array(expected[prefix..<(expected.count - suffix)]), b = Array(actual[prefix..<(actual.count - suffix)])
        var body: [String] = []
        if a.count * b.count <= 4_000_000 {
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    table[i][j] = OutputPattern.lineMatches(a[i], b[j]) ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, OutputPattern.lineMatches(a[i], b[j]) {
                    body.append(" " + b[j]); i += 1; j += 1
                } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                    body.append("-" + a[i]); i += 1 // what was expected first, then what came, as diff -u does
                } else {
                    body.append("+" + b[j]); j += 1
                }
            }
        } else {
            body = a.prefix(20).map { "-" + $0 } + b.prefix(20).map { "+" + $0 } + ["(large output: the first 20 differing lines of each)"]
        }
        let before = expected[max(0, prefix - context)..<prefix].map { " " + $0 }
        let after = expected[(expected.count - suffix)..<min(expected.count, expected.count - suffix + context)].map { " " + $0 }
        let header = "--- expected\n+++ actual\n@@ -\(max(1, prefix - context + 1)),\(expected.count) +\(max(1, prefix - context + 1)),\(actual.count) @@"
        return ([header] + before + body + after).joined(separator: "\n")
    }
}
