#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Messages from the test to the running program (the pasteboard idea, done right): the test sends, the
/// program receives, and may acknowledge with a reply the test waits for.
///
/// The endpoint is `SUT_CONTROL_URL` (SUTApplication always sets it: the mock server's URL, or a loopback
/// endpoint of its own when no mock server runs), else the mock server's URL; the environment's only with the
/// launcher's `SUT_UNDER_TEST=1`.
///
/// ```swift
/// let channel = ControlChannel(AutomationBridge.shared)
/// while let message = channel?.receive(timeoutMs: 10_000) {
///     switch ControlCommand(message.text) {
///     case .entryPoint(let name)?: show(name)
///     case .setFlag(let key, let value)?: RuntimeFlags.shared.set(key, value)
///     case .clearFlag(let key)?: RuntimeFlags.shared.clear(key)
///     case nil where ControlCommand.problem(message.text) != nil: // a built-in command that does not parse
///         channel?.acknowledge(message, reply: "error: \(ControlCommand.problem(message.text)!)")
///         continue
///     case nil: handle(message.text)
///     }
///     channel?.acknowledge(message, reply: "done")
/// }
/// ```
public struct ControlChannel: Sendable {
    /// The endpoint's host (a loopback address).
    public let host: String
    /// The endpoint's port.
    public let port: UInt16
    /// The server's channel (`?channel=` of `SUT_CONTROL_URL`), named in every request: a server that is not the one
    /// this program was started for refuses it (410) instead of handing it another run's messages. nil: none named.
    public let channel: String?

    /// The bridge's control endpoint (``AutomationBridge/controlURL``: `SUT_CONTROL_URL`, else the mock server's URL, read
    /// only under test and from the environment only with `SUT_UNDER_TEST=1`); nil when there is none, or when
    /// it is not a plain `http://` URL with a numeric host (IPv4 or IPv6) and a port 1-65535 (said once on stderr: the
    /// channel speaks no TLS and resolves no names).
    public init?(_ bridge: AutomationBridge) {
        guard let text = bridge.controlURLText else {
            // Without SUT_UNDER_TEST=1 an endpoint left exported by a shell or CI job is not this launch's (R9C-2).
            if let left = [WireFormat.controlURLVariable, WireFormat.mockServerURLVariable].first(where: { bridge.environment[$0] != nil })
            {
                HostStandardError.writeOnce(
                    key: "control-url",
                    "ControlChannel: ignoring \(left): the launcher did not set SUT_UNDER_TEST=1, so it is not this launch's; "
                        + "messages from the test will not arrive\n")
            }
            return nil
        }
        let url = URL(string: text)
        guard let url, url.scheme?.lowercased() == "http", var host = url.host, let port = url.port, let value = UInt16(exactly: port),
            value > 0
        else {
            HostStandardError.writeOnce(
                key: "control-url",
                "ControlChannel: cannot use \(Self.shown(text)): the control channel speaks plain HTTP to http://ADDRESS:PORT "
                    + "(sut-launch sets SUT_CONTROL_URL so, also for --https); messages from the test will not arrive\n")
            return nil
        }
        // `http://[::1]:PORT` (`--host ::1`): the address without its brackets.
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // A port written `+1` or `01` is not the one sut-launch wrote: it is refused with the rest.
        let written = text.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard LoopbackSocket.isNumericAddress(host), written.count >= 3, written[2].hasSuffix(":\(value)") else {
            HostStandardError.writeOnce(
                key: "control-url",
                "ControlChannel: cannot use \(Self.shown(text)): the host must be a numeric address (127.0.0.1, ::1), never a "
                    + "name, and the port a number 1-65535 as sut-launch writes them; messages from the test will not arrive\n")
            return nil
        }
        let named = (url.query ?? "").split(separator: "&").filter { $0.hasPrefix("channel=") }.map { $0.dropFirst("channel=".count) }
        guard named.count <= 1, named.allSatisfy(Self.isChannel) else {
            HostStandardError.writeOnce(
                key: "control-url",
                "ControlChannel: cannot use \(Self.shown(text)): ?channel= must be given once, as 1 to 64 hex digits "
                    + "(as sut-launch sets SUT_CONTROL_URL); messages from the test will not arrive\n")
            return nil
        }
        self.host = host
        self.port = value
        self.channel = named.first.map(String.init)
    }

    private static func isChannel(_ text: Substring) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Text from outside as shown in a line: control characters escaped, at most 100 characters.
    private static func shown(_ text: String) -> String {
        let clean = HostEscaping.escaped(text)
        return clean.count > 100 ? String(clean.prefix(100)) + "…" : clean
    }

