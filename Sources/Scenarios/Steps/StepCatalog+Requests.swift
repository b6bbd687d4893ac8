import AutomationSupport
import MockServer
import ProcessEngine

/// The `Then the server received …` steps. Each judges the programs' whole run: it watches the journal until its
/// answer can no longer change, or every program the scenario started has ended (and the server was idle 100 ms), or
/// for the whole step timeout while one runs. A count or absence that still held when that watch was cut with a
/// program running is not a pass yet: it stays open (``ScenarioRun/openChecks``) and is judged again once the
/// programs have ended, failing its own step when the answer changed.
extension StepCatalog {
    static let requests: [StepDefinition] = [
        StepDefinition(
            "the server received \(StepNumbers.capture) requests? to \"([A-Z]+) (\\S+)\"",
            example: "Then the server received 1 request to \"GET /message\"", values: [2: .expected],
            check: { StepNumbers.problem($0[0], "the request count", in: StepNumbers.requestCount) ?? RouteTarget.problem($0[2]) }
        ) { run, captures, step in
            // Failing at once past the count; then compared exactly. A count of 0 is an absence watched the same way.
            let expected = try StepNumbers.integer(captures[0], "the request count", in: StepNumbers.requestCount)
            let route = "\(captures[1]) \(captures[2])"
            let what = "\(captures[0]) request\(captures[0] == "1" ? "" : "s") to \(route)"
            // A request whose answer could not be made (a template refused, a file unreadable) is no call: not counted.
            var seen = try requests(run, captures[1], captures[2])
            let open = try run.watchRequests { () throws(StepFailure) -> Bool in
                seen = try requests(run, captures[1], captures[2])
                return seen.count { !$0.notAnswered && !$0.refused } > expected
            }
            if let problem = try countProblem(run, what, route, expected: expected, seen: seen, open: open) { throw StepFailure(problem) }
            if open {
                run.keepOpen(step, what: "expected \(what)") { () throws(StepFailure) -> String? in
                    let seen = try requests(run, captures[1], captures[2])
                    return try countProblem(run, what, route, expected: expected, seen: seen, open: false)
                }
            }
        },
        StepDefinition(
            "the server received a request to \"([A-Z]+) (\\S+)\" with header \(quoted) \(quoted)",
            example: "Then the server received a request to \"GET /cities\" with header \"egon-route\" \"true\"",
            values: [1: .expected, 2: .expected, 3: .expected],
            check: { RouteTarget.problem($0[1]) }
        ) { run, captures, _ in
            try awaitRequest(run, captures[0], captures[1], "had header \(captures[2]): \(captures[3])") {
                $0.headers.values(captures[2]).containsScalars(captures[3]) // code points: NFD is not NFC
            }
        },
        StepDefinition(
            "the server received a request to \"([A-Z]+) (\\S+)\" with query \(quoted) \(quoted)",
            example: "Then the server received a request to \"GET /cities\" with query \"q\" \"Milano\"",
            values: [1: .expected, 2: .expected, 3: .expected],
            check: { RouteTarget.problem($0[1]) }
        ) { run, captures, _ in
            try awaitRequest(run, captures[0], captures[1], "had query \(captures[2])=\(captures[3])") {
                $0.queryItems.contains { $0.name.sameScalars(captures[2]) && $0.value.sameScalars(captures[3]) }
            }
        },
        StepDefinition(
            "the server received a request to \"([A-Z]+) (\\S+)\" with JSON body:",
            example: "Then the server received a request to \"POST /login\" with JSON body:\n  \"\"\"\n  { \"user\": \"ada\" }\n  \"\"\"",
            values: [1: .expected], docString: .expectedJSON, argument: .docString,
            check: { RouteTarget.problem($0[1]) }
        ) { run, captures, step in
            guard let text = step.docString?.content else { throw StepFailure("this step needs a doc string with the JSON", kind: .error) }
            let expected: JSONNode
            do { expected = try JSONParser.parse(text) } catch {
                throw StepFailure("the expected body is not JSON: \(error)", kind: .error)
            }
            if let problem = vacuousJSONProblem(expected) ?? inexactJSONProblem(text) { throw StepFailure(problem, kind: .error) }
            // Numbers compare as Doubles: a body number a Double would round is not read (as the stubs' matchers do),
            // so 18446744073709551614 never includes an expected 18446744073709551615.
            try awaitRequest(run, captures[0], captures[1], "had a JSON body including \(JSONWriter.write(expected))", json: expected) {
                (try? JSONParser.parse($0.body, exactDecimals: true)).map { RequestMatching.jsonIncludes(expected, $0) } ?? false
            }
        },
        StepDefinition("the server received no unexpected requests", example: "Then the server received no unexpected requests") {
            run, _, step in
            _ = try run.requireServer() // with no server, nothing could have been refused: never a vacuous pass
            // An absence, watched as a count of 0 is: over the programs' whole run, failing at the first one.
            var unexpected = run.unexpectedRequests
            let open = try run.watchRequests { () throws(StepFailure) -> Bool in
                unexpected = run.unexpectedRequests
                return !unexpected.isEmpty
            }
            if !unexpected.isEmpty { throw StepFailure("the server received unexpected requests:\n" + unexpected.joined(separator: "\n")) }
            if open {
                run.keepOpen(step, what: "no unexpected requests") { () throws(StepFailure) -> String? in
                    let unexpected = run.unexpectedRequests
                    return unexpected.isEmpty ? nil : "the server received unexpected requests:\n" + unexpected.joined(separator: "\n")
                }
            }
        },
    ]

