package import AutomationSupport
import ProcessEngine

/// Finds a text in a stream as it arrives: memmem over each chunk where it lies, and over the needle's length
/// less one bytes either side of the seam between chunks, so a match that spans two is found; nothing else is
/// kept or copied.
package struct TextMatcher: OutputMatcher {
    private let needle: [UInt8]
    /// The last `needle.count - 1` bytes seen (fewer at the start).
    private var carry: [UInt8] = []

    package init(_ text: String) { needle = Array(text.utf8) }

    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
        if needle.isEmpty { return true }
        let keep = needle.count - 1
        // Across the seam: the carry and the chunk's first bytes (a few bytes, whatever the chunk's size).
        if !carry.isEmpty {
            let seam = carry + bytes.prefix(keep)
            if seam.withUnsafeBufferPointer({ ByteSearch.firstRange(of: needle, in: $0) }) != nil { return true }
        }
        if bytes.withUnsafeBufferPointer({ ByteSearch.firstRange(of: needle, in: $0) }) != nil { return true }
        carry = bytes.count >= keep ? Array(bytes.suffix(keep)) : Array((carry + bytes).suffix(keep))
        return false
    }

    package mutating func end() -> Bool { needle.isEmpty }
}

/// Tests each line of a stream against a regular expression as it arrives: lines split on LF, a CR before
/// it dropped (as `outputLines()` splits); the last line counts at the end even without LF. A line longer than
/// ``maxLine`` is not tested (no match on a cut line): ``longLines`` counts them for the failure message.
/// Lines are tested where they lie in each chunk (only a line that spans chunks is copied), and when the
/// pattern has a required literal (``RegexBox/requiredLiteral``) memmem finds the lines that hold it: the
/// others cannot match and are never decoded.
/// Each line has the pattern's step budget; all of them together have `deadline` (the step's): matching stops there
/// (``stoppedAtDeadline``, and the matcher answers at once so the watch ends), whatever the lines left.
package struct LineMatcher: OutputMatcher {
    static let maxLine = 1 << 20
    private let regex: RegexBox
    private let literal: [UInt8]
    private let deadline: ContinuousClock.Instant?
    /// The line begun in earlier chunks.
    private var line: [UInt8] = []
    private var overlong = false
    private(set) var longLines = 0
    /// Lines on which the pattern spent its step budget: neither a match nor a mismatch.
    private(set) var undecidedLines = 0
    /// Lines given to the pattern so far.
    private var tested = 0
    /// Set when `deadline` passed while lines were being tested: no answer (the step fails naming its deadline).
    package private(set) var stoppedAtDeadline = false
    /// The line that matched (without its line ending), once one did.
    package private(set) var matchedLine: String?

    /// - Parameter deadline: when the matching of every line together stops (nil: never).
    package init(_ regex: RegexBox, deadline: ContinuousClock.Instant? = nil) {
        self.regex = regex
        literal = regex.requiredLiteral
        self.deadline = deadline
    }

    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let newline = UInt8(ascii: "\n")
            guard let first = ByteSearch.firstIndex(of: newline, in: buffer, from: 0),
                let last = ByteSearch.lastIndex(of: newline, in: buffer, before: buffer.count)
            else {
                append(buffer)
                return false
            }
            // The line begun before this chunk ends at its first LF.
            append(UnsafeBufferPointer(rebasing: buffer[..<first]))
            if finishLine() { return true }
            // The whole lines between the first and the last LF, in place.
            if first < last, testLines(UnsafeBufferPointer(rebasing: buffer[(first + 1)...last])) { return true }
            append(UnsafeBufferPointer(rebasing: buffer[(last + 1)...]))
            return false
        }
    }

    package mutating func end() -> Bool { (line.isEmpty && !overlong) ? false : finishLine() }

    /// `lines` ends with LF: each line in it, or only those holding the required literal.
    private mutating func testLines(_ lines: UnsafeBufferPointer<UInt8>) -> Bool {
        let newline = UInt8(ascii: "\n")
        var start = 0
        while start < lines.count {
            if !literal.isEmpty {
                guard let at = ByteSearch.firstRange(of: literal, in: lines, from: start) else { return false }
                // The line holding it starts after the LF before it (lines before that cannot match).
                start = max(start, (ByteSearch.lastIndex(of: newline, in: lines, before: at)).map { $0 + 1 } ?? 0)
            }
            let end = ByteSearch.firstIndex(of: newline, in: lines, from: start) ?? lines.count
            if test(UnsafeBufferPointer(rebasing: lines[start..<end])) { return true }
            start = end + 1
        }
        return false
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !overlong else { return }
        if line.count + bytes.count > Self.maxLine {
            overlong = true
            line = []
        } else {
            line += bytes
        }
    }

    private mutating func finishLine() -> Bool {
        defer {
            line.removeAll(keepingCapacity: true)
            overlong = false
        }
        if overlong {
            longLines += 1
            return false
        }
        return line.withUnsafeBufferPointer { test($0) }
    }

    /// One line without its LF (a CR before it is dropped here).
    private mutating func test(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = bytes
        if bytes.count > Self.maxLine {
            longLines += 1
            return false
        }
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        if !literal.isEmpty, ByteSearch.firstRange(of: literal, in: bytes) == nil { return false }
        if stoppedAtDeadline { return true }
        tested &+= 1
        if let deadline, tested & 63 == 0, ContinuousClock.now >= deadline { // many short lines: the clock now and then
            stoppedAtDeadline = true
            return true
        }
        guard let answer = regex.matchesPart(utf8: bytes, deadline: deadline) else {
            if let deadline, ContinuousClock.now >= deadline {
                stoppedAtDeadline = true
                return true // no answer: the watch ends, and the step says the deadline stopped the matching
            }
            undecidedLines += 1
            return false
        }
        guard answer else { return false }
        matchedLine = String(decoding: bytes, as: UTF8.self)
        return true
    }

    /// For a failure message: lines that were too long to test, or that the pattern could not decide, if any.
    package var note: String {
        var notes: [String] = []
        if longLines > 0 {
            notes.append("\(longLines) line\(longLines == 1 ? " was" : "s were") longer than \(ByteSize.text(Self.maxLine)) and not tested")
        }
        if undecidedLines > 0 {
            notes.append(
                "on \(undecidedLines) line\(undecidedLines == 1 ? "" : "s") the pattern spent its budget of "
                    + "\(RegexBox.stepBudget) steps with neither a match nor a mismatch; make it simpler")
        }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }
}

/// A terminal fed a stream as it arrives; matches once the screen shows `text` (nil: never, to build the screen).
struct ScreenMatcher: OutputMatcher {
    var screen: TerminalScreen
    let text: String?

    mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
        screen.feed(bytes)
        return text.map { screen.text.contains($0) } ?? false
    }

    mutating func end() -> Bool { text.map { screen.text.contains($0) } ?? false }
}
