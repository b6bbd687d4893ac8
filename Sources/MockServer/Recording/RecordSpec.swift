import AutomationSupport

/// What a recording or snapshot makes of the exchanges it is given, as WireMock's record spec says (`filters`,
/// `captureHeaders`, `requestBodyPattern`, `extractBodyCriteria`, `persist`, `repeatsAsScenarios`, `outputFormat`),
/// plus what sut-launch adds for reviewable, secret-free recordings.
package struct RecordSpec: Sendable {
    /// Only exchanges whose request this pattern matches (WireMock's `filters`); nil: every one.
    var filter: Stub?
    /// Request fields written as matchers, with `caseInsensitive` each.
    package var capturedHeaders: [(name: String, caseInsensitive: Bool)] = []
    /// How request bodies are matched: `auto` (equalToJson for JSON, else equalTo), `equalToJson`, `equalTo`.
    var bodyMatcher = "auto"
    var ignoreArrayOrder = true
    var ignoreExtraElements = true
    var caseInsensitiveBody = false
    /// Text bodies up to this size stay in the mapping; larger ones go to `__files/`.
    package var textSizeThreshold = 16 * 1024
    /// Binary bodies up to this size stay in the mapping (base64); larger ones go to `__files/`.
    package var binarySizeThreshold = 0
    /// Write the mappings to the root's `mappings/` and `__files/` (and add them to the server).
    package var persist = true
    /// Identical requests with different answers become a scenario replayed in order.
    package var repeatsAsScenarios = true
    /// The answer lists mapping ids only.
    var idsOnly = false
    /// Keep `Authorization`, `Cookie`, `Set-Cookie` and ``redactedHeaders`` values as recorded.
    package var keepSecrets = false
    /// More fields whose values are secrets (lower-cased).
    package var redactedHeaders: [String] = []

    package init() {}

    static let keys = [
        "targetBaseUrl", "filters", "captureHeaders", "requestBodyPattern", "extractBodyCriteria", "persist", "repeatsAsScenarios",
        "outputFormat", "transformers", "transformerParameters",
    ]

    /// Reads a spec from an admin request's JSON body (`what` names it in errors: `recordings/start`).
    static func parse(_ node: JSONNode, what: String) throws(StubError) -> RecordSpec {
        let reader = try ObjectReader(node, file: what, what: "the record spec")
        try reader.checkKeys(keys, unsupported: [:])
        var spec = RecordSpec()
        if let filters = try reader.object("filters") {
            try filters.checkKeys(
                StubSet.wireMockRequestKeys + ["allowNonProxied"],
                unsupported: ["ids": "filtering by serve event ids is not implemented; filter by request"])
            let members = filters.members.filter { $0.key != "allowNonProxied" }
            let mapping = JSONNode(
                .object([
                    JSONNode.Member(key: "request", keyPosition: filters.position, value: JSONNode(.object(members), at: filters.position))
                ]))
            spec.filter = try StubSet.wireMockMapping(mapping, file: what, filesDirectory: "/")
        }
        if let capture = try reader.object("captureHeaders") {
            for name in capture.keys {
                guard HTTPField.isValidName(name) else {
                    throw capture.error(name, "captureHeaders \(HTTPField.quoted(name)): \(HTTPField.badByte(in: name, name: true))")
                }
                let options = try capture.object(name)
                try options?.checkKeys(["caseInsensitive"], unsupported: [:])
                spec.capturedHeaders.append((name, try options?.bool("caseInsensitive") ?? false))
            }
        }
        if let body = try reader.object("requestBodyPattern") {
            try body.checkKeys(["matcher", "ignoreArrayOrder", "ignoreExtraElements", "caseInsensitive"], unsupported: [:])
            let matcher = try body.string("matcher") ?? "auto"
            guard ["auto", "equalToJson", "equalTo"].contains(matcher) else {
                throw body.error("matcher", "requestBodyPattern matcher is auto, equalToJson or equalTo, not \(HTTPField.quoted(matcher))")
            }
            spec.bodyMatcher = matcher
            spec.ignoreArrayOrder = try body.bool("ignoreArrayOrder") ?? true
            spec.ignoreExtraElements = try body.bool("ignoreExtraElements") ?? true
            spec.caseInsensitiveBody = try body.bool("caseInsensitive") ?? false
        }
        if let extract = try reader.object("extractBodyCriteria") {
            try extract.checkKeys(["textSizeThreshold", "binarySizeThreshold"], unsupported: [:])
            spec.textSizeThreshold = try size(extract, "textSizeThreshold") ?? 0
            spec.binarySizeThreshold = try size(extract, "binarySizeThreshold") ?? 0
        }
        spec.persist = try reader.bool("persist") ?? true
        spec.repeatsAsScenarios = try reader.bool("repeatsAsScenarios") ?? true
        if let format = try reader.string("outputFormat") {
            guard ["FULL", "IDS"].contains(format.uppercased()) else { throw reader.error("outputFormat", "outputFormat is FULL or IDS") }
            spec.idsOnly = format.uppercased() == "IDS"
        }
        if let transformers = try reader.array("transformers"), !transformers.isEmpty {
            throw reader.error("transformers", "recording transformers are Java extensions; none can run here")
        }
        return spec
    }

    /// A size as WireMock reads it: a number of bytes, or text such as `"2kb"`, `"1 Mb"`, `"512"`.
    private static func size(_ reader: ObjectReader, _ key: String) throws(StubError) -> Int? {
        guard let value = reader[key] else { return nil }
        if case .int(let bytes) = value.value, bytes >= 0 { return bytes }
        guard let text = value.string?.lowercased().filter({ $0 != " " }) else {
            throw reader.typeError(key, value, "a size such as 2048, \"2kb\" or \"1mb\"")
        }
        let units: [(String, Int)] = [("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10), ("b", 1)]
        let (suffix, factor) = units.first { text.hasSuffix($0.0) } ?? ("", 1)
        guard let number = Int(text.dropLast(suffix.count)), number >= 0, number <= Int(Int32.max) else {
            throw reader.error(key, "\(key): \(HTTPField.quoted(text)) is not a size such as 2048, \"2kb\" or \"1mb\"")
        }
        return number * factor
    }
}
