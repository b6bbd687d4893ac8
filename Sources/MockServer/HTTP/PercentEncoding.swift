import AutomationSupport

/// Percent-decoding for paths and queries, as WireMock 2.35 decodes them (Java's `URLDecoder` and `URI`).
package enum PercentEncoding {
    /// The first `%` not followed by two hex digits (`%zz`, a `%` at the end), as written (at most three
    /// characters), or nil: Java's `URLDecoder`, which WireMock decodes a query with, throws there.
    package static func badEscape(in text: Substring) -> String? {
        var index = text.utf8.startIndex
        while let percent = text.utf8[index...].firstIndex(of: UInt8(ascii: "%")) {
            let escape = text.utf8[percent...].prefix(3)
            guard escape.count == 3, escape.dropFirst().allSatisfy({ FormEncoding.hexValue($0) != nil }) else {
                return String(decoding: escape, as: UTF8.self)
            }
            index = escape.endIndex
        }
        return nil
    }

    package static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) || (plusAsSpace && text.utf8.contains(UInt8(ascii: "+"))) else { return String(text) }
        var text = text
        return text.withUTF8 { decode($0, plusAsSpace: plusAsSpace) }
    }

    /// The same on bytes. Bytes that are not UTF-8 (as written or decoded from `%XX`) read as Java reads them
    /// (``javaText(_:)``), so a parameter holds the characters it holds in WireMock.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard text.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(validUTF8: text) ?? javaText(Array(text))
        }
        let bytes = decodedBytes(text, plusAsSpace: plusAsSpace)
        return String(validUTF8: bytes) ?? javaText(bytes)
    }

    /// The bytes `%XX` escapes (and `+`, when it is a space) stand for; a `%` without two hex digits stays.
    private static func decodedBytes(_ text: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "%"), index + 2 < text.count,
                let high = FormEncoding.hexValue(text[index + 1]), let low = FormEncoding.hexValue(text[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return bytes
    }

    /// UTF-8 as Java's decoder reads it (`new String(bytes, UTF_8)`, which `URLDecoder` uses): valid text as it is, and
    /// each malformed sequence one U+FFFD where Java makes one: an encoded surrogate (`ED A0 80`) is one, not three
    /// (Unicode's "maximal subpart" practice, Swift's, makes three), and a sequence cut short by the end is one.
    package static func javaText(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let (scalar, length) = javaScalar(bytes, at: index)
            scalars.append(scalar)
            index += length
        }
        return String(scalars)
    }

    /// The character Java's UTF-8 decoder reads at `index` (U+FFFD for a malformed sequence) and how many bytes it
    /// takes: JDK 17's `String.decodeUTF8_UTF16`, its `isMalformed` and `malformed` rules.
    private static func javaScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int) {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        let left = bytes.count - index
        let b1 = bytes[index]
        func continues(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        switch b1 {
        case 0x00...0x7F: return (Unicode.Scalar(b1), 1)
        case 0xC2...0xDF:
            guard left >= 2 else { return (replacement, left) }
            guard continues(bytes[index + 1]) else { return (replacement, 1) }
            return (Unicode.Scalar(UInt32(b1 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F))!, 2)
        case 0xE0...0xEF:
            if left >= 3 {
                let (b2, b3) = (bytes[index + 1], bytes[index + 2])
                if (b1 == 0xE0 && b2 & 0xE0 == 0x80) || !continues(b2) || !continues(b3) {
                    return (replacement, (b1 == 0xE0 && b2 & 0xE0 == 0x80) || !continues(b2) ? 1 : 2)
                }
                let value = UInt32(b1 & 0x0F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F)
                return (Unicode.Scalar(value) ?? replacement, 3) // a surrogate: one U+FFFD for the three bytes
            }
            if left == 2, (b1 == 0xE0 && bytes[index + 1] & 0xE0 == 0x80) || !continues(bytes[index + 1]) { return (replacement, 1) }
            return (replacement, left)
        case 0xF0...0xF7:
            if left >= 4 {
                let (b2, b3, b4) = (bytes[index + 1], bytes[index + 2], bytes[index + 3])
                let value = UInt32(b1 & 0x07) << 18 | UInt32(b2 & 0x3F) << 12 | UInt32(b3 & 0x3F) << 6 | UInt32(b4 & 0x3F)
                if continues(b2) && continues(b3) && continues(b4), (0x10000...0x10FFFF).contains(value) {
                    return (Unicode.Scalar(value)!, 4)
                }
                return (replacement, malformed4(b1, b2, b3))
            }
            if b1 > 0xF4 || (left >= 2 && malformed4Second(b1, bytes[index + 1])) { return (replacement, 1) }
            // Cut short by the end: one U+FFFD for the lead and its second byte, and the third too when it continues.
            if left == 3 && continues(bytes[index + 2]) { return (replacement, 3) }
            return (replacement, min(left, 2))
        default: return (replacement, 1)
        }
    }

    /// JDK's `malformed4`: how many bytes of a malformed four-byte sequence one U+FFFD stands for.
    private static func malformed4(_ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> Int {
        if b1 > 0xF4 || malformed4Second(b1, b2) { return 1 }
        return b3 & 0xC0 != 0x80 ? 2 : 3
    }

    /// JDK's `isMalformed4_2`: a second byte that cannot follow `b1`.
    private static func malformed4Second(_ b1: UInt8, _ b2: UInt8) -> Bool {
        (b1 == 0xF0 && (b2 < 0x90 || b2 > 0xBF)) || (b1 == 0xF4 && b2 & 0xF0 != 0x80) || b2 & 0xC0 != 0x80
    }

    /// The first name or value of `query` (split at `&` and a pair's first `=`) whose decoded bytes Jetty's strict
    /// UTF-8 reading refuses, as written (at most 80 characters): a malformed sequence anywhere but at its end (an
    /// overlong form, an encoded surrogate, a byte past U+10FFFF, a cut sequence followed by more). WireMock answers
    /// 400 ("Bad query encoding") to such a request that no mapping matches. Nil when every one reads.
    package static func strictlyUnreadable(_ query: String) -> String? {
        let bytes = Array(query.utf8) // split on the bytes: a Character split would not cut "&" + a combining mark
        for piece in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            for part in [piece[..<(equals ?? piece.endIndex)], piece[(equals.map { $0 + 1 } ?? piece.endIndex)...]] {
                let decoded = part.withUnsafeBufferPointer { decodedBytes($0, plusAsSpace: true) }
                if !strictlyReadable(decoded) { return String(decoding: part.prefix(80), as: UTF8.self) }
            }
        }
        return nil
    }

    /// Whether `bytes` are UTF-8 but for a sequence cut short at their end (which Jetty replaces).
    private static func strictlyReadable(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return true
            case .error(let length):
                // Only a valid beginning cut by the end reads (`%C3` alone, `%E0%A0`).
                return offset + length == bytes.count && (0xC2...0xF4).contains(bytes[offset])
            }
        }
    }
}
