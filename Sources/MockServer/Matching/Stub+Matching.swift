import AutomationSupport
import XMLSupport

/// A reason a request did not match a stub, for near-miss messages.
struct Mismatch: Sendable {
    var field: String
    var expected: String
    var actual: String
    var weight: Double

    /// One line: the values come from stubs and requests, so their control characters are escaped (a CR LF
    /// in a decoded query value forged a line of the run's summary).
    var description: String {
        "\(field): expected \(expected.escapingControlCharacters()), got \(actual.escapingControlCharacters())"
    }
}

/// A request prepared once for matching against many stubs; the parts few stubs look at are computed on first use.
final class MatchInput {
    let request: HTTPRequest
    let segments: [Substring]
    lazy var query: [(name: String, value: String)] = request.queryItems
    /// Each cookie name's values in the order sent (a name sent twice has both, matched as WireMock matches them).
    lazy var cookies: [String: [String]] = request.cookieList.reduce(into: [:]) { $0[$1.name, default: []].append($1.value) }
    lazy var bodyText: String = request.bodyText
    /// The body as JSON, parsed once for every JSON body pattern of every stub (`.some(nil)`: not JSON).
    private var parsedBody: JSONNode??
    /// The body as JSON (nil: not JSON), parsed on first use and charged to `budget` then, before the parse
    /// (``MatchBudget/parsingJSON(_:)``); nil without parsing when the budget cannot pay for it.
    func bodyJSON(budget: inout Int) -> JSONNode? {
        if let parsedBody { return parsedBody }
        budget -= MatchBudget.parsingJSON(bodyText.utf8.count)
        guard budget >= 0 else { return nil }
        let node = try? JSONParser.parse(request: bodyText)
        parsedBody = .some(node)
        return node
    }
    /// The body as XML, parsed on first use for every XML body pattern of every stub (``XMLBody``: one parse, charged
    /// once, to the matcher that made it).
    lazy var bodyXML = XMLBody(bodyText)
    /// The body's parts, split once for every multipart pattern that looks (WireMock's multipart parsing).
    lazy var multipart: MultipartBody.Parsed = MultipartBody.parse(contentType: request.headers["Content-Type"], body: request.body)
    /// The path's segments percent-decoded (native routes compare these), and whether any differs.
    lazy var decodedSegments: [String] = segments.map { PercentEncoding.decode($0, plusAsSpace: false) }
    lazy var isEncoded: Bool = ByteSearch.contains(request.path, "%") // memchr: UTF8View.contains took ~30 instructions a byte
    lazy var decodedPath: String = "/" + decodedSegments.joined(separator: "/")
    /// The request's matching work left (``MatchBudget``): every stub tried, then the near miss, take from it.
    var budget = MatchBudget.perRequest
    /// Set when the budget ran out while stubs were tried: how many candidates were tried, of how many.
    var exhausted: (tried: Int, of: Int)?
    /// Show the values of `Authorization`, `Cookie`, `Proxy-Authorization` and cookies in near misses
    /// (`--journal-secrets`); by default they read `[redacted]`, as in the journal.
    var keepsSecrets = false

    init(_ request: HTTPRequest) {
        self.request = request
        let path = request.path.hasPrefix("/") ? request.path.dropFirst() : Substring(request.path)
        segments = path.isEmpty ? [] : path.split(separator: "/", omittingEmptySubsequences: false)
    }
}

extension Stub {
    /// The template's parameter values for this request (names to decoded values); nil when the URL does not match.
    func pathParameterValues(_ input: MatchInput) -> [String: String]? {
        guard case .template(let template) = url else { return [:] }
        var values: [String: String] = [:]
        var index = 0
        for (position, segment) in template.enumerated() {
            switch segment {
            case .doubleStar:
                if position == template.count - 1 { return values }
                return nil
            case .literal(let text):
                guard index < input.segments.count else { return nil }
                // Native routes hold decoded literals and compare the request's decoded segments.
                if wireMockRequest == nil && input.isEncoded {
                    guard input.decodedSegments[index].sameScalars(text) else { return nil }
                } else {
                    guard input.segments[index].sameScalars(text) else { return nil }
                }
            case .parameter(let name):
                guard index < input.segments.count, !input.segments[index].isEmpty else { return nil }
                values[name] = PercentEncoding.decode(input.segments[index], plusAsSpace: false)
            case .star:
                guard index < input.segments.count, !input.segments[index].isEmpty else { return nil }
            }
            index += 1
        }
        return index == input.segments.count ? values : nil
    }

    func urlMatches(_ input: MatchInput) -> Bool {
        var budget = MatchBudget.perRequest
        return urlMatches(input, budget: &budget)
    }

