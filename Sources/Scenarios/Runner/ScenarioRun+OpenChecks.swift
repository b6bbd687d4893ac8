import AutomationSupport
import MockServer
import ProcessEngine

/// A request count or absence whose watch ended at the step timeout while a program still ran: it held then, but it
/// is about the programs' whole run, so it is not a pass until they have ended. It is judged again then (at a later
/// step's start once every program has ended, or at the scenario's end after its programs are stopped), and fails
/// its own step when the answer changed (a `received 0 requests` the program then sent, a count it went past).
struct OpenRequestCheck {
    /// The step that asked, for the trail and the failure.
    let step: GherkinDocument.Step
    /// What it asked ("expected 0 requests to DELETE /users/{id}", "no unexpected requests").
    let what: String
    /// The watch's limit as messages name it ("2s (raise it with --step-timeout)").
    let cut: String
    /// The failure now, or nil when the answer still holds.
    let judge: () throws(StepFailure) -> String?
}

extension ScenarioRun {
    /// Watches the journal for a request step that judges the programs' whole run: until `decided` says the answer
    /// can no longer change (a count past the one expected, an unexpected request), or every program the scenario
    /// started has ended and the server was idle 100 ms, or for the whole step timeout while one still runs.
    /// - Returns: true when the watch ended with a program still running: the answer may still change.
    @discardableResult
    func watchRequests(until decided: () throws(StepFailure) -> Bool) throws(StepFailure) -> Bool {
        let deadline = ContinuousClock.now + waitLimit
        var endedAt: ContinuousClock.Instant?
        func received() -> Int { server.map { server in server.journal.count + server.journal.dropped } ?? 0 }
        var requestCount = received()
        while try !decided() {
            guard ContinuousClock.now < deadline else { return !programsEnded }
            if programsEnded {
                // What the ended programs left running (in their groups, or out of them with their launch's token)
                // is stopped first: nothing can send a request after the count is judged; one it sent while it
                // was stopped is in the journal by the end of the idle time below.
                if endedAt == nil { finishEndedPrograms() }
                // Idle: no request came in since the last look (a request sent just before an exit counts).
                let now = received()
                if now != requestCount { endedAt = nil }
                requestCount = now
                endedAt = endedAt ?? .now
                if ContinuousClock.now - endedAt! > .milliseconds(100) { return false }
            }
            try? sleepFor(.milliseconds(5))
        }
        return false
    }

    /// Every program the scenario started has ended.
    var programsEnded: Bool { launches.allSatisfy { $0.process.status != nil } }

    /// Finishes every program that has ended (``LaunchedProcess/finish(grace:)``: once each; a command's step did it).
    func finishEndedPrograms() {
        for launch in launches where launch.process.status != nil { launch.process.finish(grace: options.killGrace) }
    }

    /// Keeps `step`'s answer open until the programs have ended (``OpenRequestCheck``).
    func keepOpen(_ step: GherkinDocument.Step, what: String, judge: @escaping () throws(StepFailure) -> String?) {
        openChecks.append(OpenRequestCheck(step: step, what: what, cut: waitDescription, judge: judge))
    }

    /// Judges the open checks when the programs have ended (`final`: stops what still runs first, at the scenario's
    /// end); nil while they run. The first that no longer holds becomes the scenario's failure, on its own step.
    func judgeOpenChecks(final: Bool) -> (step: GherkinDocument.Step, failure: StepFailure)? {
        guard !openChecks.isEmpty else { return nil }
        if final { releaseProcesses() }
        guard programsEnded else { return nil }
        finishEndedPrograms() // what they left running could still send one
        let checks = openChecks
        openChecks = [] // judged once; the closures hold this run
        for check in checks {
            let problem: String?
            do { problem = try check.judge() } catch { problem = error.message }
            guard let problem else { continue }
            return (
                pickle.steps.first { $0.line == check.step.line } ?? check.step,
                StepFailure(
                    "\(problem)\n(judged again once the programs had ended: when this step's watch ended at \(check.cut) the program was "
                        + "still running, and \(check.what.hasPrefix("no ") ? "an absence" : "a count") passes only over the programs' whole run)"
                )
            )
        }
        return nil
    }
}

extension ScenarioRunner {
    /// An open request check that failed once the programs ended (``ScenarioRun/judgeOpenChecks(final:)``) fails its
    /// own step, marked ✗ in the trail, when nothing failed before; after another failure it is added to that one.
    static func judgeOpenChecks(_ run: ScenarioRun, final: Bool, failure: inout Failure?, trail: inout [String]) {
        guard let (step, open) = run.judgeOpenChecks(final: final) else { return }
        if var earlier = failure?.failure {
            earlier.message += "\n(and line \(step.line): \(open.message))"
            failure?.failure = earlier
            return
        }
        failure = (step, open)
        if let index = run.pickle.steps.firstIndex(where: { $0.line == step.line }), index < trail.count {
            trail[index] = "✗" + trail[index].dropFirst()
        }
    }
}
