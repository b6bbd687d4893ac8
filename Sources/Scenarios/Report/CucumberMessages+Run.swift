import AutomationSupport
import ProcessEngine

/// The run's envelopes: `stepDefinition`s and the mock server's hook, `testRunStarted`, a `testCase` per scenario,
/// then each case's timed envelopes (`testCaseStarted`, `testStepStarted`/`testStepFinished`, `attachment`,
/// `testCaseFinished`) in the order of their timestamps (cases that ran at once with `--jobs` interleave, each in its
/// own order), and `testRunFinished`, whose timestamp is the latest of all: the stream is ordered as Cucumber writes
/// it, whatever the scenarios' wall-clock times say.
extension CucumberMessages {
    /// An envelope of a test case and the instant it stands for. `line` ends with its `"timestamp":` key when
    /// `stamped`: the timestamp and the closing braces follow once the run put the envelopes in order.
    struct Timed {
        var atMs: Double
        var line: String
        var stamped = true

        func text(_ timestamp: String) -> String { stamped ? line + timestamp + "}}" : line }
    }

    /// A stepDefinition per built-in step and per user step (shell or Swift), so each test step names the one
    /// that matched it (report tools show an empty list as an undefined step).
    mutating func stepDefinitions(userSteps: [UserStep]) {
        // The mock server's checks at a scenario's end (unmet `expect.times`, unexpected requests) run as Cucumber
        // runs an After hook: a test step of its own, FAILED when they fail, so no report shows the case green.
        let hookId = id()
        mockServerHookId = hookId
        lines.append(
            "{\"hook\":{\"id\":" + JSONWriter.quoted(hookId) + ",\"name\":\"mock server checks\","
                + "\"sourceReference\":{\"uri\":\"sut-launch:mock-server\"},\"type\":\"AFTER_TEST_CASE\"}}")
        for (index, definition) in StepCatalog.all.enumerated() {
            let definitionId = id()
            definitionIds["catalog:\(index)"] = definitionId
            lines.append(
                "{\"stepDefinition\":{\"id\":" + JSONWriter.quoted(definitionId) + ",\"pattern\":{\"source\":"
                    + JSONWriter.quoted(definition.source)
                    + ",\"type\":\"REGULAR_EXPRESSION\"},\"sourceReference\":{\"uri\":\"sut-launch:steps\"}}}")
        }
        for step in userSteps {
            let definitionId = id()
            definitionIds["user:" + step.pattern] = definitionId
            let file = String(step.source.prefix { $0 != ":" })
            lines.append(
                "{\"stepDefinition\":{\"id\":" + JSONWriter.quoted(definitionId) + ",\"pattern\":{\"source\":"
                    + JSONWriter.quoted(step.pattern)
                    + ",\"type\":\"CUCUMBER_EXPRESSION\"},\"sourceReference\":{\"uri\":" + JSONWriter.quoted(file) + "}}}")
        }
    }

    /// The stepDefinition id that matches a step's text, if any, with its match's arguments as JSON.
    private func definition(for text: String, userSteps: [UserStep]) -> (id: String, arguments: String)? {
        func json(_ arguments: [(start: Int, value: String)]) -> String {
            "["
                + arguments.map { "{\"group\":{\"start\":\($0.start),\"value\":" + JSONWriter.quoted($0.value) + ",\"children\":[]}}" }
                .joined(separator: ",") + "]"
        }
        if let (found, _) = StepCatalog.find(text), let index = StepCatalog.all.firstIndex(where: { $0.source == found.source }),
            let definitionId = definitionIds["catalog:\(index)"]
        {
            return (definitionId, json(StepDefinition.arguments(of: found.pattern, in: text)))
        }
        guard let step = userSteps.first(where: { $0.match(text) != nil }), let definitionId = definitionIds["user:" + step.pattern] else {
            return nil
        }
        return (definitionId, json(StepDefinition.arguments(of: step.regex, in: text)))
    }

