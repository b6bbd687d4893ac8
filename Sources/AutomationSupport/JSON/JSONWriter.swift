/// Writes JSON text: compact, keys in the order given, `/` unescaped, non-ASCII kept as UTF-8.
package enum JSONWriter {
    /// Appends `text` as a quoted JSON string. The runs between bytes to escape are appended whole (the HTML
    /// report of 20,000 scenarios quotes 10 MB of text: appended scalar by scalar, that was a fifth of its time).
    /// C0, DEL and C1 (U+0080–U+009F, 8-bit CSI and OSC among them) are written as escapes: the parsed text is the
    /// same, and a file shown on a terminal (`cat report.json`) carries no control sequence.
    package static func appendString(_ text: String, to output: inout String) {
        output.append("\"")
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            var escaped: String?
            var next = utf8.index(after: index)
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F {
                escaped = escape(byte)
            } else if byte == 0xC2, next != utf8.endIndex, (0x80...0x9F).contains(utf8[next]) {
                escaped = escape(utf8[next]) // U+0080–U+009F: C2 then the code point's own byte
                next = utf8.index(after: next)
            }
            guard let escaped else {
                index = next
                continue
            }
            output += text[start..<index] // (an ASCII byte or a C2 lead byte starts a character: the slice is whole text)
            output += escaped
            index = next
            start = index
        }
        output += text[start..<index]
        output.append("\"")
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` as a quoted JSON string.
    package static func quoted(_ text: String) -> String {
        var output = ""
        appendString(text, to: &output)
        return output
    }

    /// A Double as JSON: integral values without a fraction, non-finite values as null.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// Writes a node back as compact JSON (keys in file order).
    package static func write(_ node: JSONNode) -> String {
        var output = ""
        append(node, to: &output)
        return output
    }

    private static func append(_ node: JSONNode, to output: inout String) {
        switch node.value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): output.append(String(number))
        case .double(let number): output.append(self.number(number))
        case .string(let text): appendString(text, to: &output)
        case .array(let elements):
            output.append("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(",") }
                append(element, to: &output)
            }
            output.append("]")
        case .object(let members):
            output.append("{")
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(",") }
                appendString(member.key, to: &output)
                output.append(":")
                append(member.value, to: &output)
            }
            output.append("}")
        }
    }
}
