/// The Host library's own stderr lines show text from outside (a marshalled value, an endpoint, a server's answer)
/// with every character a terminal or a CI log would act on written as an escape (`\u{1B}`, `\r`, `\n`): an ESC
/// in a flag value set the terminal's title. The rule is sut-launch's `escapingControlCharacters()` (the Host
/// imports nothing of the package's toolbox; a test holds the two side by side).
enum HostEscaping {
    /// `text` with C0 controls, DEL, C1 controls, the line and paragraph separators and the bidirectional
    /// overrides and isolates escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
