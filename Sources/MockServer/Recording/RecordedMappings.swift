package import AutomationSupport

/// One mapping made from recorded exchanges: its file under `mappings/`, its JSON, and the body file it names.
package struct RecordedMapping: Sendable {
    package var id: String
    /// `mappings/get-api_users-1a2b3c4d.json`.
    package var path: String
    package var json: JSONNode
    /// `(__files/get-api_users-1a2b3c4d.json, bytes)` when the body is kept apart.
    package var bodyFile: (path: String, bytes: [UInt8])?
}

/// Turns exchanges into WireMock 2.35 mappings people can review: deterministic names (method, path, short hash),
/// sorted keys, bodies byte for byte (small text inline, large or binary in `__files/`), identical requests as a
/// scenario replayed in order, volatile and secret fields left out.
enum RecordedMappings {
    /// Response fields never recorded: they describe one answer's connection or moment, and the writer redoes framing.
    static let volatileHeaders: Set<String> = ["date", "connection", "keep-alive", "transfer-encoding", "content-length"]
    static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]
    static let redacted = "[redacted by sut-launch; record with --keep-secrets to keep it]"

    /// The mappings for `exchanges` (in the order they happened) under `spec`.
    static func make(_ exchanges: [ProxyLog.Exchange], spec: RecordSpec) -> [RecordedMapping] {
        let chosen = exchanges.filter { spec.filter?.matches(MatchInput($0.request), scenarioState: nil) ?? true }
        // Requests that are the same to a matcher, in first-seen order.
        var groups: [(key: String, request: JSONNode, exchanges: [ProxyLog.Exchange])] = []
        var index: [String: Int] = [:]
        for exchange in chosen {
            let request = requestPattern(exchange.request, spec)
            let key = JSONWriter.write(request)
            if let at = index[key] {
                groups[at].exchanges.append(exchange)
            } else {
                index[key] = groups.count
                groups.append((key, request, [exchange]))
            }
        }
        var mappings: [RecordedMapping] = []
        var scenarioCount = 0
        for group in groups {
            let (method, path) = slugParts(group.exchanges[0].request)
            let slug = "\(method)-\(path)"
            // A request asked again with the same answer needs no scenario: one mapping replays it every time.
            let first = group.exchanges[0].answer
            let varies = group.exchanges.contains { $0.answer != first }
            let repeated = spec.repeatsAsScenarios && varies
            if repeated { scenarioCount += 1 }
            let scenario = "scenario-\(scenarioCount)-\(path)"
            let recorded = repeated ? group.exchanges : [group.exchanges.last!]
            for (offset, exchange) in recorded.enumerated() {
                let key = group.key + (repeated ? "#\(offset + 1)" : "")
                let name = "\(slug)-\(FileName.hash(key))"
                var members: [(String, JSONNode)] = [
                    ("id", .text(uuid(key))), ("name", .text(name)), ("request", group.request), ("persistent", .flag(true)),
                ]
                let (response, bodyFile) = responseDefinition(exchange, name: name, spec: spec)
                members.append(("response", response))
                if repeated {
                    members.append(("scenarioName", .text(scenario)))
                    members.append(("requiredScenarioState", .text(offset == 0 ? "Started" : "\(scenario)-\(offset + 1)")))
                    if offset + 1 < recorded.count { members.append(("newScenarioState", .text("\(scenario)-\(offset + 2)"))) }
                }
                mappings.append(RecordedMapping(id: uuid(key), path: "mappings/\(name).json", json: .members(members), bodyFile: bodyFile))
            }
        }
        return mappings
    }

    /// `("get", "api_users")` from `GET /api/users?page=2`: lower-case letters, digits, `.`, `_` and `-`, the path at
    /// most 60 bytes (`root` for `/`).
    static func slugParts(_ request: HTTPRequest) -> (method: String, path: String) {
        let path = PercentEncoding.decode(Substring(request.path), plusAsSpace: false)
        var cleaned = ""
        for scalar in path.unicodeScalars {
            let lower = Character(scalar).lowercased()
            if scalar.isASCII, let first = lower.unicodeScalars.first, CharacterSet.slugSafe(first) {
                cleaned += lower
            } else if !cleaned.hasSuffix("_") {
                cleaned += "_"
            }
        }
        cleaned = String(cleaned.drop { $0 == "_" }.prefix(60))
        while cleaned.hasSuffix("_") { cleaned.removeLast() }
        let method = String(request.method.lowercased().unicodeScalars.filter { CharacterSet.slugSafe($0) }.prefix(16).map(Character.init))
        return (method.isEmpty ? "method" : method, cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "root" : cleaned)
    }

    /// Eight-four-four-four-twelve hex digits from `key`: the same id on every recording of the same request.
    static func uuid(_ key: String) -> String {
        let hex = ["a", "b", "c", "d"].map { FileName.hash($0 + key) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

/// What a slug keeps.
private enum CharacterSet {
    static func slugSafe(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }
}

extension JSONNode {
    static func text(_ value: String) -> JSONNode { JSONNode(.string(value)) }
    static func flag(_ value: Bool) -> JSONNode { JSONNode(.bool(value)) }
    static func number(_ value: Int) -> JSONNode { JSONNode(.int(value)) }
    static func members(_ pairs: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(pairs.map { JSONNode.Member(key: $0.0, keyPosition: SourcePosition(line: 1, column: 1), value: $0.1) }))
    }
}
