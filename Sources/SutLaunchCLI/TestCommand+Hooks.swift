import AutomationSupport
import ProcessEngine
import Scenarios

/// The run's BeforeAll and AfterAll hooks, and what a signal does about hooks: After hooks of the running scenarios
/// see `SCENARIO_STATUS=interrupted` and get their deadline, then AfterAll runs, then the reports are written.
extension TestCommand {
    /// The options of the suite once loaded, for the signal's handler (AfterAll on Ctrl-C).
    static let loadedSuite = Locked<ScenarioOptions?>(nil)
    /// The AfterAll phase (at the end or on a signal, never twice): nil before it starts, `false` while its hooks run,
    /// `true` once they ended, with the results of the hooks that failed.
    static let afterAllPhase = Locked<(ended: Bool, failures: [ScenarioResult])?>(nil)

    /// BeforeAll hooks: nil when they passed; else every selected scenario, reported as not able to run.
    static func beforeAll(_ selected: [Pickle], options: ScenarioOptions) -> [ScenarioResult]? {
        // This process runs only the suite's programs: what leaves a program's group and outlives its parent becomes
        // ours, found by its launch's token when that program is finished, or by ``sweepLeftovers(grace:)`` at the end.
        Descendants.adopt()
        let failures = ScenarioRunner.runTestRunHooks(.beforeAll, options: options, status: "running")
        guard let failure = failures.first else { return nil }
        printFailure(failure)
        return selected.map { pickle in
            var result = ScenarioResult.notRun(pickle)
            result.status = .error
            result.message = "not run: \(failure)"
            result.failedStep = pickle.location
            return result
        }
    }

    /// The selected scenarios `--fail-fast` did not start, as not run: the console's summary and every report count them.
    static func notStarted(_ selected: [Pickle], ran: [ScenarioResult]) -> [ScenarioResult] {
        let ranPickles = Set(ran.map(\.pickle))
        return selected.filter { !ranPickles.contains($0) }.map(ScenarioResult.notRun)
    }

    /// AfterAll hooks with the run's status, once; each failure is printed and reported as a result that fails the run.
    static func afterAll(options: ScenarioOptions, status: String) -> [ScenarioResult] {
        guard
            afterAllPhase.withLock({ phase in
                defer { phase = phase ?? (false, []) }
                return phase == nil
            })
        else { return [] }
        defer { sweepLeftovers(grace: options.killGrace) }
        let failures = ScenarioRunner.runTestRunHooks(.afterAll, options: options, status: status).map { failure in
            printFailure(failure)
            var result = ScenarioResult.loadError([failure])
            result.pickle.name = "AfterAll hooks"
            // Located at the hook itself (`./h.steps.json:3`), cut at its last colon: the file name may hold one.
            if let hook = Hook.ordered(options.hooks, .afterAll).first(where: { failure.hasPrefix($0.title) }),
                let colon = hook.source.lastIndex(of: ":"), let line = Int(hook.source[hook.source.index(after: colon)...])
            {
                result.pickle.uri = String(hook.source[..<colon])
                result.pickle.line = line
                result.failedStep = hook.source
            }
            return result
        }
        afterAllPhase.withLock { $0 = (true, failures) }
        return failures
    }

    /// A BeforeAll/AfterAll failure: its first line as an error, the program's output tail below it as lines (not
    /// `\n` escapes), control characters escaped.
    static func printFailure(_ failure: String) {
        let parts = failure.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        Console.error(String(parts[0]))
        guard parts.count > 1, !parts[1].isEmpty else { return }
        let tail = parts[1].split(separator: "\n").map { "  " + $0.escapingControlCharacters() + "\n" }.joined()
        Console.details(tail)
    }