    /// An endpoint given directly (tests of the channel itself), naming `channel` when given.
    public init(host: String, port: UInt16, channel: String? = nil) {
        self.host = host
        self.port = port
        self.channel = channel
    }

    /// `&channel=ID` when the endpoint named one, else nothing.
    private var channelQuery: String { channel.map { "&channel=\($0)" } ?? "" }

    /// Waits up to `timeoutMs` for the next message. nil when none came or the endpoint cannot be reached.
    /// The server waits at most 120,000 ms per request: a longer `timeoutMs` waits that long.
    public func receive(timeoutMs: Int = 25_000) -> ControlMessage? {
        let wait = min(max(timeoutMs, 0), 120_000)
        let answer = exchange("GET", "/__sut/control?timeoutMs=\(wait)\(channelQuery)", timeoutMs: wait + 5_000)
        if case .failure(let refusal)? = answer {
            // Never acted on, never acknowledged: the test's send sees no acknowledgement. One line per reason (a proxy
            // that answers every poll so is said once, not ten times a second).
            HostStandardError.writeOnce(
                key: "control-refused " + refusal.reason,
                "ControlChannel: refused an answer from the control channel at \(endpoint) (\(refusal.reason)); "
                    + "the message in it, if any, was not taken and is not acknowledged\n")
            return nil
        }
        guard case .success(let answer)? = answer, answer.status == 200 else {
            // 204: no message in time. Anything else means no message will ever arrive: say so once, never in silence.
            if case .success(let other)? = answer, other.status == 204 { return nil }
            if case .success(let other)? = answer { reportUnreachable(other) } else { reportUnreachable(nil) }
            return nil
        }
        return ControlMessage(id: answer.messageId, text: answer.body)
    }

    /// The text of the next message (``receive(timeoutMs:)`` without the id: such a message is never acknowledged).
    public func next(timeoutMs: Int = 25_000) -> String? { receive(timeoutMs: timeoutMs)?.text }

    /// Tells the test the message was handled, with an optional reply (the test's `send(_:waitForAck:)` returns it).
    /// - Returns: false when the endpoint could not be reached or does not know the message.
    @discardableResult
    public func acknowledge(_ message: ControlMessage, reply: String = "") -> Bool {
        guard let id = message.id else { return false }
        guard case .success(let answer)? = exchange("POST", "/__sut/control/ack?id=\(id)\(channelQuery)", body: reply, timeoutMs: 5_000)
        else { return false }
        return answer.status == 204
    }

    /// One line on stderr, once per process: the endpoint could not be reached or refused the program.
    private func reportUnreachable(_ answer: ControlResponse?) {
        let reason =
            answer.map { "it answered \($0.status): \(Self.shown(String($0.body.prefix { $0 != "\n" })))" }
            ?? "no answer (nothing listens there, the connection was not accepted within \(LoopbackSocket.connectLimitMs / 1000) s, or it failed)"
        HostStandardError.writeOnce(
            key: "control-unreachable",
            "ControlChannel: cannot reach the control channel at \(endpoint) (\(reason)); messages from the test will not arrive\n")
    }

    /// The endpoint as a URL without its path, for lines on stderr.
    private var endpoint: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    /// A minimal blocking HTTP/1.1 exchange (the Host library keeps to FoundationEssentials: no URLSession);
    /// the socket calls are `LoopbackSocket`'s.
    private func exchange(_ method: String, _ target: String, body: String = "", timeoutMs: Int) -> Result<
        ControlResponse, ControlResponse.Refusal
    >? {
        let payload = Array(body.utf8)
        // The endpoint takes writes typed application/octet-stream only (a type a web page cannot send without a
        // CORS preflight); IPv6 hosts go in brackets.
        let hostField = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request =
            Array(
                ("\(method) \(target) HTTP/1.1\r\nHost: \(hostField)\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n").utf8) + payload
        // A message is at most the server's 16 MiB body limit; an answer cut at the read limit is refused as cut short.
        guard let response = LoopbackSocket.exchange(host: host, port: port, request: request, timeoutMs: timeoutMs, limit: 64 << 20)
        else { return nil }
        // Nothing at all (the connection closed at once): not reached, as before; anything else is read strictly.
        if response.isEmpty { return nil }
        return ControlResponse.parse(response)
    }
}

/// One message from the test.
public struct ControlMessage: Sendable, Hashable {
    /// The endpoint's id for it (nil from an endpoint that gives none): what ``ControlChannel/acknowledge(_:reply:)`` names.
    public var id: Int?
    /// What the test sent.
    public var text: String
    /// A message `text` with the endpoint's `id`.
    public init(id: Int?, text: String) {
        self.id = id
        self.text = text
    }
}

