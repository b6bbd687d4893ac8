/// Base64 as Java writes it (`java.util.Base64`, Guava's `BaseEncoding.base64()` when reading): the standard
/// alphabet, padding optional on both sides, nothing else accepted when decoding.
package enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8], padding: Bool = true) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var value: UInt32 = 0
            for offset in 0..<3 { value = value << 8 | (offset < count ? UInt32(bytes[index + offset]) : 0) }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int(value >> (18 - 6 * UInt32(position)) & 63)])
                } else if padding {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`; nil when it holds a character outside the alphabet (spaces too) or cannot be whole bytes.
    package static func decode(_ text: String) -> [UInt8]? { try? decodeExplained(text) }

    /// Why a text is not base64, quoting what Guava's `BaseEncoding.base64()` (WireMock's decoder) objects to.
    package struct DecodingError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The bytes of `text`, or why not: `=` padding at the end is optional (any number of them), the length without
    /// it must not leave one character over, and any character outside `A-Z a-z 0-9 + /` (a space, a line break,
    /// the URL-safe `-` and `_`, an `=` before the end) is refused by name and position.
    package static func decodeExplained(_ text: String) throws(DecodingError) -> [UInt8] {
        var characters = Array(text.utf8)
        while characters.last == UInt8(ascii: "=") { characters.removeLast() }
        guard characters.count % 4 != 1 else { throw DecodingError(description: "invalid input length \(characters.count)") }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for (offset, byte) in characters.enumerated() {
            guard let value = sextet(byte) else {
                // The character (a multi-byte one whole) at its byte offset, escaped if it is a control character.
                let rest = String(decoding: text.utf8.dropFirst(offset), as: UTF8.self)
                let shown = rest.first.map { String($0).escapingControlCharacters() } ?? ""
                throw DecodingError(description: "unrecognized character \"\(shown)\" at \(offset + 1)")
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}

/// `application/x-www-form-urlencoded` as Java's `URLEncoder` and `URLDecoder` write and read it, in UTF-8, and
/// `String.split` on one character as Java splits (trailing empty parts dropped).
package enum FormEncoding {
    /// Letters, digits and `.-*_` as they are, a space as `+`, every other byte of UTF-8 as `%XX`.
    package static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                output.append(byte)
            case UInt8(ascii: " "): output.append(UInt8(ascii: "+"))
            default: output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `+` as a space, `%XX` as a byte (bytes that are not UTF-8 as U+FFFD); nil when a `%` is not followed by
    /// two hex digits (Java throws).
    package static func decode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                output.append(high << 4 | low)
                index += 3
                continue
            }
            output.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The value of a hexadecimal digit (`0-9 a-f A-F`), or nil: what `%XX` escapes are read with.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `text.split(String.valueOf(separator))` in Java: every part, trailing empty ones dropped (`"a&&"` is `["a"]`,
    /// `""` is `[""]`).
    package static func javaSplit(_ text: String, _ separator: UInt8) -> [String] {
        if text.isEmpty { return [""] }
        var parts = text.utf8.split(separator: separator, omittingEmptySubsequences: false).map { String(Substring($0)) }
        while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        if parts.count == 1, parts[0].isEmpty { return [] }
        return parts
    }
}