    /// On a signal: the running scenarios' After hooks get their deadline (they run as the scenarios stop), then
    /// AfterAll runs, before the reports are written; an AfterAll phase the signal found running is let finish.
    /// Each phase is capped: the After hooks together get at most 60 s, then AfterAll at most 60 s; a hook still
    /// running at its phase's cap is stopped (SIGKILL to its process group, even one that ignores SIGTERM). A
    /// second signal cuts every hook at once, so the reports are written now.
    /// - Returns: the AfterAll phase's entries for the reports: each failed hook, and, when the signal came while the
    ///   AfterAll hooks ran, one error entry saying so (every scenario had ended; the run still did not end as itself).
    static func hooksOnSignal(_ received: Int32) -> [ScenarioResult] {
        ScenarioRunner.interrupting.withLock { $0 = true }
        defer { sweepLeftovers(grace: .seconds(1)) }
        guard let options = loadedSuite.current, !options.hooks.isEmpty else { return [] }
        let during = afterAllPhase.current.map { !$0.ended } == true
        startThread {
            let again = SignalForwarder.waitForTerminationSignal()
            StandardStreams.limitWrites(within: .zero) // nothing more for a reader that never reads
            // Any second stop signal, whatever the first (SIGINT after SIGTERM); one the caller left ignored (a script's
            // `cmd &` ignores SIGINT) never arrives, as for the program.
            let which = again == received ? "\(signalName(again)) again" : "\(signalName(again)) after \(signalName(received))"
            Console.line("\(which): stopping the hooks now and writing the reports")
            ScenarioRunner.cutHooksNow()
        }
        let afterHooks = options.hooks.filter { $0.kind == .after }.map(\.timeout)
        if let longest = afterHooks.max(), !during {
            let cap = ContinuousClock.now + min(longest * afterHooks.count + .seconds(2), hookPhaseCap)
            ScenarioRunner.cutHooks(at: cap)
            ScenarioRunner.awaitIdle(deadline: cap + .seconds(10)) // the killed hooks' scenarios end and report
        }
        let cap = ContinuousClock.now + hookPhaseCap
        ScenarioRunner.cutHooks(at: cap)
        var failures = afterAll(options: options, status: "interrupted")
        if afterAllPhase.current?.ended != true {
            // The run's own end is running AfterAll: its hooks finish (or are stopped at the cap), then count here.
            while afterAllPhase.current?.ended != true, ContinuousClock.now < cap + .seconds(10) { MonotonicClock.sleep(milliseconds: 20) }
        }
        failures = afterAllPhase.current?.failures ?? failures
        let hooks = Hook.ordered(options.hooks, .afterAll).map(\.source)
        guard during, !hooks.isEmpty else { return failures }
        var entry = ScenarioResult.loadError(
            [
                "interrupted by \(signalName(received)) while the AfterAll hooks ran (\(hooks.prefix(5).joined(separator: ", "))): "
                    + "every scenario had ended; "
                    + (failures.isEmpty
                        ? "the hooks ran to their end" : "\(failures.count) AfterAll hook\(failures.count == 1 ? "" : "s") failed")
            ], name: "AfterAll hooks")
        entry.failedStep = hooks.first ?? ""
        printFailure(entry.message ?? "")
        return failures + [entry]
    }

    /// Stops every process the run started that is still running once the run is over (the subreaper's children:
    /// what left its program's group and dropped its launch's token, `env -i`), and says so: nothing of the run outlives it.
    static func sweepLeftovers(grace: Duration) {
        let (stopped, left) = Descendants.stopAll(grace: grace)
        if left > 0 { Console.error(Runner.stillRunning(left)) }
        guard stopped > 0 else { return }
        Console.line(
            "\(stopped) process\(stopped == 1 ? "" : "es") the run started \(stopped == 1 ? "was" : "were") still running at its end, "
                + "outside every program's process group and without its \(Descendants.variable); stopped (SIGTERM, SIGKILL after the kill grace)"
        )
    }

    /// The longest the After hooks of an interrupted run take together, and its AfterAll hooks.
    static let hookPhaseCap: Duration = .seconds(60)
}
