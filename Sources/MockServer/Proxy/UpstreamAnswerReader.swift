import AutomationSupport

/// Reads one HTTP/1.1 answer from a backend: interim 1xx answers skipped, the head parsed and bounded, the body
/// framed by `Transfer-Encoding: chunked`, `Content-Length` or the connection's end, each within its deadline.
struct AnswerReader {
    let transport: any ConnectionTransport
    let limits: UpstreamClient.Limits
    /// The backend as messages name it.
    let shown: String
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(transport: any ConnectionTransport, limits: UpstreamClient.Limits, shown: String) {
        self.transport = transport
        self.limits = limits
        self.shown = shown
    }

    private func failure(_ why: String, status: Int = 502) -> UpstreamFailure {
        UpstreamFailure(status: status, reason: "\(shown) \(why)")
    }

    /// The answer; `expectBody` false for a HEAD request (no body follows whatever the head says).
    mutating func read(expectBody: Bool) -> Result<UpstreamAnswer, UpstreamFailure> {
        let headDeadline = MonotonicClock.milliseconds() + Double(limits.answerTimeoutMs)
        var answer: UpstreamAnswer
        var headEnd: Int
        repeat {
            switch readHead(deadline: headDeadline) {
            case .failure(let failure): return .failure(failure)
            case .success(let parsed): (answer, headEnd) = parsed
            }
            buffer.removeFirst(headEnd)
        } while (100...199).contains(answer.status) && answer.status != 101
        guard answer.status != 101 else { return .failure(failure("switched protocols (101): a protocol upgrade cannot be proxied")) }
        if !expectBody || answer.status == 204 || answer.status == 304 { return .success(answer) }
        let bodyDeadline = MonotonicClock.milliseconds() + Double(limits.bodyTimeoutMs)
        switch readBody(answer.headers, deadline: bodyDeadline) {
        case .failure(let failure): return .failure(failure)
        case .success(let body): answer.body = body
        }
        answer.headers = HTTPHeaders(answer.headers.entries.filter { $0.name.lowercased() != "transfer-encoding" })
        return .success(answer)
    }

    /// Receives more bytes before `deadline`; nil when some came, else the failure (a timeout is 504).
    private mutating func receiveMore(deadline: Double, during what: String) -> UpstreamFailure? {
        while true {
            let remaining = deadline - MonotonicClock.milliseconds()
            guard remaining > 0, transport.waitReadable(timeoutMs: Int32(clamping: Int(remaining))) else {
                return failure(
                    "did not finish its \(what) in time (\(limits.answerTimeoutMs / 1000) s for the head, \(limits.bodyTimeoutMs / 1000) s for the body)",
                    status: 504)
            }
            let count = transport.receive(into: &buffer, scratch: &scratch, wait: false)
            if count == -2 { continue }
            if count <= 0 { return failure("closed the connection before the end of its \(what)") }
            return nil
        }
    }

