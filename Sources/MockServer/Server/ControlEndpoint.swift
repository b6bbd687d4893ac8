import AutomationSupport

/// The control channel's endpoints, answered from a ``ControlQueue`` (``EndpointPolicy`` guards them as the
/// admin API; writes carry `Content-Type: application/octet-stream`):
/// - `POST /__sut/control` queues its body as a message: 202 with `{"id":N}` and `X-Sut-Message-Id: N`; with
///   `?waitForAckMs=M` it waits up to M ms for the program's acknowledgement: 200 with the program's reply
///   as the body, 504 when none came, or 503 when the run ended first (its program exited, the server stopped).
/// - `GET /__sut/control?timeoutMs=N` (with `Content-Type: application/octet-stream`, as writes: it takes
///   the message off the queue) waits up to N ms (default 25,000) for the next message: 200 with the message
///   as the body and its id in `X-Sut-Message-Id`, 204 when none came.
/// - `POST /__sut/control/ack?id=N` acknowledges message N with the body as the reply: 204; 404 for an id never
///   sent; 409 for a message not delivered yet, already acknowledged, or withdrawn (its sender was told 504: a
///   message whose sender gave up is never delivered after). Bodies that are not UTF-8 are refused (400).
/// - Every request may name the channel (`&channel=ID`, as the program's `SUT_CONTROL_URL` gives it): one naming
///   another server's channel is refused (410) and takes nothing: a program left from an earlier run on this port.
enum ControlEndpoint {
    /// The longest a control request waits (`timeoutMs`, `waitForAckMs`).
    static let waitRange = 0...120_000

    static func respond(to request: HTTPRequest, queue: ControlQueue) -> MockResponse {
        do {
            if request.path == "/__sut/control/ack" {
                try refuseUnknownQuery(request, allowed: ["id", "channel"])
                try checkChannel(request, queue: queue)
                return try acknowledge(request, queue: queue)
            }
            switch request.method {
            case "POST":
                try refuseUnknownQuery(request, allowed: ["waitForAckMs", "channel"])
                try checkChannel(request, queue: queue)
                return try send(request, queue: queue)
            case "GET":
                try refuseUnknownQuery(request, allowed: ["timeoutMs", "channel"])
                try checkChannel(request, queue: queue)
                return try receive(request, queue: queue)
            default: return .text("use GET (receive) or POST (send)\n", status: 405)
            }
        } catch {
            return error.response
        }
    }

    /// `POST /__sut/control/ack?id=N`.
    private static func acknowledge(_ request: HTTPRequest, queue: ControlQueue) throws(EndpointRefusal) -> MockResponse {
        guard request.method == "POST" else { return .text("use POST /__sut/control/ack?id=N with the reply as the body\n", status: 405) }
        guard let id = try request.boundedQueryInteger("id", in: 1...Int.max, bareDigits: true) else {
            return .text("missing ?id=N (the X-Sut-Message-Id of the message)\n", status: 400)
        }
        // An id is written as the endpoint wrote it: `01` was taken for message 1, where `1.0` and `0x1` are refused.
        guard request.queryValues("id") == [String(id)] else {
            return .text(
                "?id=\(request.queryValues("id").first?.prefix(40).escapingControlCharacters() ?? ""): write the id as X-Sut-Message-Id gave it (\(id))\n",
                status: 400)
        }
        let reply = try text(of: request, what: "the reply")
        switch queue.acknowledge(id, reply: reply) {
        case nil: return MockResponse(status: 204)
        case .neverSent?: return .text("no control message \(id) was sent\n", status: 404)
        case .notDelivered?:
            return .text("control message \(id) was not delivered yet: take it with GET /__sut/control first\n", status: 409)
        case .alreadyAcknowledged?: return .text("control message \(id) was already acknowledged; its sender has that reply\n", status: 409)
        case .withdrawn?:
            return .text("control message \(id) was withdrawn: its sender was told 504 (not acknowledged in time)\n", status: 409)
        }
    }

