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
package struct LineMatcher: OutputMatcher {
    static let maxLine = 1 << 20
    private let regex: RegexBox
    private let literal: [UInt8]
    /// The line begun in earlier chunks.
    private var line: [UInt8] = []
    private var overlong = false
    private(set) var longLines = 0
    /// The line that matched (without its line ending), once one did.
    package private(set) var matchedLine: String?

    package init(_ regex: RegexBox) {
        self.regex = regex
        literal = regex.requiredLiteral
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
        guard regex.matchesPart(utf8: bytes) else { return false }
        matchedLine = String(decoding: bytes, as: UTF8.self)
        return true
    }

    /// For a failure message: lines that were too long to test, if any.
    package var note: String {
        longLines == 0
            ? "" : " (\(longLines) line\(longLines == 1 ? " was" : "s were") longer than \(ByteSize.text(Self.maxLine)) and not tested)"
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