/// The messages every program understands the same way (the test's `switchEntryPoint`, `setFlag`, `clearFlag`
/// send them): `entryPoint NAME`, `flag set KEY=VALUE` (VALUE read as `--flag` reads it: true/false, a
/// number, else text), `flag set KEY:=JSON` and `flag clear KEY`.
public enum ControlCommand: Sendable, Hashable {
    case entryPoint(String)
    case setFlag(String, FlagValue)
    case clearFlag(String)

    /// The built-in command the text is, or nil for any other message.
    public init?(_ text: String) {
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        // Words apart by one space, as `text` writes them: `entryPoint  a` was taken as "a" where `flag set  k=1` was refused.
        guard words.joined(separator: " ") == text else { return nil }
        switch (words.first, words.count) {
        case ("entryPoint", 2) where Self.isOneWord(words[1][...]): self = .entryPoint(words[1])
        case ("flag", 3) where words[1] == "set":
            let assignment = words[2]
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else { return nil }
            let value = String(assignment[assignment.index(after: equals)...])
            var key = assignment[..<equals]
            guard Self.isOneWord(key) else { return nil }
            if key.last == ":" {
                key = key.dropLast()
                // The value alone, as one JSON value with the CLI's rules (pasted into {"v":…}, `"a","v":1` set "a").
                guard !key.isEmpty, case .success(let decoded) = StrictJSON.parse(value) else { return nil }
                self = .setFlag(String(key), decoded)
            } else {
                // The CLI's `-f k=v` rule, the same code: a decimal the Double would round is refused.
                guard FlagValue.inferredProblem(key: String(key), text: value) == nil else { return nil }
                self = .setFlag(String(key), FlagValue.inferred(from: value))
            }
        case ("flag", 3) where words[1] == "clear":
            guard Self.isOneWord(words[2][...]) else { return nil }
            self = .clearFlag(words[2])
        default: return nil
        }
    }

    /// A key is one word: no space or other white space (`flag clear k extra`, `flag set  k=x`, `flag set k =x` were
    /// taken as keys with spaces, answered as if done, with nothing done), and no invisible character (a key with a
    /// ZERO WIDTH SPACE set another flag than the one shown).
    static func isOneWord(_ key: Substring) -> Bool {
        !key.isEmpty && !key.contains(where: \.isWhitespace) && !key.unicodeScalars.contains(where: isInvisible)
    }

