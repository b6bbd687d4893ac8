import AutomationSupport

/// Splits `login --name "Ada Lovelace" 'a b'` into words as a POSIX shell would (single quotes, double
/// quotes with backslash escapes, backslash outside quotes), with no expansion: no variables, globs or pipes,
/// and no comments: `#` is a character of its word wherever it stands, so nothing written is dropped
/// (`sh -c '…'` is another matter: sh reads a `#` that starts a word as a comment).
package enum ShellWords {
    /// `word` as one shell word a user can paste: bare when it holds only safe characters, else in single quotes
    /// (`'` as `'\''`); `./` before a word starting with `-` (so no command reads it as an option). A word holding
    /// a control character, a line separator or a bidi override goes in bash's `$'…'` quotes with those bytes as
    /// `\xHH`: the terminal never receives them, and the pasted word is still the same bytes.
    package static func quoted(_ word: String) -> String {
        let word = word.hasPrefix("-") ? "./" + word : word
        let safe =
            !word.isEmpty
            && word.utf8.allSatisfy {
                $0 < 0x80
                    && ((0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                        || "._-/+,:@%=".utf8.contains($0))
            }
        if safe { return word }
        guard word.escapingControlCharacters() != word else { return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var text = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "'": text += "\\'"
            default:
                guard String(scalar).escapingControlCharacters() != String(scalar) else {
                    text.unicodeScalars.append(scalar)
                    continue
                }
                for byte in String(scalar).utf8 { text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }
            }
        }
        return text + "'"
    }

    /// A quote opened and never closed, or a line ending in a lone backslash.
    package struct Error: Swift.Error, CustomStringConvertible {
        package let description: String
    }

    package static func split(_ text: String) throws(Error) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                // Inside double quotes a backslash escapes only $ ` " \ and newline (POSIX); elsewhere anything.
                if quote == "\"" && !"$`\"\\\n".contains(character) { word.append("\\") }
                word.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            } else {
                word.append(character)
                inWord = true
            }
        }
        if let quote { throw Error(description: "unterminated \(quote) quote in \"\(text)\"") }
        if escaped { throw Error(description: "a lone backslash at the end of \"\(text)\"") }
        if inWord { words.append(word) }
        return words
    }
}
