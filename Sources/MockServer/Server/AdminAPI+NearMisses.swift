import AutomationSupport

/// WireMock's near-miss queries: `POST /__admin/near-misses/request` (the stubs nearest a request, which need
/// not have been sent) and `POST /__admin/near-misses/request-pattern` (the logged requests nearest a pattern).
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
            let input = MatchInput(probe)
            let (stubs, counts, scenarios) = parts.stubs.snapshot()
            var budget = parts.settings.options.matchBudget
            var measured: [(Int, Double)] = []
            for (index, stub) in stubs.enumerated() {
                if let gone = clientGone(request, route, searched: index, of: stubs.count, items: "stubs") { return gone }
                let scenarioState = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
                let mismatches = stub.evaluate(input, scenarioState: scenarioState, collectAll: true, budget: &budget)
                if budget < 0 {
                    return budgetSpent(route, parts.settings.options.matchBudget, searched: index + 1, of: stubs.count, items: "stubs")
                }
                measured.append((index, distance(mismatches)))
            }
            let ranked = measured.sorted { $0.1 < $1.1 }.prefix(nearMissLimit)
            let entry = JournalEntry(sequence: 0, receivedAtMs: 0, request: probe, status: 0)
            return .json(
                text: "{\"nearMisses\":["
                    + ranked.map { index, distance in
                        "{\"request\":" + loggedRequest(entry, secrets: secrets)
                            + ",\"stubMapping\":" + mappingJSON(stubs[index], calls: index < counts.count ? counts[index] : 0)
                            + ",\"matchResult\":{\"distance\":" + JSONWriter.number(distance) + "}}"
                    }.joined(separator: ",") + "]}")
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
