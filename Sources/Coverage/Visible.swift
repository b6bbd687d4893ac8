/// Names as coverage prints them (notes, errors, `summary.txt`): a source file, a program path or a feature file
/// may hold a line break, ESC or OSC; each control character (C0, DEL, C1, line and paragraph separators, bidi
/// controls) is written as `\u{1B}`, so one note stays one line and a terminal or a CI log acts on none of it.
package enum Visible {
    package static func text(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                || value == 0x200E || value == 0x200F
            {
                result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// True when `text` holds a line break (LF, CR, VT, FF, NEL, U+2028, U+2029): lcov has no escaping for one.
    package static func breaksLines(_ text: String) -> Bool {
        text.unicodeScalars.contains { [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }
    }
}
