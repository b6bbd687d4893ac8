import AutomationSupport

/// A request the server refused before any stub or endpoint saw it (a head it could not parse, one too large or
/// too slow, a body over the limit, plain HTTP on the HTTPS port): what the journal records of it, so it counts as
/// an unexpected request, with the refusal as its reason.
enum RefusedRequest {
    /// The request as far as its head was read: parsed when it parses, else `?` and its first line (escaped, at
    /// most 200 bytes) as the target.
    static func request(_ head: [UInt8], clientAddress: String) -> HTTPRequest {
        let end = ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: head) ?? head.count
        if let parsed = try? RequestHead.parse(head[..<end]) {
            return HTTPRequest(method: parsed.method, target: parsed.target, headers: parsed.headers, clientAddress: clientAddress)
        }
        // What did not parse may be any bytes (a TLS record, garbage): printable ASCII as it is, the rest as \xNN.
        var shown = ""
        for byte in head.prefix(while: { $0 != 0x0D && $0 != 0x0A }).prefix(200) {
            if byte >= 0x20 && byte < 0x7F && byte != 0x5C {
                shown.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return HTTPRequest(method: "?", target: shown, clientAddress: clientAddress)
    }

    /// The answer the refusal gave, as the journal shows it.
    static func response(_ error: RequestHead.Error) -> MockResponse {
        .text(error.message + "\n", status: error.status)
    }
}