    private mutating func readHead(deadline: Double) -> Result<(UpstreamAnswer, Int), UpstreamFailure> {
        while true {
            if let end = ByteSearch.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A], in: buffer) {
                return Self.parseHead(buffer[..<end]).map { ($0, end + 4) }.mapError { failure($0.reason) }
            }
            // RFC 9112 §2.2: a bare LF may be read as a line end, but relaying or recording such an answer as HTTP
            // would be a guess; it was reported as "closed the connection before the end of its answer".
            if buffer.starts(with: Array("HTTP/".utf8)), let lineFeed = buffer.firstIndex(of: 0x0A), buffer[lineFeed - 1] != 0x0D {
                return .failure(failure("answered with lines that end in a bare LF: the lines of an HTTP answer must end in CRLF"))
            }
            if buffer.count > limits.maxHeadBytes {
                return .failure(failure("sent an answer head longer than \(limits.maxHeadBytes) bytes"))
            }
            if let problem = receiveMore(deadline: deadline, during: "answer") {
                if buffer.isEmpty, problem.status == 504 {
                    return .failure(failure("did not answer within \(limits.answerTimeoutMs / 1000) s", status: 504))
                }
                return .failure(problem)
            }
        }
    }

    /// The status line and fields; the error is the reason.
    static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<UpstreamAnswer, UpstreamFailure> {
        // obs-text (a Latin-1 byte) is legal on the wire, but read as UTF-8 it became U+FFFD, relayed and recorded as
        // such: a head that is not UTF-8 is refused by name, as a request's is (400), never changed.
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(notUTF8(bytes)) }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        let statusLine = lines.popFirst() ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3,
            let status = Int(parts[1]), (100...599).contains(status)
        else {
            return .failure(
                UpstreamFailure(
                    status: 502, reason: "did not answer HTTP/1.x (it sent \"\(statusLine.prefix(60).escapingControlCharacters())\")"))
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }),
                !line.contains(where: { $0 == "\0" || $0 == "\r" || $0 == "\n" })
            else {
                return .failure(
                    UpstreamFailure(status: 502, reason: "sent a malformed header line \"\(line.prefix(60).escapingControlCharacters())\""))
            }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces())
        }
        return .success(UpstreamAnswer(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: []))
    }

    /// The 502 for a head holding bytes that are not UTF-8, naming the line (its header name) and the first such byte.
    static func notUTF8(_ bytes: ArraySlice<UInt8>) -> UpstreamFailure {
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        where String(validating: line, as: UTF8.self) == nil {
            let name = line.firstIndex(of: UInt8(ascii: ":")).map { String(decoding: line[..<$0], as: UTF8.self) }
            let byte = line.first { $0 >= 0x80 } ?? 0
            let hex = String(byte, radix: 16, uppercase: true)
            let place = name.map { "the value of header \(HTTPField.quoted($0))" } ?? "its status line"
            return UpstreamFailure(
                status: 502,
                reason:
                    "sent \(place) with byte 0x\(hex), which is not UTF-8 (obs-text); sut-launch relays and records a head as UTF-8 text and will not change it to U+FFFD"
            )
        }
        return UpstreamFailure(status: 502, reason: "sent a head that is not UTF-8")
    }

    private mutating func readBody(_ headers: HTTPHeaders, deadline: Double) -> Result<[UInt8], UpstreamFailure> {
        let tooLarge = failure("sent a body larger than \(limits.maxBodyBytes / (1024 * 1024)) MiB, the proxy's limit")
        if let coding = headers["Transfer-Encoding"]?.lowercased() {
            guard coding.split(separator: ",").last.map({ $0.trimmingSpaces() }) == "chunked" else {
                return readToEnd(deadline: deadline, tooLarge: tooLarge)
            }
            var decoder = ChunkedDecoder(limit: limits.maxBodyBytes)
            while true {
                do {
                    if case .done = try decoder.decode(buffer[...]) { return .success(decoder.body) }
                } catch {
                    return .failure(error.status == 413 ? tooLarge : failure("sent a malformed chunked body: \(error.message)"))
                }
                if let problem = receiveMore(deadline: deadline, during: "body") { return .failure(problem) }
            }
        }
        if let lengths = Optional(headers.values("Content-Length")), !lengths.isEmpty {
            guard Set(lengths).count == 1, let length = Int(lengths[0]), length >= 0,
                lengths[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else {
                return .failure(failure("sent an invalid Content-Length \"\(lengths.joined(separator: ", ").prefix(40))\""))
            }
            guard length <= limits.maxBodyBytes else { return .failure(tooLarge) }
            while buffer.count < length {
                if let problem = receiveMore(deadline: deadline, during: "body (\(buffer.count) of \(length) bytes)") {
                    return .failure(problem)
                }
            }
            return .success(Array(buffer.prefix(length)))
        }
        return readToEnd(deadline: deadline, tooLarge: tooLarge)
    }

    /// A body delimited by the connection's end.
    private mutating func readToEnd(deadline: Double, tooLarge: UpstreamFailure) -> Result<[UInt8], UpstreamFailure> {
        while true {
            guard buffer.count <= limits.maxBodyBytes else { return .failure(tooLarge) }
            let remaining = deadline - MonotonicClock.milliseconds()
            guard remaining > 0, transport.waitReadable(timeoutMs: Int32(clamping: Int(remaining))) else {
                return .failure(failure("did not finish its body within \(limits.bodyTimeoutMs / 1000) s", status: 504))
            }
            let count = transport.receive(into: &buffer, scratch: &scratch, wait: false)
            if count == -2 { continue }
            if count == 0 { return .success(buffer) }
            if count < 0 { return .failure(failure("broke the connection during its body")) }
        }
    }
}
