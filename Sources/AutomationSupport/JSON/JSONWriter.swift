/// Writes JSON text: compact, keys in the order given, `/` unescaped, non-ASCII kept as UTF-8.
package enum JSONWriter {
    /// Appends `text` as a quoted JSON string.
    package static func appendString(_ text: String, to output: inout String) {
        output.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            default:
                // C0, DEL and C1 (U+0080–U+009F, 8-bit CSI and OSC among them) as escapes: the parsed text is the
                // same, and a file shown on a terminal (`cat report.json`) carries no control sequence.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
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