    /// The whole run: `testRunStarted` at `startedAtMs`, every result's test case (each at its own start; one that
    /// did not start, at the end), the timed envelopes in time order, `testRunFinished` last. Every timestamp lies
    /// between the run's start and its finish (a wall clock set back or forth meanwhile cannot reorder the stream).
    /// Each case carries its result (``ReportRecord``), and the run its record before `testRunFinished`.
    mutating func testRun(
        _ results: [ScenarioResult], startedAtMs: Double, finishedAtMs: Double, run: ReportRecord.Run, userSteps: [UserStep]
    ) {
        let finishedAtMs = max(startedAtMs, finishedAtMs)
        let runId = testRunStarted(atMs: startedAtMs, id: run.id)
        var timed = testRunHookEnvelopes(ScenarioRunner.testRunHookResults.current, runId: runId)
        var orphans: [(index: Int, result: ScenarioResult)] = []
        var run = run
        run.selected = [] // each scenario with a test case: `report` fails a merge where one has none
        for (index, result) in results.enumerated() {
            let envelopes = testCaseEnvelopes(
                result, startedAtMs: result.startedAtMs ?? finishedAtMs, userSteps: userSteps, index: index)
            if envelopes.isEmpty { orphans.append((index, result)) } else { run.selected?.append(result.pickle.location) }
            timed += envelopes
        }
        // Clamping is monotonic, so each case keeps its own order; ties keep the order they were made in.
        let ordered = timed.enumerated().map { (min(max($1.atMs, startedAtMs), finishedAtMs), $0, $1) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        lines += ordered.map { at, _, envelope in envelope.text(timestamp(at)) }
        lines.append(
            ReportRecord.attachment(ReportRecord.json(run, orphans: orphans), fileName: ReportRecord.runFile, testRunStartedId: run.id))
        // A run that launched nothing (`--dry-run`, `--list`) is no success, as its other reports say (exit 5).
        testRunFinished(success: run.exitCode == 0 && !(results.isEmpty && run.launchedNothing), atMs: finishedAtMs)
    }

    /// - Returns: the run's id (`id`, else a new one), which its BeforeAll/AfterAll hooks' envelopes name.
    @discardableResult
    mutating func testRunStarted(atMs: Double, id runId: String? = nil) -> String {
        let runId = runId ?? id()
        lines.append("{\"testRunStarted\":{\"id\":" + JSONWriter.quoted(runId) + ",\"timestamp\":" + timestamp(atMs) + "}}")
        return runId
    }

    /// One scenario's test case and its steps' results, in the order they happened (for one case alone).
    mutating func testCase(_ result: ScenarioResult, startedAtMs: Double, userSteps: [UserStep] = []) {
        lines += testCaseEnvelopes(result, startedAtMs: startedAtMs, userSteps: userSteps).map { $0.text(timestamp($0.atMs)) }
    }

    /// One scenario's `testCase` (added to the envelopes now), and its timed envelopes (returned, their timestamps
    /// to stamp): its steps' results read off the trail (✓ passed, ✗ failed, - skipped), each step at its start.
    private mutating func testCaseEnvelopes(_ result: ScenarioResult, startedAtMs: Double, userSteps: [UserStep], index: Int? = nil)
        -> [Timed]
    {
        guard let (pickleId, pickleStepIds, texts) = pickleIds[result.pickle.location] else { return [] }
        let caseId = id()
        let stepIds = pickleStepIds.map { _ in id() }
        let testSteps = stepIds.indices.map { index -> String in
            let found = definition(for: texts[index], userSteps: userSteps)
            return "{\"id\":" + JSONWriter.quoted(stepIds[index]) + ",\"pickleStepId\":" + JSONWriter.quoted(pickleStepIds[index])
                + ",\"stepDefinitionIds\":[" + (found.map { JSONWriter.quoted($0.id) } ?? "") + "],\"stepMatchArgumentsLists\":["
                + (found.map { "{\"stepMatchArguments\":" + $0.arguments + "}" } ?? "") + "]}"
        }
        let attempts = result.earlierAttempts + [result]
        let hasHook = attempts.contains { $0.mockServerChecks != nil }
        let hook = hasHook ? mockServerHookId.map { (hookId: $0, stepId: id()) } : nil
        let hookStep = hook.map { ["{\"id\":" + JSONWriter.quoted($0.stepId) + ",\"hookId\":" + JSONWriter.quoted($0.hookId) + "}"] } ?? []
        let before = hookSteps(result.hookResults, .before)
        let after = hookSteps(result.hookResults, .after)
        lines.append(
            "{\"testCase\":{\"id\":" + JSONWriter.quoted(caseId) + ",\"pickleId\":" + JSONWriter.quoted(pickleId) + ",\"testSteps\":["
                + (before.map(\.json) + testSteps + after.map(\.json) + hookStep).joined(separator: ",") + "]}}")
        // Each attempt (`--retries`) is a testCaseStarted of the same testCase with its `attempt` number; all but the
        // last finish with `willBeRetried`, as Cucumber writes them.
        var timed: [Timed] = []
        for (number, attempt) in attempts.enumerated() {
            let ids = AttemptIds(
                caseId: caseId, startedId: id(), stepIds: stepIds, hookStepId: hook?.stepId, beforeIds: before.map(\.id),
                afterIds: after.map(\.id))
            let attemptStart = number == attempts.count - 1 ? startedAtMs : attempt.startedAtMs ?? startedAtMs
            // The result record (``ReportRecord``) goes with the last attempt: it holds the earlier ones.
            timed += attemptEnvelopes(
                attempt, ids: ids, number: number, willBeRetried: number < attempts.count - 1,
                startedAtMs: attemptStart, index: number == attempts.count - 1 ? index : nil)
            // Only where the quarantine excused the outcome: a quarantined scenario that could not run (an
            // undefined step) fails the run, and a reader of these Messages (`--rerun-failed`) must see it failed.
            if result.quarantined, !result.failsTheRun { timed.append(quarantineMark(ids.startedId, atMs: attemptStart)) }
            if result.flakyFailsTheRun, number == attempts.count - 1 { timed.append(flakyMark(ids.startedId, atMs: attemptStart)) }
        }
        return timed
    }

    /// The ids one attempt's envelopes name.
    private struct AttemptIds {
        var caseId: String
        var startedId: String
        var stepIds: [String]
        var hookStepId: String?
        /// The test steps of the users' Before and After hooks.
        var beforeIds: [String] = []
        var afterIds: [String] = []
    }

    /// One attempt's timed envelopes: started, its steps (and the mock server's hook), the output attachment, finished.
    private func attemptEnvelopes(
        _ result: ScenarioResult, ids: AttemptIds, number: Int, willBeRetried: Bool, startedAtMs: Double, index: Int?
    ) -> [Timed] {
        let startedId = ids.startedId
        let stepIds = ids.stepIds
        var timed = [
            Timed(
                atMs: startedAtMs,
                line: "{\"testCaseStarted\":{\"id\":" + JSONWriter.quoted(startedId) + ",\"testCaseId\":" + JSONWriter.quoted(ids.caseId)
                    + ",\"attempt\":\(number),\"timestamp\":")
        ]
        let checks = result.mockServerChecks
        let hookFailed = (checks.map { !$0.isEmpty } ?? false) || result.hookResults.contains { $0.status == "FAILED" }
        let statuses = Self.stepStatuses(result, count: stepIds.count, hookFailed: hookFailed)
        var at = startedAtMs
        for (stepId, outcome) in zip(ids.beforeIds, Self.hookOutcomes(result, .before, count: ids.beforeIds.count)) {
            timed += step(startedId, stepId, status: outcome.status, duration: outcome.duration, message: outcome.message, at: &at)
        }
        for (index, stepId) in stepIds.enumerated() {
            let duration = index < result.stepDurations.count ? result.stepDurations[index] : .zero
            timed += step(startedId, stepId, status: statuses[index], duration: duration, message: result.message, at: &at)
        }
        for (stepId, outcome) in zip(ids.afterIds, Self.hookOutcomes(result, .after, count: ids.afterIds.count)) {
            timed += step(startedId, stepId, status: outcome.status, duration: outcome.duration, message: outcome.message, at: &at)
        }
        if let hookStepId = ids.hookStepId {
            let message = checks.map { $0.isEmpty ? nil : "mock server: " + $0.joined(separator: "; ") } ?? nil
            let status = checks.map { $0.isEmpty ? "PASSED" : "FAILED" } ?? "SKIPPED"
            timed += step(startedId, hookStepId, status: status, duration: .zero, message: message, at: &at)
        }
        let finishedAtMs = max(at, startedAtMs + result.duration.seconds * 1000)
        // The program's last output lines (and unexpected requests), attached to the last step that ran, as
        // Cucumber attaches a step's output: report tools show them under that step.
        let ran = result.trail.lastIndex { !$0.hasPrefix("-") } ?? (stepIds.isEmpty ? nil : 0)
        if let ran, ran < stepIds.count, !result.outputTail.isEmpty || !result.unexpectedRequests.isEmpty {
            let body =
                result.outputTail
                + (result.unexpectedRequests.isEmpty ? "" : "unexpected requests:\n" + result.unexpectedRequests.joined(separator: "\n"))
            let line =
                "{\"attachment\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId) + ",\"testStepId\":"
                + JSONWriter.quoted(stepIds[ran])
                + ",\"body\":" + JSONWriter.quoted(body)
                + ",\"contentEncoding\":\"IDENTITY\",\"mediaType\":\"text/plain\",\"fileName\":\"output.txt\"}}"
            timed.append(Timed(atMs: finishedAtMs, line: line, stamped: false))
        }
        // --coverage: what the scenario reached, as JSON, for report tools (and the HTML report) to show.
        if let reach = result.coverage, let ran = ran ?? (stepIds.isEmpty ? nil : 0), ran < stepIds.count {
            let line =
                "{\"attachment\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId) + ",\"testStepId\":"
                + JSONWriter.quoted(stepIds[ran]) + ",\"body\":" + JSONWriter.quoted(ScenarioJSONReport.coverage(reach))
                + ",\"contentEncoding\":\"IDENTITY\",\"mediaType\":\"" + Self.coverageMediaType + "\",\"fileName\":\"coverage.json\"}}"
            timed.append(Timed(atMs: finishedAtMs, line: line, stamped: false))
        }
        if let index {
            let record = ReportRecord.attachment(
                ReportRecord.json(result, index: index), fileName: ReportRecord.resultFile, testCaseStartedId: startedId)
            timed.append(Timed(atMs: finishedAtMs, line: record, stamped: false))
        }
        timed.append(
            Timed(
                atMs: finishedAtMs,
                line: "{\"testCaseFinished\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId)
                    + ",\"willBeRetried\":\(willBeRetried),\"timestamp\":"))
        return timed
    }

    /// The mark of a quarantined scenario (`@quarantine`, `--quarantine`): an attachment of the attempt, its media
    /// type `application/vnd.sut-launch.quarantine`, saying its outcome does not decide the run (absent when it
    /// does: a quarantined scenario that could not run).
    private func quarantineMark(_ startedId: String, atMs: Double) -> Timed {
        Timed(
            atMs: atMs,
            line: "{\"attachment\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId)
                + ",\"body\":\"quarantined: this scenario runs and is reported, but its failure does not fail the run\""
                + ",\"contentEncoding\":\"IDENTITY\",\"mediaType\":\"application/vnd.sut-launch.quarantine\"}}",
            stamped: false)
    }

    /// The mark of a flaky pass that failed the run (`--fail-on-flaky`): an attachment of its last attempt, its media
    /// type `application/vnd.sut-launch.fail-on-flaky`, which `--rerun-failed` reads as a failure.
    private func flakyMark(_ startedId: String, atMs: Double) -> Timed {
        Timed(
            atMs: atMs,
            line: "{\"attachment\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId)
                + ",\"body\":\"flaky: passed only on a retry, which fails the run (--fail-on-flaky)\""
                + ",\"contentEncoding\":\"IDENTITY\",\"mediaType\":\"application/vnd.sut-launch.fail-on-flaky\"}}",
            stamped: false)
    }

    /// A test step's started and finished envelopes; `message` only on a FAILED one.
    private func step(_ startedId: String, _ stepId: String, status: String, duration: Duration, message: String?, at: inout Double)
        -> [Timed]
    {
        let (seconds, attoseconds) = duration.components
        let nanos = attoseconds / 1_000_000_000
        let started = Timed(
            atMs: at,
            line: "{\"testStepStarted\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId) + ",\"testStepId\":"
                + JSONWriter.quoted(stepId) + ",\"timestamp\":")
        at += duration.seconds * 1000
        let text = status == "FAILED" ? (message.map { ",\"message\":" + JSONWriter.quoted($0) } ?? "") : ""
        let finished = Timed(
            atMs: at,
            line: "{\"testStepFinished\":{\"testCaseStartedId\":" + JSONWriter.quoted(startedId) + ",\"testStepId\":"
                + JSONWriter.quoted(stepId)
                + ",\"testStepResult\":{\"status\":\"\(status)\",\"duration\":{\"seconds\":\(seconds),\"nanos\":\(nanos)}\(text)},\"timestamp\":"
        )
        return [started, finished]
    }

    /// The media type of a scenario's coverage attachment.
    package static let coverageMediaType = "application/vnd.sut-launch.coverage+json"

    mutating func testRunFinished(success: Bool, atMs: Double) {
        lines.append("{\"testRunFinished\":{\"success\":\(success),\"timestamp\":" + timestamp(atMs) + "}}")
    }

    private func timestamp(_ milliseconds: Double) -> String {
        let seconds = Int(milliseconds / 1000)
        let nanos = Int((milliseconds - Double(seconds) * 1000) * 1_000_000)
        return "{\"seconds\":\(seconds),\"nanos\":\(max(0, nanos))}"
    }
}
