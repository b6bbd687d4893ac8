#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AutomationSupport
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
/// | `PUT /__admin/scenarios/{name}/state` | sets a scenario's state (`{"state": "x"}`; no body: back to `Started`) |
/// | `POST /__admin/reset` | journal, call counts, scenarios and added stubs back to the start |
/// | `POST /__admin/near-misses/request`, `…/request-pattern` | the stubs nearest a request, the requests nearest a pattern |
/// | `POST /__admin/settings` | `{"fixedDelay": ms}` delays every stub's answer (0 ends it); other settings are refused (422) |
/// | `POST /__admin/mappings/save` | the mappings now are what `mappings/reset` returns to (in memory; files untouched) |
/// | `POST /__admin/shutdown` | 200, then the server stops (`serve` exits as on Ctrl-C, writing its journal) |
enum AdminAPI {
    static func respond(to request: HTTPRequest, state: MockServer.State) -> MockResponse {
        let route = request.method + " " + (request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path)
        switch route {
        case "GET /__admin/health", "GET /__admin":
            return .json(text: "{\"status\":\"ok\"}")
        case "DELETE /__admin/mappings":
            state.locked { state in
                state.router = Router([])
                state.counts = []
            }
            return .json(text: "{}")
        case "POST /__admin/mappings/reset":
            state.locked { resetStubs($0) }
            return .json(text: "{}")
        case "DELETE /__admin/requests", "POST /__admin/requests/reset":
            state.locked { $0.journal.removeAll() }
            return .json(text: "{}")
        case "GET /__admin/scenarios":
            // Every scenario a stub names, in WireMock's shape, with its state ("Started" until it moves).
            let body = state.locked { state in
                "{\"scenarios\":[" + scenarioStates(state).map { name, possible in
                    let current = state.scenarios[name] ?? "Started"
                    return "{\"id\":" + JSONWriter.quoted(name) + ",\"name\":" + JSONWriter.quoted(name) + ",\"state\":" + JSONWriter.quoted(current)
                        + ",\"possibleStates\":[" + possible.map(JSONWriter.quoted).joined(separator: ",") + "]}"
                }.joined(separator: ",") + "]}"
            }
            return .json(text: body)
        case "POST /__admin/settings", "PUT /__admin/settings":
            return settings(request, state: state)
        case "POST /__admin/mappings/save":
            // WireMock writes the mappings to its root, so a later reset keeps them; here they become what
            // reset returns to, in memory (sut-launch never rewrites your stub files).
            state.locked { $0.fileStubs.stubs = $0.router.stubs }
            return .json(text: "{}")
        case "POST /__admin/shutdown":
            let handler = state.locked { $0.shutdownHandler }
            startDetachedShutdown(handler)
            return .json(text: "{}")
        case "POST /__admin/scenarios/reset":
            state.locked { $0.scenarios.removeAll() }
            return .json(text: "{}")
        case "POST /__admin/reset":
            state.locked { state in
                resetStubs(state)
                state.scenarios.removeAll()
                state.journal.removeAll()
                state.sequence = 0
            }
            return .json(text: "{}")
        default:
            if let answer = setScenarioState(route, request, state: state) { return answer }
            if let answer = nearMisses(route, request, state: state) { return answer }
            if let answer = mappings(route, request, state: state) { return answer }
            if let answer = requests(route, request, state: state) { return answer }
            return .text("unknown admin endpoint \(request.method) \(request.path)\n", status: 404)
        }
    }

    /// The control channel (``EndpointPolicy`` guards it as the admin API; writes carry
    /// `Content-Type: application/octet-stream`):
    /// - `POST /__sut/control` queues its body as a message: 202 with `{"id":N}` and `X-Sut-Message-Id: N`; with
    ///   `?waitForAckMs=M` it waits up to M ms for the program's acknowledgement: 200 with the program's reply
    ///   as the body, or 504 when none came.
    /// - `GET /__sut/control?timeoutMs=N` (with `Content-Type: application/octet-stream`, as writes: it takes
    ///   the message off the queue) waits up to N ms (default 25,000) for the next message: 200 with the message
    ///   as the body and its id in `X-Sut-Message-Id`, 204 when none came.
    /// - `POST /__sut/control/ack?id=N` acknowledges message N with the body as the reply: 204, or 404 for an
    ///   id never sent.
    static func control(_ request: HTTPRequest, state: MockServer.State) -> MockResponse {
        do {
            return try controlAnswer(request, state: state)
        } catch {
            return error.response
        }
    }

    /// The longest a control request waits (`timeoutMs`, `waitForAckMs`).
    static let controlWaitRange = 0...120_000

