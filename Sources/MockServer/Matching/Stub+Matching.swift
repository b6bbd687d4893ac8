import AutomationSupport

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
    lazy var cookies: [String: String] = request.cookies
    lazy var bodyText: String = request.bodyText
    /// The path's segments percent-decoded (native routes compare these), and whether any differs.
    lazy var decodedSegments: [String] = segments.map { PercentEncoding.decode($0, plusAsSpace: false) }
    lazy var isEncoded: Bool = request.path.contains("%")
    lazy var decodedPath: String = "/" + decodedSegments.joined(separator: "/")

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
                    guard input.decodedSegments[index] == text else { return nil }
                } else {
                    guard input.segments[index] == text else { return nil }
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
        switch url {
        case .exactURL(let expected): return input.request.originTarget == expected
        case .template: return pathParameterValues(input) != nil
        case .pattern(let regex, _, let includesQuery):
            return regex.matchesWhole(includesQuery ? input.request.originTarget : input.request.path)
        case .any: return true
        }
    }

    /// Whether the request matches, given the scenario's current state.
    func matches(_ input: MatchInput, scenarioState: String?) -> Bool {
        evaluate(input, scenarioState: scenarioState, collectAll: false).isEmpty
    }

    /// The differences between the request and this stub (empty: it matches). With `collectAll: false`
    /// it stops at the first difference.
    func evaluate(_ input: MatchInput, scenarioState: String?, collectAll: Bool) -> [Mismatch] {
        var mismatches: [Mismatch] = []
        let request = input.request
        // A native GET route answers HEAD too (curl -I works); a WireMock mapping does not, as in WireMock.
        if let method, method != request.method, !(method == "GET" && request.method == "HEAD" && wireMockRequest == nil) {
            mismatches.append(Mismatch(field: "method", expected: method, actual: request.method, weight: 1))
            if !collectAll { return mismatches }
        }
        if let origin, let mismatch = origin.mismatch(request) {
            mismatches.append(mismatch)
            if !collectAll { return mismatches }
        }
        if !urlMatches(input) {
            let distance = Suggestion.editDistance(url.description, request.path)
            let similarity = Double(distance) / Double(max(url.description.count, request.path.count, 1))
            mismatches.append(Mismatch(field: "url", expected: url.description, actual: request.target, weight: 2 + similarity))
            if !collectAll { return mismatches }
        } else if !pathParameters.isEmpty, let values = pathParameterValues(input) {
            for (name, matcher) in pathParameters where !matcher.matches(values[name]) {
                mismatches.append(
                    Mismatch(
                        field: "path parameter \(name)", expected: matcher.description,
                        actual: values[name].map { "\"\($0)\"" } ?? "nothing", weight: 1))
                if !collectAll { return mismatches }
            }
        }
        for (name, matcher) in query {
            let values = input.query.filter { $0.name == name }.map(\.value)
            let ok = values.isEmpty ? matcher.matches(nil) : values.contains { matcher.matches($0) }
            if !ok {
                mismatches.append(
                    Mismatch(
                        field: "query \(name)", expected: matcher.description,
                        actual: values.isEmpty ? "absent" : values.map { "\"\($0)\"" }.joined(separator: ", "), weight: 1))
                if !collectAll { return mismatches }
            }
        }
        for (name, matcher) in headers {
            let values = request.headers.values(name)
            let ok = values.isEmpty ? matcher.matches(nil) : values.contains { matcher.matches($0) }
            if !ok {
                mismatches.append(
                    Mismatch(
                        field: "header \(name)", expected: matcher.description,
                        actual: values.isEmpty ? "absent" : values.map { "\"\($0)\"" }.joined(separator: ", "), weight: 1))
                if !collectAll { return mismatches }
            }
        }
        for (name, matcher) in cookies where !matcher.matches(input.cookies[name]) {
            mismatches.append(
                Mismatch(
                    field: "cookie \(name)", expected: matcher.description,
                    actual: input.cookies[name].map { "\"\($0)\"" } ?? "absent", weight: 1))
            if !collectAll { return mismatches }
        }
        for matcher in body where !matcher.matches(request.body.isEmpty ? nil : input.bodyText) {
            let shown =
                input.bodyText.isEmpty ? "an empty body" : "\"\(input.bodyText.prefix(120))\(input.bodyText.count > 120 ? "…" : "")\""
            mismatches.append(Mismatch(field: "body", expected: matcher.description, actual: shown, weight: 1))
            if !collectAll { return mismatches }
        }
        if let scenario, let required = scenario.requiredState, required != (scenarioState ?? ScenarioStates.started) {
            mismatches.append(
                Mismatch(
                    field: "scenario \"\(scenario.name)\"", expected: "state \"\(required)\"",
                    actual: "state \"\(scenarioState ?? ScenarioStates.started)\"", weight: 0.5))
        }
        return mismatches
    }
}

/// WireMock's `host`, `scheme` and `port`: where a request was sent (its absolute-form target or `Host` header,
/// and whether it came over TLS).
struct OriginMatch: Sendable {
    var host: ValueMatcher?
    var scheme: String?
    var port: Int?

    func mismatch(_ request: HTTPRequest) -> Mismatch? {
        if let host, !host.matches(request.host) {
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
