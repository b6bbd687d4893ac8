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
}