    private static func controlAnswer(_ request: HTTPRequest, state: MockServer.State) throws(Refusal) -> MockResponse {
        if request.path == "/__sut/control/ack" {
            guard request.method == "POST" else { return .text("use POST /__sut/control/ack?id=N with the reply as the body\n", status: 405) }
            guard let id = try queryInteger("id", of: request, in: 1...Int.max) else {
                return .text("missing ?id=N (the X-Sut-Message-Id of the message)\n", status: 400)
            }
            guard state.acknowledgeControlMessage(id, reply: request.bodyText) else { return .text("no control message \(id) was sent\n", status: 404) }
            return MockResponse(status: 204)
        }
        switch request.method {
        case "POST":
            let waitForAck = try queryInteger("waitForAckMs", of: request, in: controlWaitRange)
            let id: Int
            switch state.enqueueControlMessage(request.bodyText) {
            case .success(let queued): id = queued
            case .failure(let problem):
                if case .tooLarge = problem { return .text("\(problem)\n", status: 413) }
                return .text("\(problem)\n", status: 503)
            }
            if let waitForAck {
                guard let reply = state.waitForControlAcknowledgement(id, timeoutMs: waitForAck) else {
                    return MockResponse(status: 504, headers: ["X-Sut-Message-Id": String(id), "Content-Type": "text/plain; charset=utf-8"],
                                        body: Array("the program did not acknowledge control message \(id) in time\n".utf8))
                }
                return MockResponse(status: 200, headers: ["X-Sut-Message-Id": String(id), "Content-Type": "text/plain; charset=utf-8"], body: Array(reply.utf8))
            }
            return MockResponse(status: 202, headers: ["X-Sut-Message-Id": String(id), "Content-Type": "application/json"], body: Array("{\"id\":\(id)}".utf8))
        case "GET":
            let timeout = try queryInteger("timeoutMs", of: request, in: controlWaitRange) ?? 25_000
            guard let message = state.nextControlMessage(timeoutMs: timeout) else { return MockResponse(status: 204) }
            return MockResponse(status: 200, headers: ["X-Sut-Message-Id": String(message.id), "Content-Type": "text/plain; charset=utf-8"],
                                body: Array(message.text.utf8))
        default:
            return .text("use GET (receive) or POST (send)\n", status: 405)
        }
    }

    /// The query parameter `name` read by ``BoundedNumber`` in `range`; nil when absent.
    /// - Throws: a 400 naming the parameter, its value and the range.
    static func queryInteger(_ name: String, of request: HTTPRequest, in range: ClosedRange<Int>) throws(Refusal) -> Int? {
        guard let text = request.query(name) else { return nil }
        do {
            return try BoundedNumber.requireInteger(text, in: range)
        } catch {
            throw Refusal(.text("?\(name): \(error)\n", status: 400))
        }
    }

    /// The scenarios the stubs name, sorted, with the states they mention (Started first).
    private static func scenarioStates(_ state: MockServer.State) -> [(String, [String])] {
        var states: [String: [String]] = [:]
        for stub in state.router.stubs {
            guard let rule = stub.scenario else { continue }
            var known = states[rule.name] ?? ["Started"]
            for name in [rule.requiredState, rule.newState].compactMap({ $0 }) where !known.contains(name) { known.append(name) }
            states[rule.name] = known
        }
        return states.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `PUT /__admin/scenarios/{name}/state`.
    private static func setScenarioState(_ route: String, _ request: HTTPRequest, state: MockServer.State) -> MockResponse? {
        guard route.hasPrefix("PUT /__admin/scenarios/"), route.hasSuffix("/state") else { return nil }
        let encoded = route.dropFirst("PUT /__admin/scenarios/".count).dropLast("/state".count)
        let name = PercentEncoding.decode(encoded, plusAsSpace: false)
        var newState = "Started"
        if !request.body.isEmpty {
            guard let body = try? JSONParser.parse(request.bodyText), let members = body.members else {
                return .text("the body is a JSON object like {\"state\": \"Started\"}\n", status: 400)
            }
            if let given = JSONNode.member("state", in: members) {
                guard let text = given.string else { return .text("\"state\" must be a string\n", status: 400) }
                newState = text
            }
        }
        return state.locked { state -> MockResponse in
            guard scenarioStates(state).contains(where: { $0.0 == name }) else {
                return .json(text: "{\"errors\":[{\"title\":" + JSONWriter.quoted("Scenario \(name) does not exist") + "}]}", status: 404)
            }
            state.scenarios[name] = newState == "Started" ? nil : newState
            return .json(text: "{}")
        }
    }

    /// WireMock's global settings: `fixedDelay` (at most 60 s) is what sut-launch has; anything else is refused by
    /// name rather than accepted and ignored.
    private static func settings(_ request: HTTPRequest, state: MockServer.State) -> MockResponse {
        guard let body = try? JSONParser.parse(request.body), var members = body.members else {
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
            state.locked { $0.globalDelayMs = milliseconds }
        }
        return .json(text: "{}")
    }

    /// Runs the shutdown after the answer has gone out (a moment later, on a thread of its own).
    private static func startDetachedShutdown(_ handler: (@Sendable () -> Void)?) {
        _ = startDetachedThread {
            MonotonicClock.sleep(milliseconds: 100)
            handler?()
        }
    }

    private static func resetStubs(_ state: MockServer.State) {
        state.router = Router(state.fileStubs.stubs)
        state.counts = [Int](repeating: 0, count: state.fileStubs.count)
    }
}
