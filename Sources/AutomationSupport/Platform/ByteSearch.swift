import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte searches (memmem, memchr): two-way search, linear in both lengths and fast in a debug
/// build too, where a Swift loop over megabytes is not. Output steps scan up to a gigabyte; templates compare
/// a client's 16 MiB body.
package enum ByteSearch {
    /// Whether `needle`'s UTF-8 occurs in `haystack`'s; an empty needle occurs everywhere.
    package static func contains(_ haystack: String, _ needle: String) -> Bool {
        var haystack = haystack
        var needle = needle
        return haystack.withUTF8 { text in needle.withUTF8 { pattern in firstRange(of: pattern, in: text) != nil } }
    }

    /// Where `needle` first occurs in `haystack` (an index into it), or nil. An empty needle is at 0.
    package static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.withUnsafeBufferPointer { firstRange(of: needle, in: $0) }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`, or nil (no copy of either).
    package static func firstRange(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        needle.withUnsafeBufferPointer { firstRange(of: $0, in: haystack, from: start) }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`, or nil (both borrowed: no copy).
    package static func firstRange(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int = 0)
        -> Int?
    {
        if needle.isEmpty { return start <= haystack.count ? start : nil }
        guard start >= 0, haystack.count - start >= needle.count, let base = haystack.baseAddress else { return nil }
        let found = csystem_memmem(base + start, UInt(haystack.count - start), needle.baseAddress, UInt(needle.count))
        return found < 0 ? nil : start + Int(found)
    }

    /// Where `byte` last occurs in `bytes` before `end`, or nil (memrchr is a GNU extension: a loop, which
    /// callers keep short by stopping at the line they are in).
    package static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        var index = min(end, bytes.count) - 1
        while index >= 0 {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    /// Where `byte` first occurs in `bytes` at or after `start` (and before `end`, the end when nil), or nil.
    package static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start >= 0, start < end, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), end - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Whether two byte runs are the same bytes (memcmp).
    package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true } // both empty
        return memcmp(x, y, a.count) == 0
    }
}
