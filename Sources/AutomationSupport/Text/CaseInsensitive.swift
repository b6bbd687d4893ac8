extension String {
    /// Whether the two are equal after `lowercased()`, without allocating: header names, schemes and tokens are
    /// ASCII, compared byte by byte with ASCII case folded; text with other characters is lower-cased and compared.
    /// Concrete on String (not generic): unspecialized across modules, the generic form cost three times the lookup.
    package func equalsIgnoringCase(_ other: String) -> Bool {
        let (left, right) = (utf8, other.utf8)
        guard left.count == right.count else {
            // ASCII texts of different lengths differ; only Unicode's case rules can make others equal (K and K).
            if left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) { return false }
            return lowercased() == other.lowercased()
        }
        var index = (left.startIndex, right.startIndex)
        while index.0 != left.endIndex {
            let (a, b) = (left[index.0], right[index.1])
            if a != b {
                if (a | b) >= 0x80 { return lowercased() == other.lowercased() }
                let folded = a | 0x20
                // All ASCII so far: a difference here stays one after lower-casing.
                guard folded == b | 0x20, folded >= 0x61, folded <= 0x7A else { return false }
            } else if a >= 0x80 {
                return lowercased() == other.lowercased()
            }
            index = (left.index(after: index.0), right.index(after: index.1))
        }
        return true
    }

    /// Whether it starts with `prefix` after `lowercased()` (`prefix` is ASCII lower case), without allocating.
    package func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var bytes = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next() else { return false }
            if byte >= 0x80 { return lowercased().hasPrefix(prefix) }
            guard byte == expected || (byte | 0x20 == expected && expected >= 0x61 && expected <= 0x7A) else { return false }
        }
        return true
    }
}