    /// `POST /__sut/control[?waitForAckMs=M]`.
    private static func send(_ request: HTTPRequest, queue: ControlQueue) throws(EndpointRefusal) -> MockResponse {
        // 0 ms is a wait no program can meet (it would always be a 504): leave the parameter out not to wait.
        let waitForAck = try request.boundedQueryInteger("waitForAckMs", in: 1...waitRange.upperBound, bareDigits: true)
        let id: Int
        switch queue.enqueue(try text(of: request, what: "the message")) {
        case .success(let queued): id = queued
        case .failure(let problem):
            if case .tooLarge = problem { return .text("\(problem)\n", status: 413) }
            return .unanswered("\(problem)", status: 503) // not queued: a refusal (a strict run fails on it)
        }
        if let waitForAck {
            let reply: String
            switch queue.waitForAcknowledgementOrWithdraw(id, timeoutMs: waitForAck) {
            case .acknowledged(let text): reply = text
            case .deliveredNotAcknowledged:
                return timedOut(
                    id, delivered: true,
                    "control message \(id) was written to the program's poll but not acknowledged within \(waitForAck) ms: the program may "
                        + "have read and acted on it, or stalled or died before reading it (do not resend blindly); its late acknowledgement "
                        + "will be refused (409)")
            case .withdrawnUndelivered:
                return timedOut(
                    id, delivered: false,
                    "the program did not take control message \(id) within \(waitForAck) ms; it is withdrawn (never delivered now)")
            case .runEnded(let delivered):
                return unanswered(
                    id, delivered: delivered, status: 503,
                    "the run ended before the program acknowledged control message \(id) (\(delivered ? "it had been written to the program's poll" : "it never took it"))"
                )
            }
            return MockResponse(
                status: 200, headers: ["X-Sut-Message-Id": String(id), "Content-Type": "text/plain; charset=utf-8"], body: Array(reply.utf8)
            )
        }
        return MockResponse(
            status: 202, headers: ["X-Sut-Message-Id": String(id), "Content-Type": "application/json"], body: Array("{\"id\":\(id)}".utf8))
    }

    /// The 504 of a `waitForAckMs` that ran out; `X-Sut-Message-Delivered` says whether the program took the message.
    private static func timedOut(_ id: Int, delivered: Bool, _ text: String) -> MockResponse {
        unanswered(id, delivered: delivered, status: 504, text)
    }

    /// A `waitForAckMs` that ended with no acknowledgement: 504 (it ran out) or 503 (the run ended first).
    private static func unanswered(_ id: Int, delivered: Bool, status: Int, _ text: String) -> MockResponse {
        MockResponse(
            status: status,
            headers: [
                "X-Sut-Message-Id": String(id), "X-Sut-Message-Delivered": delivered ? "true" : "false",
                "Content-Type": "text/plain; charset=utf-8",
            ],
            body: Array((text + "\n").utf8))
    }

    /// Refuses a request naming a channel other than this server's (`?channel=`, once at most): 410, nothing taken.
    private static func checkChannel(_ request: HTTPRequest, queue: ControlQueue) throws(EndpointRefusal) {
        let named = request.queryValues("channel")
        guard !named.isEmpty else { return }
        guard named.count == 1 else { throw EndpointRefusal(.text("?channel= is given \(named.count) times; give it once\n", status: 400)) }
        guard named[0] != queue.channel else { return }
        throw EndpointRefusal(
            .text(
                "control channel \(named[0].prefix(64).escapingControlCharacters()) is not this server's: the program was started "
                    + "for another run (a server that has ended); nothing is delivered to it here\n", status: 410))
    }

    /// Refuses a query parameter the endpoint does not read (a misspelt `waitForAck=` would otherwise be a 202 that
    /// never waited): 400 naming it and what the endpoint reads.
    private static func refuseUnknownQuery(_ request: HTTPRequest, allowed: [String]) throws(EndpointRefusal) {
        // An empty piece (`?&id=1`, a trailing `&`) names nothing.
        guard let unknown = request.queryItems.first(where: { !allowed.contains($0.name) && !($0.name.isEmpty && $0.value.isEmpty) }) else {
            return
        }
        let near = allowed.first { $0.lowercased() == unknown.name.lowercased() || $0.lowercased().hasPrefix(unknown.name.lowercased()) }
        throw EndpointRefusal(
            .text(
                "?\(unknown.name.prefix(40).escapingControlCharacters()) is not a parameter of \(request.method) \(request.path)"
                    + (near.map { " (did you mean \($0)?)" } ?? "") + "; it reads "
                    + (allowed.isEmpty ? "none" : allowed.map { "?\($0)=" }.joined(separator: ", ")) + "\n", status: 400))
    }

    /// A message or reply body as text: bytes that are not UTF-8 are refused (400), never delivered as U+FFFD.
    private static func text(of request: HTTPRequest, what: String) throws(EndpointRefusal) -> String {
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw EndpointRefusal(
                .text("\(what) is not UTF-8: the channel carries text; send UTF-8 (or encode bytes, e.g. base64)\n", status: 400))
        }
        return text
    }

    /// `GET /__sut/control[?timeoutMs=N]`.
    private static func receive(_ request: HTTPRequest, queue: ControlQueue) throws(EndpointRefusal) -> MockResponse {
        let timeout = try request.boundedQueryInteger("timeoutMs", in: waitRange, bareDigits: true) ?? 25_000
        let peer = request.peer
        guard let message = queue.take(timeoutMs: timeout, peerGone: { peer?.hasGone ?? false }) else { return MockResponse(status: 204) }
        var response = MockResponse(
            status: 200, headers: ["X-Sut-Message-Id": String(message.id), "Content-Type": "text/plain; charset=utf-8"],
            body: Array(message.text.utf8))
        // Delivered once written to a live client; else back to the queue for the next poller.
        response.handOver = HandOver { queue.handedOver(message, written: $0) }
        return response
    }
}