    func urlMatches(_ input: MatchInput, budget: inout Int) -> Bool {
        switch url {
        case .exactURL(let expected): return input.request.originTarget.sameScalars(expected)
        case .template: return pathParameterValues(input) != nil
        case .pattern(let regex, _, let includesQuery):
            return regex.matchesWhole(includesQuery ? input.request.originTarget : input.request.path, budget: &budget) == true
        case .any: return true
        }
    }

    /// Whether the request matches, given the scenario's current state (outside a request's matching: a budget of
    /// its own).
    func matches(_ input: MatchInput, scenarioState: String?) -> Bool {
        var budget = MatchBudget.perRequest
        return matches(input, scenarioState: scenarioState, budget: &budget)
    }

    /// Whether the request matches, its work taken from `budget` (below zero afterwards: spent, nothing decided).
    func matches(_ input: MatchInput, scenarioState: String?, budget: inout Int) -> Bool {
        evaluate(input, scenarioState: scenarioState, collectAll: false, budget: &budget).isEmpty && budget >= 0
    }

    /// The differences between the request and this stub (empty: it matches, when `budget` is not spent). With
    /// `collectAll: false` it stops at the first difference.
    func evaluate(_ input: MatchInput, scenarioState: String?, collectAll: Bool, budget: inout Int) -> [Mismatch] {
        var found = Mismatches(collectAll: collectAll)
        guard targetMismatches(input, &found, &budget), fieldMismatches(input, &found, &budget),
            contentMismatches(input, &found, &budget)
        else {
            return found.items
        }
        if let mismatch = fileMismatch(input) {
            guard found.add(mismatch) else { return found.items }
        }
        if let scenario, let required = scenario.requiredState, required != (scenarioState ?? ScenarioStates.started) {
            _ = found.add(
                Mismatch(
                    field: "scenario \"\(scenario.name)\"", expected: "state \"\(required)\"",
                    actual: "state \"\(scenarioState ?? ScenarioStates.started)\"", weight: 0.5))
        }
        return found.items
    }

    /// How far the method, origin and URL are: a near miss compares in full only the stubs nearest by it
    /// (``NearMiss/maxCompared``).
    /// A cheap measure: method, origin, and for the URL the common prefix (no edit distance), so that ranking every
    /// stub costs little per stub whatever the request's path.
    func targetWeight(_ input: MatchInput, budget: inout Int) -> Double {
        let request = input.request
        var weight = 0.0
        if let method, method != request.method, !(method == "GET" && request.method == "HEAD" && wireMockRequest == nil) { weight += 1 }
        if let origin, origin.mismatch(request, budget: &budget) != nil { weight += 1 }
        if !urlMatches(input, budget: &budget) {
            let (expected, actual) = (url.description.utf8, request.path.utf8)
            let common = zip(expected, actual).prefix { $0 == $1 }.count
            weight += 3 - Double(common) / Double(max(expected.count, actual.count, 1))
        }
        return weight
    }

    /// Method, origin, URL and path parameters; false when evaluation stops here.
    private func targetMismatches(_ input: MatchInput, _ found: inout Mismatches, _ budget: inout Int) -> Bool {
        let request = input.request
        // A native GET route answers HEAD too (curl -I works); a WireMock mapping does not, as in WireMock.
        if let method, method != request.method, !(method == "GET" && request.method == "HEAD" && wireMockRequest == nil) {
            guard found.add(Mismatch(field: "method", expected: method, actual: request.method, weight: 1)) else { return false }
        }
        if let origin, let mismatch = origin.mismatch(request, budget: &budget) {
            guard found.add(mismatch) else { return false }
        }
        if !urlMatches(input, budget: &budget) {
            guard budget >= 0 else { return false }
            let distance = Suggestion.editDistance(url.description, request.path)
            let similarity = Double(distance) / Double(max(url.description.utf8.count, request.path.utf8.count, 1))
            return found.add(Mismatch(field: "url", expected: url.description, actual: request.target, weight: 2 + similarity))
        }
        guard !pathParameters.isEmpty, let values = pathParameterValues(input) else { return true }
        for (name, matcher) in pathParameters where !matcher.matches(values[name], budget: &budget) {
            guard budget >= 0 else { return false }
            let mismatch = Mismatch(
                field: "path parameter \(name)", expected: matcher.description, actual: values[name].map { "\"\($0)\"" } ?? "nothing",
                weight: 1)
            guard found.add(mismatch) else { return false }
        }
        return true
    }

    /// What a near miss shows for a secret value (a secret header's, a cookie's) unless secrets are kept.
    static let redacted = "a value not shown ([redacted]; --journal-secrets shows it)"

