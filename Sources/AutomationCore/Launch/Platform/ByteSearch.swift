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

    /// Where `byte` first occurs in `bytes` at or after `start`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let found = memchr(bytes.baseAddress! + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(bytes.baseAddress!).distance(to: UnsafeRawPointer(found))
    }
}
