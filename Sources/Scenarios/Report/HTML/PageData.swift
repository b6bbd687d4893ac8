/// The page's data block written straight into its bytes: JSON whose strings are escaped for JSON and for
/// `<script>` in one pass (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, besides JSON's own), with no string
/// made per value and no second pass over the page.
struct PageData {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Text that needs no escaping: the page's markup, names of members, numbers.
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func number(_ value: Int) { raw(String(value)) }

    /// `text` as a JSON string safe inside `<script>`; longer than `cap` bytes, cut (at a character) and said so.
    mutating func quoted(_ text: String, cap: Int = HTMLReport.textCap) {
        var text = text.utf8.count > cap ? String(text.prefix(cap)) + "\n[… cut at \(cap) characters]" : text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
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

    private static func unicode(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
