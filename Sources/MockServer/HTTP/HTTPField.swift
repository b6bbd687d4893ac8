import AutomationSupport

/// What RFC 9110 allows in a response head: checked where names and values enter (stub files, the admin API)
/// and, last, by ``ResponseWriter`` for values computed per request (templates, code), so that no CR, LF, NUL
/// or other control character reaches the wire from anywhere.
package enum HTTPField {
    /// A field name is one or more tchar (RFC 9110 §5.1, §5.6.2).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenCharacter)
    }

    /// A field value or reason phrase holds VCHAR, obs-text, SP and HTAB only (RFC 9110 §5.5, RFC 9112 §4).
    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy(isValueByte)
    }

    /// Why a status line or header cannot be written as given, or nil when all of it can.
    static func problem(in response: MockResponse) -> String? {
        guard (100...999).contains(response.status) else { return "status \(response.status) is not three digits" }
        if let reason = response.reason, !isValidValue(reason) { return "the reason phrase \(quoted(reason)) \(badByte(in: reason))" }
        for (name, value) in response.headers {
            if !isValidName(name) { return "the header name \(quoted(name)) \(badByte(in: name, name: true))" }
            if !isValidValue(value) { return "the value of header \(quoted(name)) \(badByte(in: value))" }
        }
        return nil
    }

    /// The response, or when its head cannot be written as given (``problem(in:)``), a 500 whose body says why.
    static func checked(_ response: MockResponse) -> MockResponse {
        guard let problem = problem(in: response) else { return response }
        return .unanswered("sut-launch did not send this answer: \(problem)", status: 500)
    }

    /// `holds CR (0x0D), which HTTP forbids there`, for the first byte that is not allowed.
    static func badByte(in text: String, name: Bool = false) -> String {
        if name && text.isEmpty { return "is empty" }
        guard let byte = text.utf8.first(where: { name ? !isTokenCharacter($0) : !isValueByte($0) }) else { return "is valid" }
        let label: String =
            switch byte {
            case 0x00: "NUL"
            case 0x09: "a tab"
            case 0x0A: "LF"
            case 0x0D: "CR"
            case 0x20: "a space"
            case 0x7F: "DEL"
            case 0x80...: "a non-ASCII character"
            default: byte < 0x20 ? "a control character" : "\"\(Character(Unicode.Scalar(byte)))\""
            }
        let hex = String(byte, radix: 16, uppercase: true)
        let rule =
            name
            ? "; a header name is letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 §5.6.2)"
            : ", which HTTP forbids in a response head (RFC 9110 §5.5)"
        return "holds \(label) (0x\(hex.count == 1 ? "0" + hex : hex))\(rule)"
    }

    /// The text in quotes on one line (its first 80 scalars): quotes and backslashes escaped, then control
    /// characters written as `\r`, `\n`, `\0`, `\u{1B}` (the one escaping of sut-launch's lines).
    static func quoted(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars.prefix(80) { // by scalar: a quote and a combining mark are one Character
            if scalar == "\\" || scalar == "\"" { escaped += "\\" }
            escaped.unicodeScalars.append(scalar)
        }
        return "\"" + escaped.escapingControlCharacters() + (text.unicodeScalars.count > 80 ? "…\"" : "\"")
    }

    /// RFC 9110 §5.5: field-vchar (VCHAR / obs-text), SP, HTAB.
    @inline(__always)
    static func isValueByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == 0x09
    }

    /// RFC 9110 §5.6.2 tchar.
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
