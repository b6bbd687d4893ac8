/// The page's data block written straight into its bytes: JSON whose strings are escaped for JSON and for
/// `<script>` in one pass (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, besides JSON's own), with no string
/// made per value and no second pass over the page.
struct PageData {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Text that needs no escaping: the page's markup, names of members, numbers.
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `value` in decimal, its digits written in place (no String made).
    mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var count = 1
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        rest = value.magnitude
        for at in stride(from: start + count - 1, through: start, by: -1) {
            bytes[at] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// `text` as a JSON string safe inside `<script>`; longer than `cap` bytes, cut (at a character) and said so.
    mutating func quoted(_ text: String, cap: Int = HTMLReport.textCap) {
        var text = text.utf8.count > cap ? String(text.prefix(cap)) + "\n[… cut at \(cap) characters]" : text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time up to the first that may need an escape.
                if utf8.count - index >= 8 {
                    let found = Self.mayNeedEscape(
                        UInt64(littleEndian: UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)))
                    if found == 0 {
                        index += 8
                        continue
                    }
                    index += found.trailingZeroBitCount >> 3
                }
                let byte = utf8[index]
                let escape: String
                var length = 1
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
                case 0..<0x20, 0x7F: escape = Self.unicode(UInt32(byte))
                // U+0080–U+009F: C2, then the code point's own byte.
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escape = Self.unicode(UInt32(utf8[index + 1]))
                    length = 2
                // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && utf8[index + 2] & 0xFE == 0xA8:
                    escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(contentsOf: escape.utf8)
                index += length
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON array of `texts`, each quoted.
    mutating func quoted(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (offset, text) in texts.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            quoted(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The bytes of `word` (its first byte the lowest) that may need an escape: `"`, `\`, `<`, `>`, `&`, a control
    /// byte, DEL, or a byte of 0x80 and above (U+0080–U+009F, U+2028 and U+2029 start with one). The high bit of the
    /// first is set and no bit below it (as ``MessagesString/special(_:)``: each test is exact up to its first hit).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> UInt64 {
        let control = word &- ones &* 0x20
        let quote = (word ^ ones &* 0x22) &- ones
        let backslash = (word ^ ones &* 0x5C) &- ones
        let less = (word ^ ones &* 0x3C) &- ones
        let greater = (word ^ ones &* 0x3E) &- ones
        let ampersand = (word ^ ones &* 0x26) &- ones
        let delete = (word ^ ones &* 0x7F) &- ones
        return ((control | quote | backslash | less | greater | ampersand | delete) & ~word | word) & (ones &* 0x80)
    }

    private static func unicode(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
