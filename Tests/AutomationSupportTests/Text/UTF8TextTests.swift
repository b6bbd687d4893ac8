import Testing

@testable import AutomationSupport

/// `String(validUTF8:)` answers as `String(validating:as:)` does on every shape: ASCII (its fast path), UTF-8 beyond
/// ASCII, and bytes that are not UTF-8 (nil, never repaired text), from arrays, slices and buffers.
@Suite struct UTF8TextTests {
    static let samples: [[UInt8]] = [
        [], Array("GET /a?b=c".utf8), Array("héllo 😀".utf8), [0xFF], [0x61, 0xC3], [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80],
        Array("ascii then".utf8) + [0x80], [0x00, 0x7F], Array(repeating: 0x41, count: 100) + [0xC3, 0xA9],
    ]

    @Test(arguments: samples)
    func answersAsValidatingDoes(_ bytes: [UInt8]) {
        let expected = String(validating: bytes, as: UTF8.self)
        #expect(String(validUTF8: bytes) == expected)
        #expect(String(validUTF8: bytes[...]) == expected)
        bytes.withUnsafeBufferPointer { #expect(String(validUTF8: $0) == expected) }
        // A slice that starts past a multi-byte character's first byte is checked on its own bytes.
        if bytes.count > 1 { #expect(String(validUTF8: bytes.dropFirst()) == String(validating: bytes.dropFirst(), as: UTF8.self)) }
    }
}
