import AutomationSupport

/// How the mock server answers one request: the endpoint policy and the admin API or control channel behind
/// it, else the stub chosen by the registry (or a 404 explaining the near miss), then the journal.
extension MockServer {
    /// Answers a request as if it had come over a socket (journal, counts and scenarios included).
    public func handle(_ request: HTTPRequest) -> MockResponse {
        var response = Self.respond(to: request, parts: parts)
        // No connection writes this answer: what follows it (webhooks) goes now, or its reserved slots would wait.
        if let after = response.afterAnswer {
            response.afterAnswer = nil
            after.run()
        }
        if let handOver = response.handOver {
            response.handOver = nil
            handOver.written(true)
        }
        if response.stream != nil { // made whole: the caller reads `body`
            response.body = response.wholeBody
            response.stream = nil
        }
        return response
    }

    static func respond(to request: HTTPRequest, parts: Parts) -> MockResponse {
        parts.stubs.waitWhileTheRouterIsBuilt()
        let settings = parts.settings
        if let policy = EndpointPolicy.guarding(request.path, admin: settings.options.admin) {
            if let refusal = policy.refusal(of: request, serverHost: settings.host, serverPort: { settings.listeningPort }) {
                return refusedCall(request, refusal.visibleRefusal(), parts: parts)
            }
            let response: MockResponse =
                switch policy.endpoint {
                case .admin: AdminAPI.respond(to: request, parts: parts).visibleRefusal()
                case .control: ControlEndpoint.respond(to: request, queue: parts.control).visibleRefusal()
                }
            // Every refusal (4xx, or an answer marked unanswered: a full control queue) is a call that did not happen.
            return response.unanswered == nil && !(400..<500).contains(response.status)
                ? response : refusedCall(request, response, parts: parts)
        }
        if parts.proxy.loop.isOurs(request.headers) {
            // Forwarded by this server and back: answering by a stub or forwarding again would hide the loop.
            let response = parts.proxy.loop.answer(request)
            _ = parts.journal.record(request, stub: nil, response: response, nearMiss: parts.proxy.loop.reason(request))
            settings.onUnexpected?(request)
            return response
        }
        if let refusal = badQuery(request) {
            // WireMock fails every such request (its journal's query decoder throws: a 500); refused here by name.
            let response = MockResponse.text(refusal + "\n", status: 400)
            _ = parts.journal.record(request, stub: nil, response: response, nearMiss: refusal, refused: true)
            settings.onUnexpected?(request)
            return response
        }
        let input = MatchInput(request)
        input.keepsSecrets = parts.journal.keepsSecrets
        input.budget = settings.options.matchBudget
        let chosen = parts.stubs.choose(input)
        let response: MockResponse
        var nearMiss: String?
        if let chosen {
            response = answer(request, input, chosen, parts)
            nearMiss = judged(request, chosen.stub, response, parts: parts)
        } else if let spent = input.exhausted {
            // Not decided: neither a stub's answer nor a 404 (nor a forward) would be true. Fails a strict run.
            nearMiss = MatchBudget.exhausted(request, settings.options.matchBudget, tried: spent.tried, of: spent.of)
            response = .text(nearMiss! + "\n", status: 500)
            settings.onUnexpected?(request)
        } else if let rule = parts.proxy.fallback {
            if let refusal = settings.forwarding.refusal(of: request) {
                return refusedCall(request, .text(refusal + "\n", status: 403), parts: parts)
            }
            response = forward(request, by: rule, log: parts.proxy) // --proxy-unmatched or a recording: not unexpected
        } else {
            let (stubs, _, scenarios) = parts.stubs.snapshot()
            let unreadable = unreadableQuery(request)
            nearMiss =
                (unreadable.map { $0 + "\n" } ?? "")
                + NearMiss.explain(input, stubs: stubs, scenarios: scenarios, budget: settings.options.matchBudget)
            response = .text(nearMiss! + "\n", status: unreadable == nil ? 404 : 400)
            settings.onUnexpected?(request)
        }
        var answer = response
        let (fixedDelayMs, observer) = settings.forAnswer()
        // Saturating: a delay from code (a handler) may be anything; the sleep caps it.
        if chosen != nil {
            let (sum, overflow) = max(0, answer.delayMs).addingReportingOverflow(fixedDelayMs)
            answer.delayMs = overflow ? Int.max : sum
        }
        let byProgram = chosen.map { $0.stub.cameFromAdminAPI && [.allow, .trust].contains(settings.options.adminWrites) } ?? false
        let entry = parts.journal.record(request, stub: chosen?.stub, response: response, nearMiss: nearMiss, programMapping: byProgram)
        if let stub = chosen?.stub, !stub.webhooks.isEmpty {
            scheduleWebhooks(of: stub, after: request, journal: parts.journal, in: &answer)
        }
        observer?(entry)
        return answer
    }

