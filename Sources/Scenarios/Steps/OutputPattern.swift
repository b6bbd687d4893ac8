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
        let patterns = wanted.map(LinePattern.init)
        switch matches(patterns, got[...]) {
        case .some(true): return nil
        case .some(false): return UnifiedDiff.render(expected: wanted, patterns: patterns, actual: got)
        case nil:
            return "the comparison stopped: the expected text's `...` lines against \(got.count) lines of output take more than "
                + "\(comparisonLimit) line comparisons; write fewer `...` lines or compare a part of the output"
        }
    }

    /// Whether `actual` matches `expected`, without the diff ``mismatch(expected:actual:)`` renders when it does not (a
    /// comparison that stopped at its limit is no match).
    package static func agrees(expected: [UInt8], actual: [UInt8]) -> Bool {
        matches(lines(expected).map(LinePattern.init), lines(actual)[...]) == true
    }

    /// The most line comparisons one ``matches(_:_:)`` makes: its `...` lines try every place, which a hostile output
    /// could make quadratic (tens of millions of comparisons take well under a second).
    static let comparisonLimit = 20_000_000

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
        // Split at each LF found by memchr (the generic split walked 16 MiB byte by byte through a closure).
        var result: [Line] = []
        text.withUnsafeBufferPointer { raw in
            var start = 0
            while let end = ByteSearch.firstIndex(of: newline, in: raw, from: start) {
                result.append(text[(text.startIndex + start)..<(text.startIndex + end)])
                start = end + 1
            }
            result.append(text[(text.startIndex + start)...])
        }
        return result
    }

    private static let newline = UInt8(ascii: "\n")
    fileprivate static let ellipsis = Array("...".utf8)[...], wildcard = Array("[..]".utf8)

    /// Line by line, `...` matching any number of lines: each run of lines between `...` is placed at its first
    /// place after the run before it (as a glob's `*` is matched: the first place never loses a match a later place
    /// would find), the first run at the start and the last at the end unless a `...` stands there. Nil: the
    /// comparisons passed ``comparisonLimit`` (no answer, never a guess).
    static func matches(_ pattern: [LinePattern], _ lines: ArraySlice<Line>) -> Bool? {
        let runs = pattern.split(omittingEmptySubsequences: false, whereSeparator: \.isEllipsis)
        let base = lines.startIndex
        func placed(_ run: ArraySlice<LinePattern>, at start: Int) -> Bool {
            zip(run, lines[(base + start)...]).allSatisfy { $0.matches($1) }
        }
        guard runs.count > 1 else { return pattern.count == lines.count && placed(pattern[...], at: 0) }
        let first = runs.first!
        let last = runs.last!
        guard first.count + last.count <= lines.count, placed(first, at: 0), placed(last, at: lines.count - last.count) else {
            return false
        }
        var position = first.count
        let end = lines.count - last.count
        var comparisons = 0
        for run in runs.dropFirst().dropLast() where !run.isEmpty {
            var found = false
            while position + run.count <= end {
                comparisons += run.count
                if comparisons > comparisonLimit { return nil }
                if placed(run, at: position) {
                    found = true
                    break
                }
                position += 1
            }
            guard found else { return false }
            position += run.count
        }
        return true
    }

    /// One expected line, read once: its bytes, or the pieces between its `[..]` wildcards (a `\`-escaped line is
    /// its literal text), compared with lines without a copy.
    struct LinePattern {
        /// One piece: the line's bytes; more: the text around each `[..]`, in order.
        let pieces: [Line]
        /// The line is `...`: any number of lines.
        let isEllipsis: Bool

        init(_ pattern: Line) {
            if let literal = escapedLiteral(pattern) {
                pieces = [literal]
                isEllipsis = false
                return
            }
            isEllipsis = pattern.elementsEqual(ellipsis)
            var pieces: [Line] = []
            var rest = pattern
            while let next = find(wildcard[...], in: rest) {
                pieces.append(rest[..<next])
                rest = rest[(next + wildcard.count)...]
            }
            pieces.append(rest)
            self.pieces = pieces
        }

        func matches(_ line: Line) -> Bool {
            guard pieces.count > 1 else { return same(pieces[0], line) }
            guard line.count >= pieces.reduce(0, { $0 + $1.count }), same(pieces[0], line.prefix(pieces[0].count)) else { return false }
            var remaining = line.dropFirst(pieces[0].count)
            for piece in pieces.dropFirst().dropLast() {
                guard let found = find(piece, in: remaining) else { return false }
                remaining = remaining[(found + piece.count)...]
            }
            let last = pieces.last!
            return remaining.count >= last.count && same(last, remaining.suffix(last.count))
        }

        private func same(_ a: Line, _ b: Line) -> Bool {
            a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in ByteSearch.equal(x, y) } }
        }
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
        line.elementsEqual(ellipsis) || find(wildcard[...], in: line) != nil
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

    /// Where `needle` first occurs in `haystack` (an index of `haystack`), or nil: no copy of either.
    fileprivate static func find(_ needle: Line, in haystack: Line) -> Int? {
        if needle.isEmpty { return haystack.startIndex }
        guard needle.count <= haystack.count else { return nil }
        return needle.withUnsafeBufferPointer { n in
            haystack.withUnsafeBufferPointer { h in ByteSearch.firstRange(of: n, in: h).map { haystack.startIndex + $0 } }
        }
    }
}