    /// Query parameters, headers (with basic credentials) and cookies; false when evaluation stops here.
    private func fieldMismatches(_ input: MatchInput, _ found: inout Mismatches, _ budget: inout Int) -> Bool {
        func shown(_ values: [String], secret: Bool = false) -> String {
            if values.isEmpty { return "absent" }
            if secret && !input.keepsSecrets { return values.map { _ in Self.redacted }.joined(separator: ", ") }
            return values.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        for (name, matcher) in query {
            var values: [String] = []
            for item in input.query where item.name == name { values.append(item.value) }
            if !matcher.matches(values: values, budget: &budget) {
                guard budget >= 0 else { return false }
                guard found.add(Mismatch(field: "query \(name)", expected: matcher.description, actual: shown(values), weight: 1)) else {
                    return false
                }
            }
        }
        for (name, matcher) in headers {
            if !matcher.matches(field: name, in: input.request.headers, budget: &budget) {
                guard budget >= 0 else { return false }
                let values = input.request.headers.values(name)
                let secret = Journal.secretHeaders.contains(name.lowercased())
                let mismatch = Mismatch(
                    field: "header \(name)", expected: matcher.description, actual: shown(values, secret: secret), weight: 1)
                guard found.add(mismatch) else {
                    return false
                }
            }
        }
        if let basicAuth, let mismatch = basicAuth.mismatch(input.request) {
            guard found.add(mismatch) else { return false }
        }
        // A cookie sent twice: the value nearest the matcher decides, as WireMock's (r9a B6: `c=1; c=` against `equalTo ''`).
        for (name, matcher) in cookies where !matcher.matches(values: input.cookies[name] ?? [], budget: &budget) {
            guard budget >= 0 else { return false }
            let mismatch = Mismatch(
                field: "cookie \(name)", expected: matcher.description, actual: shown(input.cookies[name] ?? [], secret: true), weight: 1)
            guard found.add(mismatch) else { return false }
        }
        return true
    }

    /// Body patterns and multipart patterns; false when evaluation stops here.
    private func contentMismatches(_ input: MatchInput, _ found: inout Mismatches, _ budget: inout Int) -> Bool {
        let request = input.request
        for matcher in body {
            let (matched, note) = matcher.explained(
                body: request.body, text: request.body.isEmpty ? nil : input.bodyText, json: input.bodyJSON(budget:),
                xml: input.bodyXML, budget: &budget)
            if matched { continue }
            guard budget >= 0 else { return false }
            // The first 120 characters, and whether there are more, without counting the body's characters: a count
            // of a 15 MB body per mapping that did not match cost ~40 ms each (1,000 `contains` mappings: 8.8 s).
            let head = input.bodyText.prefix(120)
            var shown = head.isEmpty ? "an empty body" : "\"\(head)\(head.endIndex < input.bodyText.endIndex ? "…" : "")\""
            if let note { shown += " (\(note))" }
            guard found.add(Mismatch(field: "body", expected: matcher.description, actual: shown, weight: 1)) else { return false }
        }
        for pattern in multipart {
            if let mismatch = pattern.mismatch(input.multipart, contentType: request.headers["Content-Type"], budget: &budget) {
                guard budget >= 0 else { return false }
                guard found.add(mismatch) else { return false }
            }
        }
        return true
    }
}

/// The differences found so far, and whether to look for more.
struct Mismatches {
    let collectAll: Bool
    var items: [Mismatch] = []

    /// Records one; false when evaluation stops here (the first difference is enough).
    mutating func add(_ mismatch: Mismatch) -> Bool {
        items.append(mismatch)
        return collectAll
    }
}

/// WireMock's `host`, `scheme` and `port`: where a request was sent (its absolute-form target or `Host` header,
/// and whether it came over TLS).
struct OriginMatch: Sendable {
    var host: ValueMatcher?
    var scheme: String?
    var port: Int?

    func mismatch(_ request: HTTPRequest, budget: inout Int) -> Mismatch? {
        if let host, !host.matches(request.host, budget: &budget) {
            return Mismatch(field: "host", expected: host.description, actual: "\"\(request.host)\"", weight: 1)
        }
        if let scheme, scheme.lowercased() != request.scheme {
            return Mismatch(field: "scheme", expected: scheme, actual: request.scheme, weight: 1)
        }
        if let port, port != request.port {
            return Mismatch(field: "port", expected: String(port), actual: String(request.port), weight: 1)
        }
        return nil
    }
}

enum ScenarioStates {
    /// WireMock's initial scenario state.
    static let started = "Started"
}