    /// Counts the stub's webhooks now (a run's end waits for them) and sends them once `answer` is written.
    private static func scheduleWebhooks(of stub: Stub, after request: HTTPRequest, journal: JournalStore, in answer: inout MockResponse) {
        let hooks = stub.webhooks
        let ticket = journal.webhooks.reserve(hooks.count, delayMs: hooks.map(\.longestDelayMs).max() ?? 0)
        let named = "\(stub.name) (\(stub.source))"
        WebhookSender.refuse(hooks, stub: named, journal: journal, ticket: ticket)
        if ticket.allowed > 0 {
            answer.afterAnswer = AfterAnswer { WebhookSender.send(hooks, after: request, stub: named, journal: journal, ticket: ticket) }
        }
    }

    /// Why the answer `stub` gave is not a call the run expected, or nil when it is: it could not be made (then it is
    /// no call of the route either: its `expect` leaves it out), or a mapping the program added through the admin API
    /// made it on a run's server that only allows such writes (``AdminWrites/allow``). A strict run fails on either.
    private static func judged(_ request: HTTPRequest, _ stub: Stub, _ response: MockResponse, parts: Parts) -> String? {
        let line = "\(request.method) \(request.target.prefix(200))".escapingControlCharacters()
        if let reason = response.unanswered {
            parts.stubs.countUnanswered(stub, method: request.method)
            parts.settings.onUnexpected?(request)
            return "Not answered \(line)\n" + "route \(stub.name) (\(stub.source)) could not answer: \(reason)".escapingControlCharacters()
        }
        guard stub.cameFromAdminAPI && parts.settings.options.adminWrites == .allow else { return nil }
        parts.settings.onUnexpected?(request)
        return "Answered \(line)\n"
            + "answered by a mapping the program added: \(stub.name) (through the admin API; --admin-writes trust counts it as expected)"
            .escapingControlCharacters()
    }

    /// An admin API or control channel call the server refused (a foreign Host or Origin, an unknown endpoint, a bad
    /// parameter, a message too large or not UTF-8, a method the endpoint does not serve, another run's channel, an
    /// acknowledgement of nothing; R8a-A3: only some of these counted): what the program asked of the server did not
    /// happen, so it is journaled as unexpected (a strict run fails on it), as a refused `/__admin/shutdown` is.
    private static func refusedCall(_ request: HTTPRequest, _ response: MockResponse, parts: Parts) -> MockResponse {
        let reason = String(decoding: response.body.prefix(600), as: UTF8.self).trimmingCharacters(in: "\n")
        let nearMiss =
            "Refused \(request.method) \(request.target.prefix(200))".escapingControlCharacters() + "\n"
            + "refused \(response.status): \(reason)".escapingControlCharacters()
        _ = parts.journal.record(request, stub: nil, response: response, nearMiss: nearMiss)
        parts.settings.onUnexpected?(request)
        return response
    }

