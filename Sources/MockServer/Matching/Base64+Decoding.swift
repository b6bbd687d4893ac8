import AutomationSupport

extension Base64 {
    /// Why a text is not base64, quoting what WireMock's decoder (Guava's `BaseEncoding.base64()`) objects to.
    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    /// Decodes standard base64 as WireMock's `binaryEqualTo` does: `=` padding at the end is optional (any number of
    /// them), the length without it must not leave one character over, and any character outside `A-Z a-z 0-9 + /`
    /// (a space, a line break, the URL-safe `-` and `_`, an `=` before the end) is refused by name.
    static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
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
