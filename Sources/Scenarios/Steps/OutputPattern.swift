import AutomationSupport

/// Expected output as trycmd writes it: a line may hold `[..]` (any text on that line), and a line that is
/// just `...` matches any number of lines; a `\` before such a line makes it literal (``escapedLiteral(_:)``). One trailing newline is ignored on both sides. Compared as bytes:
/// the expected text's UTF-8 against what was written (no Unicode normalization; invalid UTF-8 in the actual
/// bytes never equals U+FFFD in the expected text; a CR is a byte like any other, CRLF output does not equal LF).
package enum OutputPattern {
    typealias Line = ArraySlice<UInt8>

    /// nil when `actual` matches `expected`; otherwise a unified diff (expected `-`, actual `+`).
    package static func mismatch(expected: String, actual: [UInt8]) -> String? {
        mismatch(expected: Array(expected.utf8), actual: actual)
    }

    package static func mismatch(expected: [UInt8], actual: [UInt8]) -> String? {
        let wanted = lines(expected)
        let got = lines(actual)
        if matches(wanted[...], got[...]) { return nil }
        return UnifiedDiff.render(expected: wanted, actual: got)
    }

    /// True when every line of `expected` is `...`: it matches any output (the empty one included), so a step
    /// comparing with it could never fail.
    package static func matchesAnything(_ expected: [UInt8]) -> Bool {
        let wanted = lines(expected)
        return !wanted.isEmpty && wanted.allSatisfy { $0.elementsEqual(ellipsis) }
    }

    static let matchesAnythingProblem =
        "the expected text is only `...` lines, which match any output, so this step could never fail; write the lines to "
        + "look for (`\\...` is a literal line of three dots)"

    static func lines(_ bytes: [UInt8]) -> [Line] {
        var text = bytes[...]
        if text.last == newline { text = text.dropLast() }
        if text.isEmpty { return [] }
        // A CR before LF stays in its line: CRLF output is not LF output (a Windows-ism regression must fail).
        return text.split(separator: newline, omittingEmptySubsequences: false)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let ellipsis = Array("...".utf8)[...], wildcard = Array("[..]".utf8)

    /// Line by line; `...` tries every number of lines (iteratively, no recursion on the input). Linear in the
    /// lines for a pattern without `...`: only the places the pattern so far can reach are tried.
    static func matches(_ pattern: ArraySlice<Line>, _ lines: ArraySlice<Line>) -> Bool {
        // reachable: ascending, the j for which the pattern so far can consume exactly the first j lines.
        var reachable = [0]
        for item in pattern {
            guard let first = reachable.first else { return false }
            if item.elementsEqual(ellipsis) {
                reachable = Array(first...lines.count)
            } else {
                reachable = reachable.compactMap { j in
                    j < lines.count && lineMatches(item, lines[lines.startIndex + j]) ? j + 1 : nil
                }
            }
        }
        return reachable.last == lines.count
    }

    /// A line with `[..]` wildcards against one actual line, byte for byte.
    static func lineMatches(_ pattern: Line, _ line: Line) -> Bool {
        if let literal = escapedLiteral(pattern) { return literal.elementsEqual(line) }
        guard let first = find(wildcard, in: pattern) else { return pattern.elementsEqual(line) }
        var pieces: [Line] = [pattern[..<first]]
        var rest = pattern[(first + wildcard.count)...]
        while let next = find(wildcard, in: rest) {
            pieces.append(rest[..<next])
            rest = rest[(next + wildcard.count)...]
        }
        pieces.append(rest)
        var remaining = line
        guard remaining.starts(with: pieces[0]) else { return false }
        remaining = remaining.dropFirst(pieces[0].count)
        for (offset, piece) in pieces.enumerated().dropFirst() {
            if offset == pieces.count - 1 { return remaining.count >= piece.count && remaining.suffix(piece.count).elementsEqual(piece) }
            guard let found = find(Array(piece), in: remaining) else { return false }
            remaining = remaining[(found + piece.count)...]
        }
        return true
    }

    private static let backslash = UInt8(ascii: "\\")

    /// An escaped line's literal text: a `\` that starts a line escapes it when what follows would otherwise be
    /// read as syntax (`\...` is the line `...`, `\a [..] b` the text `a [..] b`) or starts with another `\`
    /// (`\\x` is `\x`). Any other line, `\x` included, is as written.
    static func escapedLiteral(_ pattern: Line) -> Line? {
        guard pattern.first == backslash else { return nil }
        let rest = pattern.dropFirst()
        return rest.first == backslash || isSyntax(rest) ? rest : nil
    }

    /// Whether a line would be read as a pattern: `...`, or a line holding `[..]`.
    private static func isSyntax(_ line: Line) -> Bool {
        line.elementsEqual(ellipsis) || find(wildcard, in: line) != nil
    }

    /// `bytes` written so that it reads back as exactly that text (a snapshot `--update-snapshots` writes): each
    /// line that would be syntax, or that starts with an escape, gets a `\` before it.
    package static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for (index, line) in bytes.split(separator: newline, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output.append(newline) }
            if isSyntax(line) || escapedLiteral(line) != nil { output.append(backslash) }
            output += line
        }
        return output
    }

    /// Where `needle` first occurs in `haystack` (an index of `haystack`), or nil.
    private static func find(_ needle: [UInt8], in haystack: Line) -> Int? {
        if needle.isEmpty { return haystack.startIndex }
        return ByteSearch.firstRange(of: needle, in: Array(haystack)).map { haystack.startIndex + $0 }
    }
}

/// A unified diff of two line lists (longest common subsequence; large inputs fall back to the first
/// differing region so a diff never costs more than a few million steps). Lines are shown decoded as UTF-8.
enum UnifiedDiff {
    static func render(expected bytes: [OutputPattern.Line], actual actualBytes: [OutputPattern.Line], context: Int = 3) -> String {
        let expected = bytes.map(shown)
        let actual = actualBytes.map(shown)
        let same = { (i: Int, j: Int) in OutputPattern.lineMatches(bytes[i], actualBytes[j]) }
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
        if a.count * b.count <= 4_000_000 {
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    table[i][j] = matchesAt(i, j) ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, matchesAt(i, j) {
                    body.append(" " + b[j])
                    i += 1
                    j += 1
                } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
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
            bytes.split(separator: UInt8(ascii: "\r"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
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
