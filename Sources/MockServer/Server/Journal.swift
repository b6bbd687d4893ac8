import AutomationSupport

/// One request the mock server received, and how it answered.
public struct JournalEntry: Sendable {
    /// 1, 2, 3… in arrival order.
    public var sequence: Int
    /// Milliseconds since the server started.
    public var receivedAtMs: Double
    /// Wall-clock milliseconds since 1970 when it was received (for WireMock's `loggedDate`).
    public var loggedAtMs: Double = WallClock.milliseconds()
    /// The request; its body holds at most ``Journal/maxBodyBytes`` (see ``bodySize``).
    public var request: HTTPRequest
    /// The stub that answered; nil for an unexpected request.
    public var stubID: String?
    /// The name of the stub that answered; nil for an unexpected request.
    public var stubName: String?
    /// The status code of the answer (with a fault, the one its stub would have sent).
    public var status: Int
    /// The fault performed instead of an answer (`CONNECTION_RESET_BY_PEER`, …), if any.
    public var fault: String?
    /// Why the request matched nothing, with the nearest stub (unexpected requests only).
    public var nearMiss: String?
    /// The body's size as received; larger than `request.body.count` when the journal cut it.
    public var bodySize = 0
    /// A stub matched but its answer could not be made (``nearMiss`` says why): not a call of that stub.
    public var notAnswered = false
    /// The server refused it before any stub or endpoint saw it (a head too large: 431; a bad `%`-escape: 400; a body
    /// over the limit: 413; …): unexpected, and no request to any route.
    public var refused = false
    /// The stub that answered is a mapping the program under test added through the admin API.
    public var programMapping = false

    /// True for a request no stub matched, or whose stub's answer could not be made (``nearMiss`` says why); admin API
    /// calls excepted.
    public var isUnexpected: Bool { (stubID == nil || nearMiss != nil) && !request.path.hasPrefix("/__admin") }
    /// True when the journal kept only the first ``Journal/maxBodyBytes`` of the body.
    public var bodyTruncated: Bool { bodySize > request.body.count }
}

/// Every request and response, bounded three ways: at most `limit` entries, at most ``maxBodyBytes`` of
/// each body, and at most `byteBudget` bytes of bodies and headers in all. The oldest entries go first;
/// ``dropped`` counts them (the summary says so).
public struct Journal: Sendable {
    /// Bytes of each body kept.
    public static let maxBodyBytes = 64 * 1024
    /// Headers whose values the journal's JSON replaces with `[redacted]` unless secrets are asked for.
    package static let secretHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// At most this many entries are kept.
    package let limit: Int
    /// At most this many bytes of bodies and headers are kept in all.
    package let byteBudget: Int
    /// Entries dropped to stay within the limits.
    public private(set) var dropped = 0
    /// The sequence number of the latest unexpected entry dropped (0: none).
    package private(set) var lastDroppedUnexpected = 0
    private var storage: [JournalEntry] = []
    private var head = 0
    private var bytes = 0

    /// An empty journal with these bounds (at least one entry).
    package init(limit: Int = 10_000, byteBudget: Int = 32 * 1024 * 1024) {
        self.limit = max(1, limit)
        self.byteBudget = max(Self.maxBodyBytes, byteBudget)
    }

    mutating func append(_ entry: JournalEntry) {
        var entry = entry
        entry.bodySize = entry.request.body.count
        if entry.request.body.count > Self.maxBodyBytes { entry.request.body = Array(entry.request.body.prefix(Self.maxBodyBytes)) }
        // The body as sent, when its codings were undone (kept for a proxy to forward): counted like the body, and
        // kept only within the per-body bound (16 MiB of empty gzip members decode to nothing: uncounted, each one
        // held 16 MiB for as long as the journal kept its entry).
        if let coded = entry.request.codedBody, coded.count > Self.maxBodyBytes { entry.request.codedBody = nil }
        storage.append(entry)
        bytes += Self.cost(entry)
        while storage.count - head > 1 && (storage.count - head > limit || bytes > byteBudget) {
            bytes -= Self.cost(storage[head])
            if storage[head].isUnexpected { lastDroppedUnexpected = storage[head].sequence }
            head += 1
            dropped += 1
        }
        if head >= 1024 && head * 2 >= storage.count { // compact now and then: amortized O(1)
            storage.removeFirst(head)
            head = 0
        }
    }

