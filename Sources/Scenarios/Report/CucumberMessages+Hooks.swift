import AutomationSupport

/// The users' hooks in Messages: a `hook` envelope each (its type, where it is defined, its tag expression), and in
/// each test case a test step per Before hook before the scenario's steps and per After hook after them, as Cucumber
/// writes them.
extension CucumberMessages {
    mutating func hookDefinitions(_ hooks: [Hook]) {
        for hook in hooks where hookIds[hook.source] == nil {
            let hookId = id()
            hookIds[hook.source] = hookId
            let colon = hook.source.lastIndex(of: ":")
            let uri = colon.map { String(hook.source[..<$0]) } ?? hook.source
            let line = colon.flatMap { BoundedNumber.integer(hook.source[hook.source.index(after: $0)...], in: 1...10_000_000) }
            var json =
                "{\"hook\":{\"id\":" + JSONWriter.quoted(hookId) + ",\"name\":" + JSONWriter.quoted(hook.title)
                + ",\"sourceReference\":{\"uri\":" + JSONWriter.quoted(uri) + (line.map { ",\"location\":{\"line\":\($0)}" } ?? "") + "}"
            if let tags = hook.tagSource { json += ",\"tagExpression\":" + JSONWriter.quoted(tags) }
            lines.append(json + ",\"type\":\"\(hook.kind.messageType)\"}}")
        }
    }

    /// The test steps of a case's Before (or After) hooks: `(stepId, testStep JSON)`, in the order they ran.
    mutating func hookSteps(_ results: [HookResult], _ kind: Hook.Kind) -> [(id: String, json: String)] {
        results.filter { $0.kind == kind }.compactMap { result in
            guard let hookId = hookIds[result.source] else { return nil }
            let stepId = id()
            return (stepId, "{\"id\":" + JSONWriter.quoted(stepId) + ",\"hookId\":" + JSONWriter.quoted(hookId) + "}")
        }
    }

    /// One attempt's hook results by position among `kind` (a hook the attempt did not reach: SKIPPED).
    static func hookOutcomes(_ result: ScenarioResult, _ kind: Hook.Kind, count: Int) -> [(
        status: String, duration: Duration, message: String?
    )] {
        let own = result.hookResults.filter { $0.kind == kind }
        return (0..<count).map { index in
            index < own.count ? (own[index].status, own[index].duration, own[index].message) : ("SKIPPED", .zero, nil)
        }
    }

    /// The run's BeforeAll/AfterAll hooks as Cucumber writes them: `testRunHookStarted` and `testRunHookFinished`
    /// (its result, with the message of a failure), each at its own time.
    mutating func testRunHookEnvelopes(_ results: [HookResult], runId: String) -> [Timed] {
        results.compactMap { result -> [Timed]? in
            guard let hookId = hookIds[result.source], let atMs = result.startedAtMs else { return nil }
            let startedId = id()
            let (seconds, attoseconds) = result.duration.components
            let message = result.message.map { ",\"message\":" + JSONWriter.quoted($0) } ?? ""
            return [
                Timed(
                    atMs: atMs,
                    line: "{\"testRunHookStarted\":{\"id\":" + JSONWriter.quoted(startedId) + ",\"testRunStartedId\":"
                        + JSONWriter.quoted(runId)
                        + ",\"hookId\":" + JSONWriter.quoted(hookId) + ",\"timestamp\":"),
                Timed(
                    atMs: atMs + result.duration.seconds * 1000,
                    line: "{\"testRunHookFinished\":{\"testRunHookStartedId\":" + JSONWriter.quoted(startedId)
                        + ",\"result\":{\"status\":\""
                        + result.status + "\",\"duration\":{\"seconds\":\(seconds),\"nanos\":\(attoseconds / 1_000_000_000)}" + message
                        + "},\"timestamp\":"),
            ]
        }.flatMap { $0 }
    }
}
