import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte searches (memmem, memchr): output steps scan up to a gigabyte.
enum ByteSearch {
    /// Where `needle` first occurs in `haystack` (an index into it), or nil. An empty needle is at 0.
    static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        if needle.isEmpty { return 0 }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { wanted in
                guard hay.count >= wanted.count else { return nil }
                let found = csystem_memmem(hay.baseAddress, UInt(hay.count), wanted.baseAddress, UInt(wanted.count))
                return found < 0 ? nil : Int(found)
            }
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`, or nil (no copy of either).
    static func firstRange(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        if needle.isEmpty { return start }
        guard start >= 0, haystack.count - start >= needle.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { wanted in
            let found = csystem_memmem(base + start, UInt(haystack.count - start), wanted.baseAddress, UInt(wanted.count))
            return found < 0 ? nil : start + Int(found)
        }
    }

    /// Where `byte` last occurs in `bytes` before `end`, or nil (memrchr is a GNU extension: a loop, which
    /// callers keep short by stopping at the line they are in).
    static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        var index = min(end, bytes.count) - 1
        while index >= 0 {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    /// Where `byte` first occurs in `bytes` at or after `start`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let found = memchr(bytes.baseAddress! + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(bytes.baseAddress!).distance(to: UnsafeRawPointer(found))
    }
}
