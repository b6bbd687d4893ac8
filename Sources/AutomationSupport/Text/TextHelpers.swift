/// Small text helpers the parsers share (no Foundation needed).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs. Linear in the length: it walks UTF-8 bytes, not
    /// characters (a line of 40,000 blanks took seconds the other way).
    /// No copy of the bytes: Gherkin files trim every line (1,000 feature files are ~40,000 lines).
    package func trimmingSpaces() -> String {
        let text = Substring(self) // shares the storage
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = text.utf8.firstIndex(where: { !isBlank($0) }), let last = text.utf8.lastIndex(where: { !isBlank($0) }) else { return "" }
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
