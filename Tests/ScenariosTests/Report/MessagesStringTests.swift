import AutomationSupport
import Testing

@testable import Scenarios

/// The reader's string scan, eight bytes at a time (``MessagesString``), finds what a scan of one byte at a time finds
/// and decodes what ``JSONParser`` decodes, whatever the offset of a hostile byte in its word: an escape, a quote, a
/// control byte, UTF-8 of two to four bytes, invalid UTF-8, across a word's boundary and at the buffer's end.
@Suite struct MessagesStringTests {
    /// The pieces a string's content is tried with: each is put at every offset mod 8 (and mod 16).
    static let pieces: [[UInt8]] = [
        Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\n\t\b\f\r"#.utf8), Array(#"\u00e9"#.utf8),
        Array(#"\ud83d\ude00"#.utf8), Array(#"\ud800"#.utf8), Array(#"\udc00x"#.utf8), Array(#"\ud800\u0041"#.utf8),
        Array(#"\uDBFF\uDFFF"#.utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0xFF], [0xC3], [0xE2, 0x82],
        [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80], [0x7F], [0x01], [0x1F], [0x00], [0x0A], [0x0D], [0x09],
        Array(#"\q"#.utf8), Array(#"\u12"#.utf8), Array(#"\u12g4"#.utf8), Array(#"\"#.utf8), Array("\"".utf8),
        Array("\\\\\\\"".utf8), Array("\"\"".utf8), Array(#"\u0022"#.utf8), Array(#"\u005c"#.utf8),
    ]

    /// What the scan of one byte at a time (the reader's before the word scan) says of the string content that
    /// starts at `start`: where its closing quote is, whether it has an escape and a byte of 0x80 or above; nil when
    /// it is not a valid JSON string before `end`.
    static func byteScan(_ bytes: [UInt8], from start: Int, end: Int) -> (closing: Int, escaped: Bool, high: Bool)? {
        var index = start
        var escaped = false
        var high = false
        let hex = Set(Array("0123456789abcdefABCDEF".utf8))
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (index, escaped, high) }
            guard byte >= 0x20 else { return nil }
            high = high || byte >= 0x80
            index += 1
            guard byte == UInt8(ascii: "\\") else { continue }
            escaped = true
            guard index < end else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                guard end - index > 4, bytes[index + 1...index + 4].allSatisfy(hex.contains) else { return nil }
                index += 5
            default: return nil
            }
        }
        return nil
    }

    /// Every piece, after 0 to 16 bytes and before 0 to 9, in a buffer that ends where the string does (a word
    /// loaded near the end would run past it) and in one with a quote and a backslash past `end` (never the
    /// string's): the word scan says what the byte scan says, and decodes what ``JSONParser`` decodes.
    @Test func theWordScanFindsWhatAByteScanFinds() throws {
        var checked = 0
        for piece in Self.pieces {
            for before in 0...16 {
                for after in 0...9 {
                    let content =
                        Array(repeating: UInt8(ascii: "a"), count: before) + piece + Array(repeating: UInt8(ascii: "z"), count: after)
                    for closed in [true, false] {
                        let string = [UInt8(ascii: "\"")] + content + (closed ? [UInt8(ascii: "\"")] : [])
                        for tail in [[], Array("\"\\\"}}".utf8), Array("\n{\"x\":\"y\"}".utf8)] {
                            let buffer = string + tail
                            let expected = Self.byteScan(buffer, from: 1, end: string.count)
                            let found = buffer.withUnsafeBufferPointer { MessagesString.span($0, from: 1, end: string.count) }
                            let shown = String(decoding: string, as: UTF8.self).debugDescription
                            #expect(found?.closing == expected?.closing, "\(shown) + \(tail.count) bytes")
                            #expect(found?.escaped == expected?.escaped && found?.high == expected?.high, "\(shown)")
                            checked += 1
                            guard let found, found.closing == string.count - 1, tail.isEmpty else { continue }
                            let decoded = buffer.withUnsafeBufferPointer { MessagesString.decoded($0, 1..<found.closing) }
                            let whole = try JSONParser.parse(string, repairingUTF8: true).string
                            #expect(String(decoding: decoded, as: UTF8.self) == whole, "\(shown)")
                        }
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    /// The word test itself: the lowest byte it marks is the first `"`, `\` or control byte of the word, for words of
    /// every such byte at every offset among bytes that come close (0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2,
    /// 0xDC, 0xFF), and for 200,000 words of random bytes.
    @Test func theWordTestMarksTheFirstSpecialByte() {
        func first(_ word: UInt64) -> Int? {
            (0..<8).first { offset in
                let byte = UInt8(truncatingIfNeeded: word >> (offset * 8))
                return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
            }
        }
        func marked(_ word: UInt64) -> Int? {
            let found = MessagesString.special(word)
            return found == 0 ? nil : found.trailingZeroBitCount / 8
        }
        let near: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61]
        for special: UInt8 in [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x0A] {
            for offset in 0..<8 {
                for filler in near {
                    for later in near + [0x22, 0x5C, 0x00] {
                        var bytes = Array(repeating: filler, count: 8)
                        bytes[offset] = special
                        if offset < 7 { bytes[7] = later }
                        let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << ($1.offset * 8) }
                        #expect(marked(word) == first(word), "\(bytes)")
                    }
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            var word = generator.next() as UInt64
            // One random byte in two made a special one, so words hold several.
            for offset in 0..<8 where Bool.random(using: &generator) {
                let special = [0x22, 0x5C, 0x00, 0x1F, 0x20, 0x80].randomElement(using: &generator)!
                word = word & ~(0xFF << (offset * 8)) | UInt64(special) << (offset * 8)
            }
            if marked(word) != first(word) {
                Issue.record("word \(String(word, radix: 16))")
                return
            }
        }
    }
}
