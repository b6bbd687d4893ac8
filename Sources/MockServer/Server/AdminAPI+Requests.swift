import AutomationSupport

/// The request journal through the admin API in WireMock 2.x/3.x's JSON shape, so WireMock's own client
/// libraries can read it and verify calls: `GET /__admin/requests` (`limit`, `since`), `GET …/requests/{id}`,
/// `POST …/requests/count` and `…/find` with a request pattern, `GET …/requests/unmatched` and
/// `…/unmatched/near-misses` (+NearMisses.swift). (`--journal FILE` keeps sut-launch's own format.)
extension AdminAPI {
    /// Answers the request-journal endpoints; nil when `route` is not one of them.
    static func requests(_ route: String, _ request: HTTPRequest, journal: JournalStore, budget allowed: Int) -> MockResponse? {
        let secrets = journal.keepsSecrets
        switch route {
        case "GET /__admin/requests":
            let limit: Int?
            do { limit = try request.boundedQueryInteger("limit", in: StubRanges.journalLimit) } catch { return error.response }
            var since: Double?
            if let text = request.query("since") {
                guard let parsed = WallClock.milliseconds(iso8601: text) else {
                    return .text(
                        "?since: '\(text.prefix(60).escapingControlCharacters())' is not a date-time like 2026-01-01T00:00:00Z (RFC 3339: years 0000 to 9999, offsets to ±18:00)\n",
                        status: 400)
                }
                since = parsed
            }
            var entries = journal.entries.reversed().map { $0 } // most recent first, as WireMock
            if let since { entries = entries.filter { $0.loggedAtMs > since } }
            let total = entries.count
            if let limit { entries = Array(entries.prefix(limit)) }
            // Written as it is made (r10a C3: each reader held the whole answer, ~2.5 times what the journal keeps).
            var answer = MockResponse.streamedJSON(
                opening: "{\"requests\":[", count: entries.count,
                closing: "],\"meta\":{\"total\":\(total)},\"requestJournalDisabled\":false}"
            ) { [entries] in serveEvent(entries[$0], secrets: secrets) }
            // A listing of what the journal kept (WireMock's shape has no place for more): the header says what it dropped.
            let dropped = journal.droppedFromAdminView()
            if dropped.dropped > 0 { answer.headers.add("Sut-Launch-Journal-Dropped", "\(dropped.dropped) of \(dropped.received)") }
            return answer
        case "GET /__admin/requests/unmatched":
            if let partial = droppedRefusal(route, journal, unexpectedOnly: true) { return partial }
            let entries = Array(journal.entries.filter(\.isUnexpected).reversed()) // most recent first, as WireMock
            return .streamedJSON(opening: "{\"requests\":[", count: entries.count, closing: "]}") {
                loggedRequest(entries[$0], secrets: secrets)
            }
        case "POST /__admin/requests/count", "POST /__admin/requests/find":
            let probe: Stub
            do { probe = try requestPattern(request.body, source: route) } catch {
                return .text("not a request pattern: \(error)\n", status: 422)
            }
            if let partial = droppedRefusal(route, journal, unexpectedOnly: false) { return partial }
            let entries = journal.entries
            if let cut = truncatedBody(probe, entries) { return cut }
            var budget = allowed
            var matching: [JournalEntry] = []
            for (searched, entry) in entries.enumerated() {
                if let gone = clientGone(request, route, searched: searched, of: entries.count) { return gone }
                if probe.matches(MatchInput(entry.request), scenarioState: nil, budget: &budget) { matching.append(entry) }
                if budget < 0 { return budgetSpent(route, allowed, searched: searched + 1, of: entries.count) }
            }
            if route.hasSuffix("count") { return .json(text: "{\"count\":\(matching.count)}") }
            return .streamedJSON(opening: "{\"requests\":[", count: matching.count, closing: "]}") { [matching] in
                loggedRequest(matching[$0], secrets: secrets)
            }
        default:
            let prefix = "GET /__admin/requests/"
            guard route.hasPrefix(prefix) else { return nil }
            let id = String(route.dropFirst(prefix.count))
            guard let entry = journal.entries.first(where: { requestID($0) == id }) else {
                return .text("no request \(id) in the journal\n", status: 404)
            }
            return .json(text: serveEvent(entry, secrets: secrets))
        }
    }

    /// A WireMock request pattern (a mapping's `request`) as a stub that matches what it describes.
    static func requestPattern(_ body: [UInt8], source: String) throws -> Stub {
        let pattern = try JSONParser.parse(body, refusingLoneSurrogates: true)
        return try StubSet.wireMockMapping(
            JSONNode(
                .object([
                    JSONNode.Member(key: "request", keyPosition: pattern.position, value: pattern),
                    JSONNode.Member(key: "response", keyPosition: pattern.position, value: JSONNode(.object([]))),
                ])), file: source, filesDirectory: ".")
    }

