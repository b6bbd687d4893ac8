extension StringProtocol {
    /// Whether the two are equal after `lowercased()`, without allocating either: header names, schemes and tokens
    /// are ASCII, compared byte by byte with ASCII case folded; text with other characters is lower-cased and compared.
    package func equalsIgnoringCase<Other: StringProtocol>(_ other: Other) -> Bool {
        var ascii = true
        let equal = utf8.elementsEqual(other.utf8) { left, right in
            if (left | right) >= 0x80 {
                ascii = false
                return false
            }
            return left == right || (left | 0x20 == right | 0x20 && (0x61...0x7A).contains(left | 0x20))
        }
        // Bytes that differ as ASCII letters or lengths decide alone; a non-ASCII byte met first needs Unicode's rules.
        return equal || (!ascii && lowercased() == other.lowercased())
    }

    /// Whether it starts with `prefix` after `lowercased()` (`prefix` is ASCII lower case), without allocating.
    package func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var bytes = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next() else { return false }
            if byte >= 0x80 { return lowercased().hasPrefix(prefix) }
            guard byte == expected || (byte | 0x20 == expected && (0x61...0x7A).contains(expected)) else { return false }
        }
        return true
    }
}
