extension String {
    /// Whether the two are equal after `lowercased()`, without allocating: header names, schemes and tokens are
    /// ASCII, compared byte by byte with ASCII case folded; text with other characters is lower-cased and compared.
    /// Concrete on String and on the contiguous bytes: generic, or through UTF8View's iterators, it went unspecialized
    /// and cost a header lookup three to ten times more (callgrind).
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

    /// Whether every byte is ASCII (header names from the wire always are: RFC 9110 tokens).
    package var isASCII: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 } } ?? utf8.allSatisfy { $0 < 0x80 }
    }

    /// ``equalsIgnoringCase(_:)`` for two texts the caller knows are ASCII: lengths first, then the bytes with ASCII
    /// case folded. A header lookup compares one name with every field's, most of other lengths (callgrind: the
    /// general comparison scanned both for non-ASCII bytes each time, a sixth of a multipart request's work).
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let decided = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.asciiEqualsIgnoringCase(left, right) } ?? nil
        }
        if let decided, let decided { return decided }
        return lowercased() == other.lowercased()
    }

    /// The answer when ASCII decides it; nil when a non-ASCII byte takes part (Unicode's case rules then decide).
    static func asciiEqualsIgnoringCase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard left.count == right.count else {
            // ASCII texts of different lengths differ; only Unicode's case rules can make others equal (K and K).
            for byte in left where byte >= 0x80 { return nil }
            for byte in right where byte >= 0x80 { return nil }
            return false
        }
        var index = 0
        while index < left.count {
            let (a, b) = (left[index], right[index])
            if (a | b) >= 0x80 { return nil }
            if a != b {
                // All ASCII so far: a difference here stays one after lower-casing.
                let folded = a | 0x20
                guard folded == b | 0x20, folded >= 0x61, folded <= 0x7A else { return false }
            }
            index += 1
        }
        return true
    }
}
