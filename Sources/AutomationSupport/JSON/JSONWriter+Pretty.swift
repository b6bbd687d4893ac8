extension JSONWriter {
    /// Writes a node as indented JSON (two spaces, `"key" : value` as WireMock writes its mapping files), keys sorted
    /// when `sortKeys` (by their UTF-8 bytes: the same order on every machine), ending with a newline. For files
    /// people review and diff: recorded mappings.
    package static func pretty(_ node: JSONNode, sortKeys: Bool = true) -> String {
        var output = ""
        appendPretty(node, indent: "", sortKeys: sortKeys, to: &output)
        output.append("\n")
        return output
    }

    private static func appendPretty(_ node: JSONNode, indent: String, sortKeys: Bool, to output: inout String) {
        let inner = indent + "  "
        switch node.value {
        case .array(let elements) where !elements.isEmpty:
            output.append("[ ")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(", ") }
                appendPretty(element, indent: indent, sortKeys: sortKeys, to: &output)
            }
            output.append(" ]")
        case .object(let members) where !members.isEmpty:
            let ordered = sortKeys ? members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) } : members
            output.append("{\n")
            for (offset, member) in ordered.enumerated() {
                output.append(inner)
                appendString(member.key, to: &output)
                output.append(" : ")
                appendPretty(member.value, indent: inner, sortKeys: sortKeys, to: &output)
                output.append(offset + 1 < ordered.count ? ",\n" : "\n")
            }
            output.append(indent + "}")
        default:
            output.append(write(node))
        }
    }
}
