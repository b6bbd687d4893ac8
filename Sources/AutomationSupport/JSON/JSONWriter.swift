/// Writes JSON text: compact, keys in the order given, `/` unescaped, non-ASCII kept as UTF-8.
package enum JSONWriter {
    /// Appends `text` as a quoted JSON string. The runs between bytes to escape are appended whole (the HTML
    /// report of 20,000 scenarios quotes 10 MB of text: appended scalar by scalar, that was a fifth of its time).
    /// C0, DEL and C1 (U+0080–U+009F, 8-bit CSI and OSC among them) are written as escapes: the parsed text is the
    /// same, and a file shown on a terminal (`cat report.json`) carries no control sequence.
    package static func appendString(_ text: String, to output: inout String) {
        let utf8 = text.utf8
        // Most texts need no escape: appended whole.
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }) {
            output.append("\"")
            output.append(text)
            output.append("\"")
            return
        }
        // Byte by byte into one buffer, no allocation per escape: linear (a String and a hex String per escaped byte
        // took 1.6 s per MB of control characters).
        let source = Array(utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + source.count / 4 + 2)
        bytes.append(0x22)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                appendEscape(byte, to: &bytes)
            } else if byte == 0xC2, index + 1 < source.count, (0x80...0x9F).contains(source[index + 1]) {
                appendEscape(source[index + 1], to: &bytes) // U+0080–U+009F: C2 then the code point's own byte
                index += 1
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        bytes.append(0x22)
        // Only ASCII was put in and whole C2 pairs taken out: still the UTF-8 of the text it came from.
        output.append(String(decoding: bytes, as: UTF8.self))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case 0x22, 0x5C: bytes += [0x5C, byte]
        case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
        case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
        case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
        case 0x08: bytes += [0x5C, UInt8(ascii: "b")]
        case 0x0C: bytes += [0x5C, UInt8(ascii: "f")]
        default:
            bytes += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
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
        case .double(let number): output.append(node.literal ?? self.number(number))
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
