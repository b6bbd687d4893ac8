package import AutomationSupport

/// Finds a text in a stream as it arrives (memmem over the new bytes and the needle's length less one before
/// them, so a match that spans two chunks is found; nothing else is kept).
package struct TextMatcher: OutputMatcher {
    private let needle: [UInt8]
    private var carry: [UInt8] = []

    package init(_ text: String) { needle = Array(text.utf8) }

    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
        if needle.isEmpty { return true }
        let window = carry + bytes
        if ByteSearch.firstRange(of: needle, in: window) != nil { return true }
        carry = Array(window.suffix(needle.count - 1))
        return false
    }

    package mutating func end() -> Bool { needle.isEmpty }
}

/// Tests each line of a stream against a regular expression as it arrives: lines split on LF, a CR before
/// it dropped (as `outputLines()` splits); the last line counts at the end even without LF. A line longer than
/// ``maxLine`` is not tested (no match on a cut line): ``longLines`` counts them for the failure message.
package struct LineMatcher: OutputMatcher {
    static let maxLine = 1 << 20
    private let regex: RegexBox
    private var line: [UInt8] = []
    private var overlong = false
    private(set) var longLines = 0
    /// The line that matched (without its line ending), once one did.
    package private(set) var matchedLine: String?

    package init(_ regex: RegexBox) { self.regex = regex }

    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while let newline = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: start) {
                append(UnsafeBufferPointer(rebasing: buffer[start..<newline]))
                if finishLine() { return true }
                start = newline + 1
            }
            append(UnsafeBufferPointer(rebasing: buffer[start...]))
            return false
        }
    }

    package mutating func end() -> Bool { (line.isEmpty && !overlong) ? false : finishLine() }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !overlong else { return }
        if line.count + bytes.count > Self.maxLine { overlong = true; line = [] } else { line += bytes }
    }

    private mutating func finishLine() -> Bool {
        defer { line.removeAll(keepingCapacity: true); overlong = false }
        if overlong { longLines += 1; return false }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        let text = String(decoding: line, as: UTF8.self)
        guard regex.matchesPart(text) else { return false }
        matchedLine = text
        return true
    }

    /// For a failure message: lines that were too long to test, if any.
    package var note: String {
        longLines == 0 ? "" : " (\(longLines) line\(longLines == 1 ? " was" : "s were") longer than \(ByteSize.text(Self.maxLine)) and not tested)"
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
