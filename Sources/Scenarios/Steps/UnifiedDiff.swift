import AutomationSupport

/// A unified diff of two line lists (longest common subsequence; large inputs fall back to the first
/// differing region so a diff never costs more than a million comparisons). Lines are shown decoded as UTF-8.
enum UnifiedDiff {
    /// - Parameter patterns: `bytes` read as patterns (``OutputPattern/LinePattern``), once.
    static func render(
        expected bytes: [OutputPattern.Line], patterns: [OutputPattern.LinePattern], actual actualBytes: [OutputPattern.Line],
        context: Int = 3
    ) -> String {
        let expected = bytes.map(shown)
        let actual = actualBytes.map(shown)
        let same = { (i: Int, j: Int) in patterns[i].matches(actualBytes[j]) }
        var prefix = 0
        while prefix < expected.count, prefix < actual.count, same(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < actual.count - prefix,
            same(expected.count - 1 - suffix, actual.count - 1 - suffix)
        { suffix += 1 }
        let a = Array(expected[prefix..<(expected.count - suffix)])
        let b = Array(actual[prefix..<(actual.count - suffix)])
        let matchesAt = { (i: Int, j: Int) in same(prefix + i, prefix + j) }
        var body: [String] = []
        if a.count * b.count <= 1_000_000 {
            // One flat table of the common lengths (row i: a[i...] against b[j...]).
            let width = b.count + 1
            var cells = [Int32](repeating: 0, count: (a.count + 1) * width)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    cells[i * width + j] =
                        matchesAt(i, j) ? cells[(i + 1) * width + j + 1] + 1 : max(cells[(i + 1) * width + j], cells[i * width + j + 1])
                }
            }
            let table = { (i: Int, j: Int) in cells[i * width + j] }
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, matchesAt(i, j) {
                    body.append(" " + b[j])
                    i += 1
                    j += 1
                } else if i < a.count, j == b.count || table(i + 1, j) >= table(i, j + 1) {
                    body.append("-" + a[i])
                    i += 1 // what was expected first, then what came, as diff -u does
                } else {
                    body.append("+" + b[j])
                    j += 1
                }
            }
        } else {
            body = a.prefix(20).map { "-" + $0 } + b.prefix(20).map { "+" + $0 } + ["(large output: the first 20 differing lines of each)"]
        }
        // Lines that look the same and differ in bytes (another Unicode normalization, invalid UTF-8) say so.
        let removed = Set(body.filter { $0.hasPrefix("-") }.map { $0.dropFirst() })
        if body.contains(where: { $0.hasPrefix("+") && removed.contains($0.dropFirst()) }) {
            body.append(
                "(lines that look alike differ in their bytes: compared byte for byte, no Unicode normalization; invalid UTF-8 shows as \u{FFFD})"
            )
        }
        let before = expected[max(0, prefix - context)..<prefix].map { " " + $0 }
        let after = expected[(expected.count - suffix)..<min(expected.count, expected.count - suffix + context)].map { " " + $0 }
        let header =
            "--- expected\n+++ actual\n@@ -\(max(1, prefix - context + 1)),\(expected.count) +\(max(1, prefix - context + 1)),\(actual.count) @@"
        return capped(([header] + before + body + after).joined(separator: "\n"))
    }

    /// The most bytes of one line a diff shows, and of a whole diff: a failure message stays readable and every
    /// report can hold it (the rest is counted, never dropped silently).
    static let lineLimit = 4096, diffLimit = 256 << 10

    /// A line as the diff shows it: decoded as UTF-8, cut at ``lineLimit`` bytes with how many more it has.
    /// A CR is shown as `\r`: CRLF and LF lines would otherwise look the same in the diff.
    static func shown(_ line: OutputPattern.Line) -> String {
        func text(_ bytes: ArraySlice<UInt8>) -> String {
            guard bytes.contains(UInt8(ascii: "\r")) else { return String(decoding: bytes, as: UTF8.self) }
            return bytes.split(separator: UInt8(ascii: "\r"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                .joined(separator: "\\r")
        }
        guard line.count > lineLimit else { return text(line[...]) }
        return text(line.prefix(lineLimit)) + "… \(line.count - lineLimit) more bytes on this line"
    }

    /// The diff cut at ``diffLimit`` bytes (at a line's end when one is near), with how many more it has.
    static func capped(_ diff: String) -> String {
        let bytes = Array(diff.utf8)
        guard bytes.count > diffLimit else { return diff }
        var end = diffLimit
        while end > diffLimit / 2, bytes[end - 1] != UInt8(ascii: "\n") { end -= 1 }
        if end == diffLimit / 2 { end = diffLimit }
        return String(decoding: bytes[..<end], as: UTF8.self) + "… \(bytes.count - end) more bytes of diff"
    }
}