    /// A 400 for a query whose percent escapes do not read (`?a=%zz`, `?a=1%`): its parameters mean nothing, as
    /// Java's `URLDecoder` (WireMock's) refuses them.
    private static func badQuery(_ request: HTTPRequest) -> String? {
        guard let query = request.rawQuery, let bad = PercentEncoding.badEscape(in: Substring(query)) else { return nil }
        return
            "sut-launch: the query of \(request.method) \(request.target.prefix(200)) holds \"\(bad)\", not a percent escape (% and two hex digits): encode % as %25"
            .escapingControlCharacters()
    }

    /// Why an unmatched request's query is a 400, not a 404: WireMock's server (Jetty) reads the query strictly once
    /// no mapping matched, and refuses escapes whose bytes are not UTF-8 (`%C0%AF`, `%ED%A0%80`; a sequence cut by the
    /// end of a name or value, `%C3`, reads). A matched request reads them as Java does (U+FFFD), here too.
    private static func unreadableQuery(_ request: HTTPRequest) -> String? {
        guard let query = request.rawQuery, let piece = PercentEncoding.strictlyUnreadable(query) else { return nil }
        return
            "sut-launch: the query of \(request.method) \(request.target.prefix(200)) has \"\(piece)\", whose escapes are not UTF-8: "
            + "WireMock answers 400 (Bad query encoding) when no mapping matches such a request; encode the text as UTF-8"
            .escapingControlCharacters()
    }

    /// The chosen stub's answer to its `call`th request: from its handler, its template, its files or as given.
    private static func answer(_ request: HTTPRequest, _ input: MatchInput, _ chosen: StubRegistry.Choice, _ parts: Parts)
        -> MockResponse
    {
        let definition = chosen.stub.response(forCall: chosen.call)
        var response =
            definition.proxy.map { proxied(request, $0, input, chosen, definition, parts) } ?? respond(request, input, chosen, definition)
        if definition.proxy != nil {
            // The mapping's own delay, dribble and headers apply to what the backend answered, as in WireMock (r11
            // R11-13: a proxy mapping's `fixedDelayMilliseconds` made no slow backend, its `headers` were dropped).
            response.delayMs = definition.response.delayMs
            response.dribble = definition.response.dribble
        }
        if let delay = definition.delay {
            var random = SystemRandomNumberGenerator()
            response.delayMs = min(max(0, response.delayMs), StubRanges.delayMs.upperBound) + delay.sampleMs(using: &random)
        }
        return response
    }

    /// What the backend answers to `request` forwarded by `rule`, its templated values rendered first (``ProxyTemplates``):
    /// a rendering that cannot be sent is answered here, never forwarded.
    private static func proxied(
        _ request: HTTPRequest, _ rule: ProxyRule, _ input: MatchInput, _ chosen: StubRegistry.Choice,
        _ definition: ResponseDefinition, _ parts: Parts
    ) -> MockResponse {
        // Refused by the forwarding policy: no call the mapping could answer (a strict run fails on it).
        if let refusal = parts.settings.forwarding.refusal(of: request) { return .unanswered(refusal, status: 403) }
        let log = parts.proxy
        // The mapping's own headers go on what the backend answered (r11 R11-13), rendered when templated (r13 R13-2:
        // `X-A: {{request.path}}` was sent as written); every template of the mapping in one budget, before forwarding.
        guard let templates = definition.template else {
            return withFields(definition.response.headers, on: relay(request, by: rule, log: log))
        }
        var model = request
        model.pathParameters = chosen.stub.pathParameterValues(input) ?? [:]
        var context = ResponseTemplate.RenderContext(model)
        var rendered = rule
        let fields: HTTPHeaders
        do throws(ResponseTemplate.RenderError) {
            if let refusal = try templates.proxy?.render(&rendered, &context) {
                // Not forwarded: a failure of the run, as a backend that cannot be reached is (r14 R14-2).
                log.failed(
                    "\(request.method) \(request.target.prefix(200).escapingControlCharacters()): "
                        + (refusal.unanswered ?? "not forwarded").escapingControlCharacters())
                return refusal
            }
            fields = try templates.rendered(definition.response.headers, &context)
        } catch {
            return .unanswered(error.description, status: error.status)
        }
        return withFields(fields, on: relay(request, by: rendered, log: log))
    }

