/// Small text helpers the parsers share (no Foundation needed).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs. Linear in the length: it walks UTF-8 bytes, not
    /// characters (a line of 40,000 blanks took seconds the other way).
    /// No copy of the bytes: Gherkin files trim every line (1,000 feature files are ~40,000 lines).
    package func trimmingSpaces() -> String {
        let text = Substring(self) // shares the storage
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = text.utf8.firstIndex(where: { !isBlank($0) }), let last = text.utf8.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        // Blanks are ASCII, so both ends fall on character boundaries: after the last non-blank byte comes a blank or the end.
        let end = text.utf8.index(after: last)
        if first == text.startIndex && end == text.endIndex { return String(text) }
        return String(text[first..<end])
    }
}

extension StringProtocol {
    package func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    package func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension StringProtocol {
    /// The text with every character a terminal or a CI log would act on written as an escape: C0 controls
    /// (`\r`, `\n`, `\t`, `\0`, `\u{1B}`…), DEL, C1 controls, the Unicode line and paragraph separators and the
    /// bidirectional overrides. For text from requests, programs, files or options that sut-launch prints in its
    /// own lines: an ESC can set a terminal's title, a CR LF can forge a line (`::error::` in a CI log).
    /// - Parameters:
    ///   - keepingLineBreaks: leave LF as it is (multi-line text sut-launch composed itself).
    ///   - keepingTabs: leave tabs as they are (a program's output lines, where a tab only moves the cursor right).
    package func escapingControlCharacters(keepingLineBreaks: Bool = false, keepingTabs: Bool = false) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value == 0x0A { return !keepingLineBreaks }
            if value == 0x09 { return !keepingTabs }
            return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
        let text = Substring(self)
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
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
}
