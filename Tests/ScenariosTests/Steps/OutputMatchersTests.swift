import AutomationSupport
import ProcessEngine
import Testing

@testable import Scenarios

/// The streaming matchers against the obvious reading of the whole text (split into lines, test each), fed in
/// every kind of chunking: a match across a seam, a line across chunks, CRLF, no final newline.
@Suite struct OutputMatchersTests {
    static func feed(_ matcher: inout some OutputMatcher, _ bytes: [UInt8], cuts: [Int]) -> Bool {
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            if matcher.feed(bytes[start..<cut]) { return true }
            start = cut
        }
        return matcher.end()
    }

    static func expectedLine(_ regex: RegexBox, _ text: String) -> Bool {
        // On bytes: to a String, CRLF is one Character and no "\n".
        var lines = Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() } // after a final LF, or no text: no line
        return lines.map { String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self) }.contains { regex.matchesPart($0) }
    }

    @Test func randomTextsAndChunkingsAgreeWithTheWholeText() throws {
        var generator = SystemRandomNumberGenerator()
        let patterns = ["^DONE$", "DO", "O\\w", "^$", "N?E\\r?$", "x+y", "(?i)done", "é", "[ab]c", "c|^x"]
        let pieces = ["DONE", "D", "ONE", "\n", "\r\n", "x", "y", "é", "ab", "c", "\r", " "]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            let cuts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            let source = patterns.randomElement(using: &generator)!
            let regex = try RegexBox(source)
            var lines = LineMatcher(regex)
            #expect(
                Self.feed(&lines, bytes, cuts: cuts) == Self.expectedLine(regex, text),
                "/\(source)/ in \(text.debugDescription) cut at \(cuts)")
            let needle = ["DONE", "E\nD", "x", "\r\n", "ONED", "é"].randomElement(using: &generator)!
            var matcher = TextMatcher(needle)
            #expect(
                Self.feed(&matcher, bytes, cuts: cuts) == (bytes.firstRange(of: Array(needle.utf8)) != nil),
                "\(needle.debugDescription) in \(text.debugDescription) cut at \(cuts)")
        }
    }

    @Test func theMatchedLineIsTheWholeLineWithoutItsEnding() throws {
        var matcher = LineMatcher(try RegexBox("ON"))
        #expect(Self.feed(&matcher, Array("a\r\nxDONEy\r\nz".utf8), cuts: [3, 6]))
        #expect(matcher.matchedLine == "xDONEy")
    }

    /// 180,000 lines that cannot match, in 1 MiB chunks as the recorder reads them: memmem skips them all.
    @Test func linesWithoutTheLiteralAreSkippedQuickly() throws {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 18_000_000)
        for end in stride(from: 99, to: bytes.count, by: 100) { bytes[end] = 10 }
        bytes += Array("FATAL\r\nDONE\r\n".utf8)
        let started = ContinuousClock.now
        var matcher = LineMatcher(try RegexBox("^DONE$"))
        #expect(Self.feed(&matcher, bytes, cuts: Array(stride(from: 0, to: bytes.count, by: 1 << 20))))
        #expect(ContinuousClock.now - started < .seconds(1), "took \(ContinuousClock.now - started)")
    }
}
