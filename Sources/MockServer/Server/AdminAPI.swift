import AutomationSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// The admin API under `/__admin`, for tests and other languages driving the server while a program runs.
///
/// ``EndpointPolicy`` guards it (loopback clients, `Host` and `Origin` of this server only, writes with
/// `Content-Type: application/json`) before this is called. `--no-admin` turns it off.
///
/// | request | effect |
/// |---|---|
/// | `GET /__admin/health` | `{"status":"ok"}` |
/// | `GET /__admin/mappings` | the stubs with their call counts |
/// | `POST /__admin/mappings` | adds a WireMock mapping (JSON body); 201 with its id |
/// | `DELETE /__admin/mappings` | removes every stub |
/// | `POST /__admin/mappings/reset` | back to the stubs loaded from files |
/// | `GET /__admin/requests` | the journal; `GET /__admin/requests/unmatched` the unexpected ones |
/// | `DELETE /__admin/requests` | clears the journal |
/// | `GET /__admin/scenarios`, `POST /__admin/scenarios/reset` | scenario states |
/// | `PUT /__admin/scenarios/{name}/state` | sets a scenario's state to one of its own (`{"state": "x"}`; no body: back to `Started`) |
/// | `POST /__admin/reset` | journal, call counts, scenarios and added stubs back to the start, as the admin API shows them (`expect` and `--journal` keep the whole run) |
/// | `POST /__admin/near-misses/request`, `…/request-pattern` | the stubs nearest a request, the requests nearest a pattern |
/// | `POST /__admin/settings` | `{"fixedDelay": ms}` delays every stub's answer (0 ends it); other settings are refused (422) |
/// | `POST /__admin/mappings/save` | the mappings now are what `mappings/reset` returns to (in memory; files untouched) |
/// | `POST /__admin/recordings/start`, `…/stop`, `GET …/status`, `POST …/snapshot` | WireMock's recording API |
/// | `POST /__admin/shutdown` | 200, then the server stops (`serve` exits as on Ctrl-C, writing its journal) |
///
/// On a run's server (``MockServer/AdminWrites/refuse``, the default of every run) the writes above are refused
/// (403) and unexpected: only the GETs and the searches (``readOnlyPosts``) are answered.
enum AdminAPI {
    static func respond(to request: HTTPRequest, parts: MockServer.Parts) -> MockResponse {
        let route = request.method + " " + (request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path)
        // The shutdown has its own refusal (no mode allows it on a run's server).
        if route != "POST /__admin/shutdown", let refusal = writeRefusal(route, request, mode: parts.settings.options.adminWrites) {
            return refusal
        }
        switch route {
        case "GET /__admin/health", "GET /__admin":
            return .json(text: "{\"status\":\"ok\"}")
        case "DELETE /__admin/mappings":
            parts.stubs.removeAll()
            return .json(text: "{}")
        case "POST /__admin/mappings/reset":
            parts.stubs.resetStubs()
            return .json(text: "{}")
        case "DELETE /__admin/requests", "POST /__admin/requests/reset":
            parts.journal.removeAll()
            return .json(text: "{}")
        case "GET /__admin/scenarios":
            // Every scenario a stub names, in WireMock's shape, with its state ("Started" until it moves).
            let body =
                "{\"scenarios\":["
                + parts.stubs.scenarioStates().map { name, current, possible in
                    "{\"id\":" + JSONWriter.quoted(name) + ",\"name\":" + JSONWriter.quoted(name) + ",\"state\":"
                        + JSONWriter.quoted(current)
                        + ",\"possibleStates\":[" + possible.map(JSONWriter.quoted).joined(separator: ",") + "]}"
                }.joined(separator: ",") + "]}"
            return .json(text: body)
        case "POST /__admin/settings", "PUT /__admin/settings":
            return settings(request, settings: parts.settings)
        case "POST /__admin/mappings/save":
            // WireMock writes the mappings to its root, so a later reset keeps them; here they become what
            // reset returns to, in memory (sut-launch never rewrites your stub files).
            parts.stubs.saveAsLoaded()
            return .json(text: "{}")
        case "POST /__admin/shutdown":
            guard let handler = parts.settings.onShutdown else { return refusedShutdown(request, parts: parts) }
            startDetachedShutdown(handler)
            return .json(text: "{}")
        case "POST /__admin/scenarios/reset":
            parts.stubs.resetScenarios()
            return .json(text: "{}")
        case "POST /__admin/reset":
            parts.stubs.reset()
            parts.journal.removeAll()
            return .json(text: "{}")
        default:
            if let answer = setScenarioState(route, request, stubs: parts.stubs) { return answer }
            if let answer = nearMisses(route, request, parts: parts) { return answer }
            if let answer = mappings(route, request, parts: parts) { return answer }
            if let answer = requests(route, request, journal: parts.journal, budget: parts.settings.options.matchBudget) { return answer }
            if let answer = recordings(route, request, parts: parts) { return answer }
            return .unanswered("unknown admin endpoint \(request.method) \(request.path)", status: 404)
        }
    }

