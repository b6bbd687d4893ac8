import AutomationSupport
import Testing

@testable import Scenarios

/// The page's data block escapes eight bytes at a time (``PageData/mayNeedEscape(_:)``): whatever the offset of a
/// character to escape in its word, the bytes written are those of an escape one byte at a time, and read back
/// as JSON they are the text.
@Suite struct PageDataTests {
    /// The escape one byte at a time (the page writer's before the word scan): the oracle.
    static func byteEscaped(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = [UInt8(ascii: "\"")]
        var index = 0
        func unicode(_ value: Int) -> String {
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        while index < utf8.count {
            let byte = utf8[index]
            var length = 1
            let escape: String
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "<"): escape = "\\u003c"
            case UInt8(ascii: ">"): escape = "\\u003e"
            case UInt8(ascii: "&"): escape = "\\u0026"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0..<0x20, 0x7F: escape = unicode(Int(byte))
            case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                escape = unicode(Int(utf8[index + 1]))
                length = 2
            case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && utf8[index + 2] & 0xFE == 0xA8:
                escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                length = 3
            default:
                out.append(byte)
                index += 1
                continue
            }
            out += Array(escape.utf8)
            index += length
        }
        return out + [UInt8(ascii: "\"")]
    }

    @Test func everyCharacterIsEscapedAtEveryOffset() throws {
        let pieces = [
            "\"", "\\", "<", ">", "&", "\u{0}", "\u{1}", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}",
            "\u{A0}",
            "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "é", "€", "😀", "</script>", "]]>", "\u{1B}[31m", " ", "~",
        ]
        for piece in pieces {
            for before in 0...16 {
                for after in 0...9 {
                    let text = String(repeating: "a", count: before) + piece + String(repeating: "z", count: after)
                    var page = PageData(capacity: 64)
                    page.quoted(text)
                    #expect(page.bytes == Self.byteEscaped(text), "\(text.debugDescription)")
                    #expect(try JSONParser.parse(page.bytes).string == text)
                    #expect(!page.bytes.contains(UInt8(ascii: "<")) && !page.bytes.contains(UInt8(ascii: ">")))
                }
            }
        }
    }

    /// Numbers are written digit by digit: the edges of Int included.
    @Test(arguments: [0, 7, 9, 10, 99, 100, 1_000_000_007, -1, -10, Int.max, Int.min])
    func numbersAreWrittenAsSwiftWritesThem(_ value: Int) {
        var page = PageData(capacity: 8)
        page.number(value)
        #expect(page.bytes == Array(String(value).utf8))
    }
}