    /// Why a JSON body step's expected value cannot fail on content: `{}`, `[]`, or an object whose members are only
    /// those. The body is matched as a subset (extra members and elements allowed), so such a value is included in any
    /// body of its shape, as an empty expected text is found in any output: refused at load, as that is.
    static func vacuousJSONProblem(_ expected: JSONNode) -> String? {
        guard expected.includesNothing else { return nil }
        return "the expected JSON body \(JSONWriter.write(expected).prefix(80)) names no value: an empty object or array is included in "
            + "any (the body is matched as a subset), so this step could never fail on what was sent; name a member with its value, "
            + "like { \"user\": \"ada\" }"
    }

    /// Why a JSON body step's expected `text` cannot be compared exactly: a number with more digits than a Double keeps
    /// (`18446744073709551615` read as 1.8446744073709552e19 equalled …614). Refused, at load too, as the stubs' matchers
    /// refuse such a number in a request; nil for any other text.
    static func inexactJSONProblem(_ text: String) -> String? {
        guard (try? JSONParser.parse(text)) != nil else { return nil }
        do { _ = try JSONParser.parse(request: text) } catch {
            return "the expected JSON body cannot be compared exactly: \(error.message); numbers are compared as doubles, so this one"
                + " would equal its neighbours: leave it out of the expected body (a body holding such a number matches no expected body)"
        }
        return nil
    }

    /// Why a count does not hold: past or short of `expected` (short while a program ran: that watch was cut at the
    /// step timeout), or a journal that dropped entries and cannot say how many there were (never a part counted).
    private static func countProblem(
        _ run: ScenarioRun, _ what: String, _ route: String, expected: Int, seen: [JournalEntry], open: Bool
    ) throws(StepFailure) -> String? {
        // Neither a request whose answer could not be made nor one the server refused before matching (431, a bad
        // %-escape: 400) is a request to the route.
        let count = seen.count { !$0.notAnswered && !$0.refused }
        let unanswered = seen.count { $0.notAnswered }
        let refused = seen.count { $0.refused }
        if let dropped = try droppedRequests(run) { return "cannot count requests to \(route): \(dropped)" }
        guard count != expected else { return nil }
        let when =
            count > expected ? "" : open ? " within \(run.waitDescription) (the program was still running)" : " (the program had ended)"
        var failed = unanswered > 0 ? " (and \(unanswered) could not be answered)" : ""
        if refused > 0 { failed += " (and \(refused) \(refused == 1 ? "was" : "were") refused before matching)" }
        return "expected \(what), the server received \(count)\(failed)\(when)\(received(run))"
    }

    /// What the journal dropped, when it dropped any: no step can then say a request did not come.
    private static func droppedRequests(_ run: ScenarioRun) throws(StepFailure) -> String? {
        let journal = try run.settledServer().journal
        guard journal.dropped > 0 else { return nil }
        return "the journal dropped \(journal.dropped) of \(journal.count + journal.dropped) requests (it keeps at most "
            + "\(journal.limit) entries and \(ByteSize.text(journal.byteBudget)))"
    }

    /// Watches for a request to `method path` that `holds` (once seen it stays seen: no need to judge it again), over
    /// the programs' run as a count is; fails naming what none had, with the requests received (or their bodies).
    private static func awaitRequest(
        _ run: ScenarioRun, _ method: String, _ path: String, _ what: String, json: JSONNode? = nil,
        _ holds: @escaping (HTTPRequest) -> Bool
    ) throws(StepFailure) {
        // A request whose answer could not be made (a template refused, a file unreadable) is no call, as the count
        // steps say, and one the server refused before matching (431, 400) went to no route: neither satisfies a
        // detail step.
        var matching = try requests(run, method, path).filter { !$0.notAnswered && !$0.refused }
        let open = try run.watchRequests { () throws(StepFailure) -> Bool in
            matching = try requests(run, method, path).filter { !$0.notAnswered && !$0.refused }
            return matching.contains { holds($0.request) }
        }
        guard !matching.contains(where: { holds($0.request) }) else { return }
        let when = open ? " within \(run.waitDescription) (the program was still running)" : ""
        let unanswered = (try requests(run, method, path)).count { $0.notAnswered && holds($0.request) }
        let failed = unanswered > 0 ? " answered (\(unanswered) that had it could not be answered)" : ""
        // One that had it may be among those dropped: never "no request had it" then (r12 R12-9: "bodies received: (none)").
        if let dropped = try droppedRequests(run) {
            throw StepFailure("cannot tell whether a \(method) \(path) request \(what): \(dropped)")
        }
        guard let json else { throw StepFailure("no \(method) \(path) request\(failed) \(what)\(when)\(received(run))") }
        // A body past what the journal keeps cannot say it did not include the JSON: never "no request had it".
        try cutBodies(matching, "\(method) \(path)", expected: json)
        let shown = matching.map { "  " + $0.request.bodyText }.joined(separator: "\n")
        throw StepFailure("no \(method) \(path) request\(failed) \(what)\(when); bodies received:\n\(shown.isEmpty ? "  (none)" : shown)")
    }

    private static func requests(_ run: ScenarioRun, _ method: String, _ path: String) throws(StepFailure) -> [JournalEntry] {
        // Checked at load; again here for callers that skip loading (and for a path a value filled in).
        if let problem = RouteTarget.problem(path) { throw StepFailure(problem, kind: .error) }
        let server = try run.settledServer()
        return server.journal.ordered.filter { RequestMatching.matches($0.request, method: RouteTarget.method(method), path: path) }
    }

    private static func received(_ run: ScenarioRun) -> String {
        let entries = run.server?.journal.ordered ?? []
        guard !entries.isEmpty else { return "; it received no requests" }
        return "; it received:\n" + entries.map { "  \($0.request.method) \($0.request.target) → \($0.status)" }.joined(separator: "\n")
    }
}
