extension String {
    /// Java's `String.equalsIgnoreCase` (JDK 17), which WireMock's `equalTo` with `caseInsensitive` calls: as many
    /// UTF-16 units on both sides, then character by character (supplementary ones by code point) equal when they are
    /// the same, or their upper cases are, or the lower cases of their upper cases are; Unicode's *simple* case
    /// mappings, one character to one. So `İ` (U+0130) equals `i` and `I` (its lower case is `i`), `ı` equals `i`
    /// (both upper-case to `I`), the Kelvin sign equals `k`, and `ß` equals only itself: where `lowercased()` (full
    /// mappings, `İ` to `i` + U+0307) decided before, an `İ` never matched an `i` WireMock matched.
    package func javaEqualsIgnoringCase(_ other: String) -> Bool {
        // ASCII on both sides (headers, most query values) decides on the bytes, without counting UTF-16 units.
        let ascii = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.asciiEqualsIgnoringCase(left, right) } ?? nil
        }
        if let ascii, let ascii { return ascii }
        guard utf16.count == other.utf16.count else { return false }
        var left = unicodeScalars.makeIterator()
        var right = other.unicodeScalars.makeIterator()
        while let a = left.next() {
            guard let b = right.next() else { return false }
            if a == b { continue }
            if a.isASCII && b.isASCII {
                guard a.value | 0x20 == b.value | 0x20, (0x61...0x7A).contains(a.value | 0x20) else { return false }
                continue
            }
            let (upperA, upperB) = (JavaCase.upper(a), JavaCase.upper(b))
            if upperA == upperB || JavaCase.lower(upperA) == JavaCase.lower(upperB) { continue }
            return false
        }
        return right.next() == nil
    }
}

/// Unicode's simple case mappings as Java's `Character.toUpperCase(int)` and `toLowerCase(int)` give them: one
/// character to one (the character itself when it has none).
package enum JavaCase {
    /// The simple upper case of `scalar`.
    package static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII { return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar }
        if let special = specialUpper[scalar.value] { return Unicode.Scalar(special) ?? scalar }
        return single(scalar.properties.uppercaseMapping) ?? scalar
    }

    /// The simple lower case of `scalar`.
    package static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII { return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar }
        if scalar.value == 0x130 { return "i" } // full mapping: i + U+0307
        return single(scalar.properties.lowercaseMapping) ?? scalar
    }

    /// The mapping when it is one character (Swift gives the full mappings of SpecialCasing.txt; where those are
    /// longer, the simple mapping is the character itself, but for the cases in ``specialUpper``).
    private static func single(_ mapping: String) -> Unicode.Scalar? {
        var scalars = mapping.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }

    /// Simple upper cases where the full one is longer than one character and the simple one is another character:
    /// Greek letters with ypogegrammeni (`ᾳ` → `ᾼ`), and their title-case forms, which are their own upper case.
    private static let specialUpper: [UInt32: UInt32] = {
        var table: [UInt32: UInt32] = [:]
        for block: UInt32 in [0x1F80, 0x1F90, 0x1FA0] {
            for offset: UInt32 in 0..<8 {
                table[block + offset] = block + 8 + offset
                table[block + 8 + offset] = block + 8 + offset
            }
        }
        for (small, title) in [(0x1FB3, 0x1FBC), (0x1FC3, 0x1FCC), (0x1FF3, 0x1FFC)] as [(UInt32, UInt32)] {
            table[small] = title
            table[title] = title
        }
        return table
    }()
}