    /// `PUT /__admin/scenarios/{name}/state`: `{"state": S}` with S one of the scenario's states (no body: back to
    /// `Started`); as WireMock 2.35, a state no stub of the scenario has, a missing state and any other key are
    /// refused (422) and the scenario stays where it was.
    private static func setScenarioState(_ route: String, _ request: HTTPRequest, stubs: StubRegistry) -> MockResponse? {
        guard route.hasPrefix("PUT /__admin/scenarios/"), route.hasSuffix("/state") else { return nil }
        let encoded = route.dropFirst("PUT /__admin/scenarios/".count).dropLast("/state".count)
        let name = PercentEncoding.decode(encoded, plusAsSpace: false)
        var newState: String? = ScenarioStates.started
        if !request.body.isEmpty {
            guard let body = try? JSONParser.parse(Array(request.bodyText.utf8), refusingLoneSurrogates: true), let members = body.members
            else {
                return .text("the body is a JSON object like {\"state\": \"Started\"}\n", status: 422)
            }
            if let other = members.first(where: { $0.key != "state" }) {
                return .text(
                    "unknown key \"\(other.key.prefix(80).escapingControlCharacters())\": the body is {\"state\": \"...\"}\n", status: 422)
            }
            newState = nil
            if let given = JSONNode.member("state", in: members), !(given.value == .null) {
                guard let text = given.string else { return .text("\"state\" must be a string\n", status: 422) }
                newState = text
            }
        }
        let title: String
        switch stubs.setScenario(name, state: newState) {
        case .set: return .json(text: "{}")
        case .noScenario:
            return .json(text: "{\"errors\":[{\"title\":" + JSONWriter.quoted("Scenario \(name) does not exist") + "}]}", status: 404)
        case .unsupported(let possible):
            title =
                "Scenario \(name) does not support state \(newState ?? "null") (its states: \(possible.joined(separator: ", ")); "
                + "give one a mapping requires or sets)"
        }
        return .json(text: "{\"errors\":[{\"title\":" + JSONWriter.quoted(title) + "}]}", status: 422)
    }

    /// WireMock's global settings: `fixedDelay` (at most 60 s) is what sut-launch has; anything else is refused by
    /// name rather than accepted and ignored.
    private static func settings(_ request: HTTPRequest, settings: ServerSettings) -> MockResponse {
        guard let body = try? JSONParser.parse(request.body, refusingLoneSurrogates: true), var members = body.members else {
            return .text("the body is a JSON object like {\"fixedDelay\": 100}\n", status: 422)
        }
        if let wrapped = JSONNode.member("settings", in: members)?.members { members = wrapped } // WireMock 3's shape
        for member in members where member.key != "fixedDelay" && !(member.value.value == .null) {
            return .text("global setting \"\(member.key)\" is not supported by sut-launch (fixedDelay is)\n", status: 422)
        }
        if let delay = JSONNode.member("fixedDelay", in: members), !(delay.value == .null) {
            guard let milliseconds = delay.int, StubRanges.globalDelayMs.contains(milliseconds) else {
                return .text("\"fixedDelay\" is milliseconds from 0 to 60000\n", status: 422)
            }
            settings.fixedDelayMs = milliseconds
        }
        return .json(text: "{}")
    }

    /// A shutdown asked of a server that only its run stops (a run of a program under test, a Swift test's server):
    /// 403, journaled as unexpected, so the program cannot stop the server its absences are judged by.
    private static func refusedShutdown(_ request: HTTPRequest, parts: MockServer.Parts) -> MockResponse {
        let refusal =
            "POST /__admin/shutdown refused: this mock server belongs to a run of a program under test and stops when the run "
            + "ends (only sut-launch serve stops on it)"
        let response = MockResponse.text(refusal + "\n", status: 403)
        _ = parts.journal.record(request, stub: nil, response: response, nearMiss: refusal)
        parts.settings.onUnexpected?(request)
        return response
    }

    /// Runs the shutdown after the answer has gone out (a moment later, on a thread of its own).
    private static func startDetachedShutdown(_ handler: (@Sendable () -> Void)?) {
        _ = startDetachedThread {
            MonotonicClock.sleep(milliseconds: 100)
            handler?()
        }
    }
}