    /// The backend's answer with the mapping's `fields` set on it; an answer of ours saying why there is none as it is
    /// (r14 R14-3: a mapping's `Content-Encoding: gzip` made our plain-text 502 unreadable, WireMock adds none).
    private static func withFields(_ fields: HTTPHeaders, on relayed: (response: MockResponse, relayed: Bool)) -> MockResponse {
        guard relayed.relayed, !fields.entries.isEmpty else { return relayed.response }
        var response = relayed.response
        // Each name the mapping gives replaces the backend's fields of that name, with every value it gives (r14 R14-1:
        // a list, `"Set-Cookie": ["a=1", "b=2"]`, or two spellings of one name, kept only the last, as plain mappings do not).
        let names = Set(fields.entries.map { $0.name.lowercased() })
        response.headers = HTTPHeaders(response.headers.entries.filter { !names.contains($0.name.lowercased()) } + fields.entries)
        return response
    }

    /// The definition's answer as it is, before a random delay.
    private static func respond(
        _ request: HTTPRequest, _ input: MatchInput, _ chosen: StubRegistry.Choice, _ definition: ResponseDefinition
    ) -> MockResponse {
        if let handler = definition.handler {
            var request = request
            request.pathParameters = chosen.stub.pathParameterValues(input) ?? [:]
            return HTTPField.checked(handler(request, chosen.call)) // the journal sees what the writer sends
        } else if let template = definition.template {
            var request = request
            request.pathParameters = chosen.stub.pathParameterValues(input) ?? [:]
            return HTTPField.checked(template.apply(to: definition.response, for: request))
        }
        return definition.filesDirectory.map { serveFile(request, stub: chosen.stub, directory: $0) } ?? definition.response
    }

    /// Serves a file below `directory`: the request path after the route's literal prefix names it. No path
    /// escapes the directory (`..`, absolute paths and symlinks out are refused). Matching has checked that the file
    /// is there (``Stub/fileMismatch(_:)``); one removed since is a 404 still.
    static func serveFile(_ request: HTTPRequest, stub: Stub, directory: String) -> MockResponse {
        let (real, name): (String, String)
        switch stub.servedFile(MatchInput(request), directory: directory) {
        case .success(let file): (real, name) = file
        case .failure(let miss): return .unanswered("\(miss.reason): \(miss.name)", status: 404)
        }
        guard let bytes = FileSystem.read(real) else {
            return .unanswered("cannot serve \(name): \(FileSystem.unreadable(real))", status: 500)
        }
        return MockResponse(status: 200, headers: ["Content-Type": ContentType.forPath(real)], body: bytes)
    }
}

extension MockResponse {
    /// A refusal's text (a 4xx or 5xx `text/plain` answer of the admin API or the control channel) with every control
    /// character it echoes made visible (`\n`, `\u{1B}`), as the console, reports and `check` print them; its final
    /// line break is kept. r9a B11: a 422 echoed a posted pattern's raw LF and ESC, so a `curl` in a CI step printed
    /// a `::warning::` line or cleared the screen. Any other answer is returned as it is.
    func visibleRefusal() -> MockResponse {
        guard status >= 400, headers["Content-Type"]?.lowercased().hasPrefix("text/plain") == true,
            let text = String(validUTF8: body)
        else { return self }
        let ended = text.hasSuffix("\n")
        let visible = (ended ? text.dropLast() : Substring(text)).escapingControlCharacters() + (ended ? "\n" : "")
        guard visible.utf8.count != body.count else { return self }
        var copy = self
        copy.body = Array(visible.utf8)
        return copy
    }
}