    /// A format character or another default-ignorable one (U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER, U+00AD SOFT
    /// HYPHEN, U+200E LEFT-TO-RIGHT MARK, a byte order mark): common in copied text, invisible where it is shown.
    /// A C0 control or DEL (R10C-15: `flag\0 set k=1` was an ordinary message, `flag clear k\0` another key) counts too.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .format || category == .control || scalar.properties.isDefaultIgnorableCodePoint
    }

    /// `text` as a problem line shows it: control characters escaped (`\u{1B}`, as the library's lines show them) and
    /// invisible ones too (`\u{200B}`), at most 80 characters.
    private static func shown(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(60)) + "…" : text
        var result = ""
        for scalar in HostEscaping.escaped(cut).unicodeScalars {
            if isInvisible(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Why `text` is not a built-in command although it is written as one (`flag set k:={"a":`, `flag set =x`,
    /// `flag set k:=1e400`, `flag clear`, `entryPoint`), in one line naming the value; nil for a built-in command
    /// that parses and for any other message. A program replies with it (`error: …`) instead of `ok`: a malformed
    /// command handled as an ordinary message was acknowledged with nothing done.
    public static func problem(_ text: String) -> String? {
        guard ControlCommand(text) == nil else { return nil }
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        let shown = shown(text)
        let other =
            words.joined(separator: " ") == text
            ? "'\(shown)': not a flag assignment" : "'\(shown)': one space between the words, none before or after them"
        switch (words.first, words.count > 1 ? words[1] : nil) {
        case ("entryPoint", _): return "'\(shown)': write entryPoint NAME (one word, one space before it)"
        case ("flag", "clear"): return "'\(shown)': write flag clear KEY (one word, nothing after it)"
        case ("flag", "set"):
            guard words.count == 3, let equals = words[2].firstIndex(of: "="), equals != words[2].startIndex else {
                return "'\(shown)': write flag set KEY=VALUE or flag set KEY:=JSON (a non-empty KEY)"
            }
            let value = String(words[2][words[2].index(after: equals)...])
            if words[2][..<equals] == ":" { return "'\(shown)': the key is empty; write flag set KEY:=JSON" }
            if !isOneWord(words[2][..<equals]) || text.hasPrefix("flag set  ") {
                return "'\(shown)': a KEY is one word (no spaces, no invisible characters); write flag set KEY=VALUE or flag set KEY:=JSON"
            }
            guard words[2][..<equals].last == ":" else {
                return FlagValue.inferredProblem(key: String(words[2][..<equals]), text: value) ?? other
            }
            if case .failure(let failure) = StrictJSON.parse(value) {
                let excerpt = HostEscaping.escaped(value.count > 40 ? String(value.prefix(40)) + "…" : value)
                return "'\(shown)': the value after := is not a JSON value (\(excerpt)): \(failure.message)"
            }
            return other
        default: return nearMiss(words.first ?? "", shown: shown)
        }
    }

    /// A first word that is a built-in's in another spelling (`entrypoint`, `FLAG`, `flagset`, `flag` alone or with
    /// another second word): refused, naming the commands, rather than answered `ok` as an ordinary message.
    private static func nearMiss(_ firstWord: String, shown: String) -> String? {
        // A byte order mark or another invisible character in the word (R9C-5: U+200B, U+2060, U+00AD, U+200E before or
        // inside it), or a space other than U+0020 after it (NBSP, U+3000 from a web page or a document):
        // `flag<NBSP>set k=1`, `<BOM>entryPoint a` and `<ZWSP>flag set k=1` were acknowledged `ok` with nothing done.
        var visible = ""
        visible.unicodeScalars.append(contentsOf: firstWord.unicodeScalars.filter { !isInvisible($0) })
        let plain = visible.prefix { !$0.isWhitespace }
        // R10C-3: a compatibility form (the ligature U+FB02 in `ﬂag`, fullwidth `ｆｌａｇ`) or a combining mark (`flag` +
        // U+0301) is the command word to a reader too: folded as NFKC folds it, the marks dropped.
        let word = Self.compatibilityFolded(String(plain))
        let folded = word.lowercased().filter { $0 != "-" && $0 != "_" }
        let spelt = "write entryPoint NAME, flag set KEY=VALUE, flag set KEY:=JSON or flag clear KEY, spelt so"
        let commandWords = ["entrypoint", "flag", "flags", "flagset", "flagclear", "setflag", "clearflag"]
        if word != String(plain), commandWords.contains(folded) {
            let odd = plain.unicodeScalars.filter { $0.value > 0x7F }.prefix(3).map {
                "U+" + String($0.value, radix: 16, uppercase: true) + ($0.properties.name.map { " " + $0 } ?? "")
            }
            return "'\(shown)': not a built-in command as written (\(odd.joined(separator: ", ")) in the command word, where the "
                + "command has plain letters); \(spelt)"
        }
        if word != firstWord, commandWords.contains(folded) {
            return "'\(shown)': not a built-in command as written (an invisible character such as a byte order mark or "
                + "U+200B, or a space other than U+0020 between the words); \(spelt)"
        }
        if word == "flag" { return "'\(shown)': not a flag command; \(spelt)" }
        guard ["entrypoint", "flag", "flags", "flagset", "flagclear", "setflag", "clearflag"].contains(folded) else { return nil }
        return "'\(shown)': not a built-in command as written; \(spelt)"
    }

    /// `word` as its compatibility form reads: fullwidth letters (U+FF01-U+FF5E) as ASCII, the Latin ligatures U+FB00-U+FB06
    /// as their letters, mathematical and circled letters as plain ones, combining marks dropped. Only to tell a near
    /// miss of a command word; no text is changed by it.
    static func compatibilityFolded(_ word: String) -> String {
        let ligatures: [UInt32: String] = [
            0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st", 0xFB06: "st",
        ]
        var result = ""
        for scalar in word.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                result.unicodeScalars.append(ascii)
            } else if let letters = ligatures[scalar.value] {
                result += letters
            } else if scalar.value > 0x7F, let letter = plainLetter(scalar) {
                result += letter
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The plain letter a mathematical, circled or parenthesized letter is (`MATHEMATICAL BOLD SMALL F`: f), by its
    /// Unicode name; nil for any other scalar.
    private static func plainLetter(_ scalar: Unicode.Scalar) -> String? {
        guard let name = scalar.properties.name,
            name.hasPrefix("MATHEMATICAL ") || name.hasPrefix("CIRCLED LATIN ") || name.hasPrefix("PARENTHESIZED LATIN "),
            let last = name.split(separator: " ").last, last.count == 1, last.first?.isLetter == true
        else { return nil }
        return name.contains(" SMALL ") ? last.lowercased() : String(last)
    }

    /// The message text that carries the command.
    public var text: String {
        switch self {
        case .entryPoint(let name): "entryPoint \(name)"
        case .setFlag(let key, let value):
            if case .string(let text) = value, FlagValue.inferred(from: text) == value, !text.contains(" ") {
                "flag set \(key)=\(text)"
            } else {
                "flag set \(key):=\(value)"
            }
        case .clearFlag(let key): "flag clear \(key)"
        }
    }
}
