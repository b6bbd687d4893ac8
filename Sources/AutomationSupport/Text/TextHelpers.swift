/// Small text helpers the parsers share (no Foundation needed).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs. Linear in the length: it walks UTF-8 bytes, not
    /// characters (a line of 40,000 blanks took seconds the other way).
    package func trimmingSpaces() -> String {
        let bytes = Array(utf8)
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return "" }
        if first == 0 && last == bytes.count - 1 { return String(self) }
        return String(decoding: bytes[first...last], as: UTF8.self)
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
