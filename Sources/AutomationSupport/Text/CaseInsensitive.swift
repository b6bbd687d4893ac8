extension String {
    /// Whether the two are equal after `lowercased()`, without allocating: header names, schemes and tokens are
    /// ASCII, compared byte by byte with ASCII case folded; text with other characters is lower-cased and compared.
    /// Concrete on String (not generic): unspecialized across modules, the generic form cost three times the lookup.
    package func equalsIgnoringCase(_ other: String) -> Bool {
        let decided = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.asciiEqualsIgnoringCase(left, right) } ?? nil
        }
        if let decided, let decided { return decided }
        return lowercased() == other.lowercased()
    }

    /// Whether it starts with `prefix` after `lowercased()` (`prefix` is ASCII lower case), without allocating.
    package func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        let decided = utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var index = 0
            for expected in prefix.utf8 {
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                guard byte == expected || (byte | 0x20 == expected && expected >= 0x61 && expected <= 0x7A) else { return false }
                index += 1
            }
            return true
        }
        if let decided, let decided { return decided }
        return lowercased().hasPrefix(prefix)
    }

    /// The answer when ASCII decides it; nil when a non-ASCII byte comes first (Unicode's case rules then decide).
    private static func asciiEqualsIgnoringCase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool? {
        let common = Swift.min(left.count, right.count)
        var index = 0
        while index < common {
            let (a, b) = (left[index], right[index])
            if (a | b) >= 0x80 { return nil }
            if a != b {
                let folded = a | 0x20
                guard folded == b | 0x20, folded >= 0x61, folded <= 0x7A else { return false }
            }
            index += 1
        }
        // Equal so far: a longer text has more to it after lower-casing too (no character lower-cases to nothing).
        return left.count == right.count
    }
}
