import CSystemShims

/// Finding bytes in bytes with the C library's `memmem` (two-way search: linear in both lengths, and fast
/// in a debug build too, where a Swift loop over megabytes is not).
package enum ByteSearch {
    /// Whether `needle`'s UTF-8 occurs in `haystack`'s; an empty needle occurs everywhere.
    package static func contains(_ haystack: String, _ needle: String) -> Bool {
        var haystack = haystack, needle = needle
        return needle.withUTF8 { pattern in
            guard let patternStart = pattern.baseAddress, !pattern.isEmpty else { return true }
            return haystack.withUTF8 { text in
                guard let textStart = text.baseAddress, text.count >= pattern.count else { return false }
                return csystem_contains_bytes(textStart, UInt(text.count), patternStart, UInt(pattern.count)) != 0
            }
        }
    }
}
