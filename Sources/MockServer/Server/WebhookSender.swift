import AutomationSupport

/// Sends a mapping's webhooks after its answer, each on a thread of its own: rendered with the answered request,
/// after its delay, to this machine only, within a deadline. A webhook that could not be delivered is a failure of
/// the server's checks (``ServerSummary/failures``), never only a log line.
enum WebhookSender {
    /// Connect, send and the callee's answer head each within this.
    static let timeoutMs: Int32 = 10_000

    /// Records the hooks past `ticket.allowed` as failures, named with the ticket's reason: at once, when the slots
    /// are reserved (recorded after the answer was written, a refusal could come after a stopping server's summary,
    /// and a run exited 0 with a webhook not sent).
    static func refuse(_ hooks: [Webhook], stub: String, journal: JournalStore, ticket: (allowed: Int, refusal: String)) {
        for hook in hooks.dropFirst(ticket.allowed) {
            journal.webhooks.refused(
                "webhook \(hook.method) \(hook.url.prefix(120).escapingControlCharacters()) after \(stub): \(ticket.refusal)")
        }
    }

    /// Sends the first `ticket.allowed` of `hooks` in the slots reserved for them (``WebhookLog/reserve(_:delayMs:)``);
    /// the others were refused by ``refuse(_:stub:journal:ticket:)``.
    static func send(
        _ hooks: [Webhook], after request: HTTPRequest, stub: String, journal: JournalStore, ticket: (allowed: Int, refusal: String)
    ) {
        let log = journal.webhooks
        for hook in hooks.prefix(ticket.allowed) {
            let started = startDetachedThread {
                log.finished(failure: deliver(hook, request, log: log).map { "webhook \(hook.method) after \(stub): \($0)" })
            }
            if !started { log.finished(failure: "webhook \(hook.method) after \(stub): no thread to send it") }
        }
    }

    /// Sends one webhook; nil when the callee answered, else why not.
    private static func deliver(_ hook: Webhook, _ request: HTTPRequest, log: WebhookLog) -> String? {
        if let delay = hook.delay {
            var random = SystemRandomNumberGenerator()
            let until = MonotonicClock.milliseconds() + Double(delay.sampleMs(using: &random))
            // In slices: a wait that gave up on it (a scenario's deadline, a signal) ends the delay unsent.
            while MonotonicClock.milliseconds() < until && !log.isAbandoned {
                MonotonicClock.sleep(milliseconds: Int(min(50, max(1, until - MonotonicClock.milliseconds()))))
            }
        }
        if log.isAbandoned { return "not sent: its delay outlasted the wait for it (the run or scenario ended first)" }
        var url = hook.url
        var context = ResponseTemplate.RenderContext(request)
        if let template = hook.urlTemplate {
            do { url = try template.render(&context) } catch { return "its url: \(error)" }
        }
        let message = hook.templates.map { $0.apply(to: hook.message, for: request) } ?? hook.message
        // Never sent with the error text as its body (r11 R11-8): a failure of the run, as a response's would be.
        if let reason = message.unanswered { return "its body or headers: \(reason)" }
        let target = Webhook.target(url)
        if let problem = target.problem { return "\(url.prefix(120).escapingControlCharacters()): \(problem)" }
        if let name = message.headers.entries.lazy.map(\.name).first(where: { Webhook.headerNameProblem($0) != nil }) {
            return "its header \(name.prefix(60).escapingControlCharacters()): \(Webhook.headerNameProblem(name)!)"
        }
        let shown = "\(hook.method) \(url.prefix(120).escapingControlCharacters())"
        let socket: Socket
        do { socket = try Socket.connect(host: target.host, port: target.port, timeoutMs: timeoutMs) } catch { return "\(shown): \(error)" }
        defer { socket.close() }
        socket.setSendTimeout(milliseconds: Int(timeoutMs))
        let host = target.host.contains(":") ? "[\(target.host)]:\(target.port)" : "\(target.host):\(target.port)"
        var head =
            "\(hook.method) \(target.path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nContent-Length: \(message.body.count)\r\n"
        for header in message.headers.entries {
            head += "\(header.name): \(ResponseTemplates.fieldValue(header.value))\r\n"
        }
        guard socket.send(Array((head + "\r\n").utf8) + message.body) else { return "\(shown): the callee closed the connection" }
        return answerProblem(socket, shown)
    }

    /// Reads the callee's status line within the deadline; nil when one came.
    private static func answerProblem(_ socket: Socket, _ shown: String) -> String? {
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        let deadline = MonotonicClock.milliseconds() + Double(timeoutMs)
        while !received.contains(0x0A) && received.count < 8192 {
            let remaining = Int32(max(0, deadline - MonotonicClock.milliseconds()))
            guard remaining > 0, socket.waitReadable(timeoutMs: remaining) else {
                return "\(shown): no answer within \(timeoutMs / 1000) s"
            }
            guard socket.receive(into: &received, scratch: &scratch, wait: false) > 0 else { break }
        }
        return received.starts(with: Array("HTTP/1.".utf8)) ? nil : "\(shown): the callee did not answer HTTP"
    }
}
