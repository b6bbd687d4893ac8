/// One answer of the control endpoint, read strictly: a message is acted on and acknowledged only when its whole
/// body arrived as the head framed it. A body cut short (the server closed, the read limit or deadline passed),
/// two different `Content-Length`s, a `Transfer-Encoding` (the endpoint never sends one) or an id that is not the
/// canonical decimal the server writes (`01`, `-1`, `+1`) is refused, never read as some other message.
struct ControlResponse: Equatable {
    /// The status code.
    var status: Int
    /// The `X-Sut-Message-Id` (a positive decimal without leading zeros), nil when the answer names none.
    var messageId: Int?
    /// The body, as UTF-8 text.
    var body: String

    /// Why an answer was refused, in words that finish "refused an answer from the control channel (…)".
    struct Refusal: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Reads `bytes`, everything the connection gave: a status line, header lines, an empty line, then exactly
    /// `Content-Length` bytes (RFC 9112 §6.3). Without a `Content-Length` a message (200) is refused, and another
    /// answer's body runs to the close.
    static func parse(_ bytes: [UInt8]) -> Result<ControlResponse, Refusal> {
        guard let headEnd = headEnd(bytes) else {
            return .failure(Refusal(bytes.isEmpty ? "no answer at all" : "its head was cut short (no empty line after it)"))
        }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines[0]
        guard statusLine.hasPrefix("HTTP/1."), statusLine.utf8.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3)),
            (100...599).contains(status), statusLine.dropFirst(12).first.map({ $0 == " " }) ?? true
        else { return .failure(Refusal("its status line is not HTTP/1.x: \(shown(statusLine))")) }
        var lengths = Set<String>()
        var ids = Set<String>()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, line.first != " ", line.first != "\t" else {
                return .failure(Refusal("a header line is not NAME: VALUE: \(shown(line))"))
            }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }).trimmingTrailingBlanks()
            switch name {
            case "content-length": lengths.insert(value)
            case "x-sut-message-id": ids.insert(value)
            case "transfer-encoding":
                return .failure(
                    Refusal("Transfer-Encoding: \(shown(value)), which the channel does not read (the endpoint sends Content-Length)"))
            default: continue
            }
        }
        guard lengths.count <= 1, ids.count <= 1 else {
            let which = lengths.count > 1 ? "Content-Length" : "X-Sut-Message-Id"
            let values = (lengths.count > 1 ? lengths : ids).sorted().map(shown).joined(separator: ", ")
            return .failure(Refusal("it gives \(which) twice, differently (\(values))"))
        }
        var messageId: Int?
        if let id = ids.first {
            guard let value = canonicalNumber(id), value > 0 else {
                return .failure(Refusal("X-Sut-Message-Id \(shown(id)) is not a positive decimal without leading zeros"))
            }
            messageId = value
        }
        let received = bytes.count - headEnd - 4
        let declared: Int
        if let length = lengths.first {
            guard let value = canonicalNumber(length) else {
                return .failure(Refusal("Content-Length \(shown(length)) is not a decimal byte count"))
            }
            declared = value
        } else {
            // A message (200) is framed, always; another answer (a 410 naming why) may run to the close: it is only shown.
            if status == 200 { return .failure(Refusal("a message without a Content-Length (its end cannot be told)")) }
            declared = received
        }
        guard received == declared else {
            let how = received < declared ? "cut short (the connection closed or the read deadline passed)" : "longer than it"
            return .failure(Refusal("its body is \(received) bytes where Content-Length gives \(declared): \(how)"))
        }
        guard let body = String(validating: bytes[(headEnd + 4)...], as: UTF8.self) else {
            return .failure(Refusal("its body is not UTF-8"))
        }
        return .success(ControlResponse(status: status, messageId: messageId, body: body))
    }

    /// The offset of the `\r\n\r\n` that ends the head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// `0` or a decimal without a sign or leading zeros that an Int holds; nil for anything else.
    static func canonicalNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int(text)
    }

    /// A header text as it may be shown on stderr: control characters as `\u{…}`, at most 60 characters.
    static func shown<Text: StringProtocol>(_ text: Text) -> String {
        let clean = HostEscaping.escaped(String(text))
        return clean.count > 60 ? String(clean.prefix(60)) + "…" : clean
    }
}

extension String {
    fileprivate func trimmingTrailingBlanks() -> String {
        var text = Substring(self)
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
