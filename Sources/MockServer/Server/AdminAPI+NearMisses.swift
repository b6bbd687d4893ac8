import AutomationSupport

/// WireMock's near-miss queries: `POST /__admin/near-misses/request` (the stubs nearest a request, which need
/// not have been sent), `GET /__admin/requests/unmatched/near-misses` (the stubs nearest each unmatched request, as
/// the stubs are now) and `POST /__admin/near-misses/request-pattern` (the logged requests nearest a pattern).
/// Up to three each, nearest first, `distance` between 0 (a match) and 1.
extension AdminAPI {
    static let nearMissLimit = 3

    static func nearMisses(_ route: String, _ request: HTTPRequest, parts: MockServer.Parts) -> MockResponse? {
        let secrets = parts.journal.keepsSecrets
        switch route {
        case "POST /__admin/near-misses/request":
            guard let logged = try? JSONParser.parse(request.body, refusingLoneSurrogates: true), let members = logged.members else {
                return .text("the body is a logged request like {\"url\": \"/path\", \"method\": \"GET\"}\n", status: 422)
            }
            let probe = HTTPRequest(
                method: JSONNode.member("method", in: members)?.string ?? "GET",
                target: JSONNode.member("url", in: members)?.string ?? "/",
                headers: headers(JSONNode.member("headers", in: members)),
                body: Array((JSONNode.member("body", in: members)?.string ?? "").utf8))
            let (stubs, counts, scenarios) = parts.stubs.snapshot()
            var budget = parts.settings.options.matchBudget
            let nearest = nearestStubs(MatchInput(probe), stubs, scenarios, budget: &budget) { index in
                clientGone(request, route, searched: index, of: stubs.count, items: "stubs")
            }
            if let stopped = nearest.stopped { return stopped }
            if let spent = nearest.spentAt {
                return budgetSpent(route, parts.settings.options.matchBudget, searched: spent, of: stubs.count, items: "stubs")
            }
            let entry = JournalEntry(sequence: 0, receivedAtMs: 0, request: probe, status: 0)
            return .json(
                text: "{\"nearMisses\":["
                    + nearest.ranked.map { stubNearMiss(entry, stubs[$0.0], calls: $0.0 < counts.count ? counts[$0.0] : 0, $0.1, secrets) }
                    .joined(separator: ",") + "]}")
        case "GET /__admin/requests/unmatched/near-misses":
            // As WireMock's: every unmatched request, most recent first, with the (up to three) stubs nearest it now;
            // one with no stub near it (none loaded) adds nothing. One budget for the call.
            if let partial = droppedRefusal(route, parts.journal, unexpectedOnly: true) { return partial }
            let (stubs, counts, scenarios) = parts.stubs.snapshot()
            let unmatched = Array(parts.journal.entries.filter(\.isUnexpected).reversed())
            var budget = parts.settings.options.matchBudget
            var found: [(entry: JournalEntry, stub: Int, distance: Double)] = []
            for (searched, entry) in unmatched.enumerated() {
                let nearest = nearestStubs(MatchInput(entry.request), stubs, scenarios, budget: &budget) { _ in
                    clientGone(request, route, searched: searched, of: unmatched.count, items: "unmatched requests")
                }
                if let stopped = nearest.stopped { return stopped }
                if nearest.spentAt != nil {
                    return budgetSpent(
                        route, parts.settings.options.matchBudget, searched: searched + 1, of: unmatched.count, items: "unmatched requests")
                }
                found += nearest.ranked.map { (entry, $0.0, $0.1) }
            }
            // Written as it is made: each near miss holds its request, up to three times each unmatched one (r10a C3).
            return .streamedJSON(opening: "{\"nearMisses\":[", count: found.count, closing: "]}") { [found] in
                let (entry, stub, distance) = found[$0]
                return stubNearMiss(entry, stubs[stub], calls: stub < counts.count ? counts[stub] : 0, distance, secrets)
            }
        case "POST /__admin/near-misses/request-pattern":
            let probe: Stub
            do { probe = try requestPattern(request.body, source: route) } catch {
                return .text("not a request pattern: \(error)\n", status: 422)
            }
            let entries = parts.journal.entries
            if let cut = truncatedBody(probe, entries) { return cut }
            var budget = parts.settings.options.matchBudget
            var measured: [(JournalEntry, Double)] = []
            for (searched, entry) in entries.enumerated() {
                if let gone = clientGone(request, route, searched: searched, of: entries.count) { return gone }
                let mismatches = probe.evaluate(MatchInput(entry.request), scenarioState: nil, collectAll: true, budget: &budget)
                if budget < 0 { return budgetSpent(route, parts.settings.options.matchBudget, searched: searched + 1, of: entries.count) }
                measured.append((entry, distance(mismatches)))
            }
            let ranked = measured.sorted { $0.1 < $1.1 }.prefix(nearMissLimit)
            return .json(
                text: "{\"nearMisses\":["
                    + ranked.map { entry, distance in
                        "{\"request\":" + loggedRequest(entry, secrets: secrets)
                            + ",\"requestPattern\":" + (probe.wireMockRequest ?? "{}")
                            + ",\"matchResult\":{\"distance\":" + JSONWriter.number(distance) + "}}"
                    }.joined(separator: ",") + "]}")
        default:
            return nil
        }
    }

    /// The stubs nearest `input` (their indexes and distances), nearest first, at most ``nearMissLimit``; `spentAt`
    /// is how many stubs were tried when `budget` ran out (then `ranked` is empty); `stopped` is `stop`'s answer when,
    /// asked before each stub, it gave one (the admin client has gone).
    private static func nearestStubs(
        _ input: MatchInput, _ stubs: [Stub], _ scenarios: [String: String], budget: inout Int, stop: (Int) -> MockResponse?
    ) -> (ranked: [(Int, Double)], spentAt: Int?, stopped: MockResponse?) {
        var measured: [(Int, Double)] = []
        for (index, stub) in stubs.enumerated() {
            if let answer = stop(index) { return ([], nil, answer) }
            let scenarioState = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
            let mismatches = stub.evaluate(input, scenarioState: scenarioState, collectAll: true, budget: &budget)
            if budget < 0 { return ([], index + 1, nil) }
            measured.append((index, distance(mismatches)))
        }
        return (Array(measured.sorted { $0.1 < $1.1 }.prefix(nearMissLimit)), nil, nil)
    }

    /// One near miss of a request and a stub, in WireMock's shape: `request`, `stubMapping`, `matchResult`.
    private static func stubNearMiss(_ entry: JournalEntry, _ stub: Stub, calls: Int, _ distance: Double, _ secrets: Bool) -> String {
        "{\"request\":" + loggedRequest(entry, secrets: secrets) + ",\"stubMapping\":" + mappingJSON(stub, calls: calls)
            + ",\"matchResult\":{\"distance\":" + JSONWriter.number(distance) + "}}"
    }

    /// The mismatches' weight mapped into 0…1 (0: every field matched).
    private static func distance(_ mismatches: [Mismatch]) -> Double {
        let weight = mismatches.reduce(0) { $0 + $1.weight }
        return weight / (weight + 1)
    }

    private static func headers(_ node: JSONNode?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for member in node?.members ?? [] {
            if let value = member.value.string {
                headers.add(member.key, value)
            } else if let values = member.value.elements {
                for value in values.compactMap(\.string) { headers.add(member.key, value) }
            }
        }
        return headers
    }
}