    /// A stable UUID-shaped id for a journal entry (its sequence number in the last group).
    static func requestID(_ entry: JournalEntry) -> String {
        let hex = String(entry.sequence, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    static func serveEvent(_ entry: JournalEntry, secrets: Bool) -> String {
        var json = "{\"id\":" + JSONWriter.quoted(requestID(entry)) + ",\"request\":" + loggedRequest(entry, secrets: secrets)
        json += ",\"responseDefinition\":{\"status\":\(entry.status)}"
        json += ",\"wasMatched\":" + (entry.stubID == nil ? "false" : "true")
        if let id = entry.stubID {
            json += ",\"stubMapping\":{\"id\":" + JSONWriter.quoted(id) + ",\"name\":" + JSONWriter.quoted(entry.stubName ?? "") + "}"
        }
        return json + "}"
    }

    /// WireMock's `absoluteUrl`: the target itself when it was sent in absolute form, or is not a URL at all (a
    /// CONNECT's `host:port`, a line that did not parse); else scheme, Host and path.
    static func absoluteURL(_ request: HTTPRequest, host: String, url: String) -> String {
        guard request.target.hasPrefix("/"), HTTPRequest.absoluteAuthority(request.target) == nil else { return request.target }
        return "\(request.scheme)://\(host)\(url)"
    }

    static func loggedRequest(_ entry: JournalEntry, secrets: Bool) -> String {
        let request = entry.request
        let host = request.header("Host") ?? "127.0.0.1"
        // An absolute-form target (sent to the proxy listener) is given as WireMock gives every url: path and query.
        let url = request.originTarget
        var json = "{\"id\":" + JSONWriter.quoted(requestID(entry)) + ",\"url\":" + JSONWriter.quoted(url)
        json +=
            ",\"absoluteUrl\":" + JSONWriter.quoted(Self.absoluteURL(request, host: host, url: url)) + ",\"method\":"
            + JSONWriter.quoted(request.method)
        json += ",\"clientIp\":" + JSONWriter.quoted(request.clientAddress)
        json += ",\"headers\":" + Journal.headersJSON(request, secrets: secrets)
        var query: [(String, [String])] = []
        for (name, value) in request.queryItems {
            if let index = query.firstIndex(where: { $0.0 == name }) { query[index].1.append(value) } else { query.append((name, [value])) }
        }
        json +=
            ",\"queryParams\":{"
            + query.map { name, values in
                JSONWriter.quoted(name) + ":{\"key\":" + JSONWriter.quoted(name) + ",\"values\":["
                    + values.map(JSONWriter.quoted).joined(separator: ",") + "]}"
            }.joined(separator: ",") + "}"
        json +=
            ",\"body\":" + JSONWriter.quoted(request.bodyText) + ",\"bodyAsBase64\":" + JSONWriter.quoted(Base64Text.encode(request.body))
        json +=
            ",\"loggedDate\":\(Int(entry.loggedAtMs)),\"loggedDateString\":"
            + JSONWriter.quoted(WallClock.iso8601(milliseconds: entry.loggedAtMs))
        return json + "}"
    }
}

extension AdminAPI {
    /// An answer no one reads when the client of a search has closed its connection (checked between journal entries,
    /// or stubs, as the control channel's long poll checks its peer): the search stops there. A count with an XPath
    /// sub-matcher over 40 entries ran 3.5 minutes after its client had given up. nil while the client is there.
    static func clientGone(_ request: HTTPRequest, _ route: String, searched: Int, of total: Int, items: String = "journal entries")
        -> MockResponse?
    {
        guard request.peer?.hasGone == true else { return nil }
        return .text("sut-launch: \(route) stopped after \(searched) of \(total) \(items): its client closed the connection\n", status: 500)
    }

    /// A search that spent its call's work budget (``MatchBudget/perAdminCall``): 500, naming it, never a partial list
    /// read as the whole (a count that is too low).
    static func budgetSpent(_ route: String, _ budget: Int, searched: Int, of total: Int, items: String = "journal entries")
        -> MockResponse
    {
        .text(MatchBudget.adminExhausted(route, budget, searched: searched, of: total, items: items) + "\n", status: 500)
    }
}

extension AdminAPI {
    /// A 422 when `probe` reads bodies and an entry's body was cut by the journal (it keeps ``Journal/maxBodyBytes``):
    /// a body pattern over the part kept would be a definite count of the wrong thing (`contains` text past the cut
    /// found 0, `doesNotContain` 1). nil when the search can be answered whole.
    static func truncatedBody(_ probe: Stub, _ entries: [JournalEntry]) -> MockResponse? {
        guard !probe.body.isEmpty || !probe.multipart.isEmpty, let cut = entries.first(where: \.bodyTruncated) else { return nil }
        return .text(
            "request \(cut.sequence) (\(cut.request.method) \(cut.request.target.prefix(200))) had a body of \(cut.bodySize) bytes and the journal kept the first \(Journal.maxBodyBytes): a body pattern cannot be judged over it; search without bodyPatterns/multipartPatterns"
                .escapingControlCharacters() + "\n",
            status: 422)
    }
}

extension AdminAPI {
    /// A 422 when the journal dropped requests the search would have to see (any for a count or find; an unexpected one
    /// for the unmatched list): an answer over the rest would be partial, and a request that was made counted 0
    /// (r10a C6). nil when the search can be answered whole.
    static func droppedRefusal(_ route: String, _ journal: JournalStore, unexpectedOnly: Bool) -> MockResponse? {
        let (dropped, received, unexpected) = journal.droppedFromAdminView()
        guard dropped > 0, !unexpectedOnly || unexpected else { return nil }
        return .text(
            "sut-launch: \(route) cannot be answered whole: the journal dropped the oldest \(dropped) of the \(received) requests "
                + "received since its last reset (it keeps at most \(journal.boundsText)); raise --journal-limit, send less, "
                + "or reset the journal (DELETE /__admin/requests) before the requests you verify\n",
            status: 422)
    }
}
