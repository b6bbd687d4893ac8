import AutomationSupport
import MockServer
import ProcessEngine

/// The Given steps that shape the scenario's mock server: its stubs and routes, strictness, HTTPS and interception.
/// Stubs given after the server started reach it (as admin API mappings do); its protocol and hosts are decided
/// before the first launch.
extension StepCatalog {
    static let server: [StepDefinition] = [
        StepDefinition("the stubs \(quoted)", example: "Given the stubs \"stubs/login.json\"", values: [0: .raw]) { run, captures, _ in
            try run.refuseEmptyExpansion(captures[0], "stub file")
            let loaded: StubSet
            do { loaded = try StubLoader.load(run.featurePath(captures[0])) } catch { throw StepFailure("\(error)", kind: .error) }
            // A directory that gave nothing is said, never a silent empty server.
            if loaded.count == 0, !loaded.notices.isEmpty { throw StepFailure(loaded.notices.joined(separator: "\n"), kind: .error) }
            run.stubs.merge(loaded)
            run.hasStubs = true
            run.server?.add(loaded) // a server that runs already answers them from now on
        },
        StepDefinition(
            "the route \"([A-Z]+) (\\S+)\" answers \(StepNumbers.capture)(?: with( JSON)?:)?",
            example: "Given the route \"GET /message\" answers 200 with:\n  \"\"\"\n  Hello world\n  \"\"\"", docString: .jsonWhen(3),
            argument: .optionalDocString,
            check: { StepNumbers.problem($0[2], "the status", in: StepNumbers.status) ?? RouteTarget.problem($0[1], forRoute: true) }
        ) { run, captures, step in
            let isJSON = !captures[3].isEmpty
            let status = try StepNumbers.integer(captures[2], "the status", in: StepNumbers.status)
            var route =
                "{ \"method\": \(JSONWriter.quoted(captures[0])), \"path\": \(JSONWriter.quoted(captures[1])), \"status\": \(status)"
            if let body = step.docString?.content {
                route += isJSON ? ", \"json\": \(body)" : ", \"body\": \(JSONWriter.quoted(body))"
            }
            route += " }"
            let added: StubSet
            do {
                added = try StubLoader.parse("{ \"routes\": [\(route)] }", file: "\(run.pickle.uri):\(step.line)")
            } catch {
                throw StepFailure("the route is not valid: \(error)", kind: .error)
            }
            run.stubs.merge(added)
            run.hasStubs = true
            // A server that runs already (after a launch) answers the route from now on, as an admin API mapping.
            run.server?.add(added)
        },
        StepDefinition("unexpected requests fail the scenario", example: "Given unexpected requests fail the scenario") { run, _, _ in
            run.strict = true
        },
        StepDefinition("unexpected requests are allowed", example: "Given unexpected requests are allowed") { run, _, _ in
            run.strict = false
        },
        StepDefinition("the mock server speaks HTTPS", example: "Given the mock server speaks HTTPS") { run, _, _ in
            // The server starts at the first launch: after it, its protocol is decided (never a silent no-op).
            guard run.server == nil else {
                throw StepFailure(
                    "the mock server already runs over \(run.https == nil ? "HTTP" : "HTTPS"): say so before the first launch", kind: .error
                )
            }
            var plan = run.https ?? HTTPSPlan()
            plan.listensWithTLS = true
            run.https = plan
            run.hasStubs = true // a server runs even with no route yet: every request is then unexpected
        },
        StepDefinition(
            "the mock server intercepts \(quoted)", example: "Given the mock server intercepts \"api.example.com\"",
            // `${NAME}` is known when the step runs: checked then.
            check: { $0[0].contains("${") ? nil : Interception.hostProblem($0[0]) }
        ) { run, captures, _ in
            // The proxy listener starts with the server: after it, the hosts are decided (never a silent no-op).
            guard run.server == nil else {
                throw StepFailure("the mock server already runs: say which hosts it intercepts before the first launch", kind: .error)
            }
            let host = captures[0]
            if let problem = Interception.hostProblem(host) { throw StepFailure(problem, kind: .error) }
            run.https = HTTPSPlan.intercepting([host], base: run.https)
            run.hasStubs = true
        },
    ]
}

extension StepCatalog {
    /// Fails naming the cut when a request's body was longer than the journal keeps (``Journal/maxBodyBytes``): whether
    /// that body included the JSON cannot be told from its first part, so "no request had it" would be false.
    static func cutBodies(_ matching: [JournalEntry], _ route: String, expected: JSONNode) throws(StepFailure) {
        guard let cut = matching.first(where: \.bodyTruncated) else { return }
        throw StepFailure(
            "cannot tell whether a \(route) request had a JSON body including \(JSONWriter.write(expected)): request \(cut.sequence)'s body "
                + "was \(cut.bodySize) bytes and the journal keeps the first \(Journal.maxBodyBytes) of each body (it was cut)")
    }
}