    private static func cost(_ entry: JournalEntry) -> Int {
        entry.request.body.count + (entry.request.codedBody?.count ?? 0) + entry.request.target.utf8.count
            + (entry.nearMiss?.utf8.count ?? 0)
            + entry.request.headers.entries.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } + 128
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
        bytes = 0
        dropped = 0
        lastDroppedUnexpected = 0
    }

    /// Entries in arrival order.
    public var ordered: [JournalEntry] { Array(storage[head...]) }
    /// Entries kept now.
    public var count: Int { storage.count - head }
    /// The sequence number of the oldest entry kept (nil: none).
    package var firstSequence: Int? { head < storage.count ? storage[head].sequence : nil }

    /// The journal as JSON: `{"total": N, "dropped": D, "requests": [...]}`.
    /// - Parameter secrets: keep the values of `Authorization`, `Cookie` and `Proxy-Authorization`
    ///   (`--journal-secrets`); by default they read `[redacted]`.
    public func json(secrets: Bool = false) -> String {
        var output = "{\"total\":\(count + dropped),\"dropped\":\(dropped),\"requests\":["
        for (offset, entry) in storage[head...].enumerated() {
            if offset > 0 { output += "," }
            output += "\n"
            output += Self.json(entry, secrets: secrets)
        }
        output += "\n]}\n"
        return output
    }

    /// A header's value as JSON shows it: `[redacted]` for a ``secretHeaders`` one unless `secrets`.
    static func shownValue(of header: (name: String, value: String), secrets: Bool) -> String {
        !secrets && secretHeaders.contains(header.name.lowercased()) ? "[redacted]" : header.value
    }

    /// A request's headers as one JSON object, one key per name (any case; the first spelling), a repeated
    /// header's values as a list, as WireMock's LoggedRequest writes them: never a duplicate key, which readers
    /// (and sut-launch's own parser) would take as only the last value, or refuse.
    static func headersJSON(_ request: HTTPRequest, secrets: Bool) -> String {
        groupedJSON(request.headers.entries.map { ($0.name, shownValue(of: $0, secrets: secrets)) }, ignoringCase: true)
    }

    /// Name/value pairs as one JSON object: a name once is a string, a repeated name a list of its values in order.
    static func groupedJSON(_ pairs: [(name: String, value: String)], ignoringCase: Bool) -> String {
        var grouped: [(name: String, values: [String])] = []
        var positions: [String: Int] = [:]
        for (name, value) in pairs {
            let key = ignoringCase ? name.lowercased() : name
            if let position = positions[key] {
                grouped[position].values.append(value)
            } else {
                positions[key] = grouped.count
                grouped.append((name, [value]))
            }
        }
        return "{"
            + grouped.map { name, values in
                JSONWriter.quoted(name) + ":"
                    + (values.count == 1 ? JSONWriter.quoted(values[0]) : "[" + values.map(JSONWriter.quoted).joined(separator: ",") + "]")
            }.joined(separator: ",") + "}"
    }

    static func json(_ entry: JournalEntry, secrets: Bool = false) -> String {
        let request = entry.request
        var output = "{\"sequence\":\(entry.sequence),\"receivedAtMs\":\(JSONWriter.number((entry.receivedAtMs * 1000).rounded() / 1000))"
        output += ",\"method\":" + JSONWriter.quoted(request.method)
        output += ",\"url\":" + JSONWriter.quoted(request.target)
        output += ",\"path\":" + JSONWriter.quoted(request.path)
        output += ",\"query\":" + groupedJSON(request.queryItems.map { ($0.name, $0.value) }, ignoringCase: false)
        output += ",\"headers\":" + headersJSON(request, secrets: secrets)
        if let text = String(validUTF8: request.body) {
            output += ",\"body\":" + JSONWriter.quoted(text)
        } else {
            output += ",\"bodyBase64\":" + JSONWriter.quoted(Base64Text.encode(request.body))
        }
        output += ",\"bodySize\":\(entry.bodySize)"
        if entry.bodyTruncated { output += ",\"bodyTruncated\":true" }
        output += ",\"clientAddress\":" + JSONWriter.quoted(request.clientAddress)
        output += ",\"matched\":" + (entry.stubID == nil ? "false" : "true")
        if entry.notAnswered { output += ",\"notAnswered\":true" }
        if entry.refused { output += ",\"refused\":true" }
        if entry.programMapping { output += ",\"answeredBy\":\"a mapping the program added\"" }
        if let id = entry.stubID {
            output += ",\"stub\":{\"id\":" + JSONWriter.quoted(id) + ",\"name\":" + JSONWriter.quoted(entry.stubName ?? "") + "}"
        }
        output += ",\"response\":{\"status\":\(entry.status)" + (entry.fault.map { ",\"fault\":" + JSONWriter.quoted($0) } ?? "") + "}"
        if let nearMiss = entry.nearMiss { output += ",\"nearMiss\":" + JSONWriter.quoted(nearMiss) }
        return output + "}"
    }
}
