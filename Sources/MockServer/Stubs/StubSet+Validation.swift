import AutomationSupport

/// Checks a loaded stub's values against what the wire and the admin API can carry: a response head HTTP can
/// write, and mapping ids the admin API can name.
extension StubSet {
    /// Refuses a reason phrase, header name or header value holding CR, LF, NUL or another character RFC 9110
    /// forbids (it would write header lines of its own: a forged `Set-Cookie`), naming the field.
    static func checkHead(_ response: MockResponse, _ reader: ObjectReader, headers key: String, reason reasonKey: String) throws(StubError)
    {
        if let reason = response.reason, !HTTPField.isValidValue(reason) {
            throw reader.error(reasonKey, "\"\(reasonKey)\": \(HTTPField.quoted(reason)) \(HTTPField.badByte(in: reason))")
        }
        for (name, value) in response.headers {
            if !HTTPField.isValidName(name) {
                throw reader.error(key, "\"\(key)\": the header name \(HTTPField.quoted(name)) \(HTTPField.badByte(in: name, name: true))")
            }
            if !HTTPField.isValidValue(value) {
                throw reader.error(key, "\"\(key)\": the value of \(HTTPField.quoted(name)) \(HTTPField.badByte(in: value))")
            }
        }
    }

    /// A mapping's `id` or `uuid` as WireMock reads it: a UUID in its 36-character form, any case; given back
    /// in lower case, as WireMock does. Anything else (`team/a`) could never be read or deleted by id.
    static func mappingID(_ reader: ObjectReader, _ key: String) throws(StubError) -> String? {
        guard let text = try reader.string(key) else { return nil }
        guard let id = uuid(text) else {
            throw reader.error(
                key,
                "\"\(key)\": \(HTTPField.quoted(text)) is not a UUID like 5a2c0e3e-1111-4222-8333-444455556666 (WireMock's mapping ids are UUIDs)"
            )
        }
        return id
    }

    /// `5A2C0E3E-1111-4222-8333-444455556666` → `5a2c0e3e-1111-4222-8333-444455556666`; nil when not that shape.
    static func uuid(_ text: some StringProtocol) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) else { return nil }
            }
        }
        return String(text).lowercased()
    }

    /// A UUID made from `text` (a mapping file's name and the mapping's position in it), for a mapping that names no
    /// id: WireMock gives such a mapping a UUID, and its clients get, put and delete mappings by it; the same mapping
    /// gets the same one on every load (reports compare across runs). Version 8 (RFC 9562), from FNV-1a and SplitMix64.
    static func uuid(derivedFrom text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var generator = SplitMix64(seed: hash)
        let high = (generator.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x8000
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = { (value: UInt64) in String(repeating: "0", count: 16 - String(value, radix: 16).count) + String(value, radix: 16) }
        let digits = Array(hex(high) + hex(low))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}
