package import AutomationSupport

/// How one hook of a scenario went, for the reports (Messages show it as a test step of its hook).
package struct HookResult: Sendable {
    package var kind: Hook.Kind
    /// Where the hook is defined (its id in Messages): `steps.json:4`.
    package var source: String
    /// `PASSED`, `FAILED` or `SKIPPED` (an earlier Before hook failed).
    package var status: String
    package var duration: Duration
    package var message: String?
    /// When it started, on the wall clock (BeforeAll and AfterAll: Messages' `testRunHookStarted`).
    package var startedAtMs: Double?
}

extension ScenarioRunner {
    /// Whether a signal is stopping the run: After hooks then see `SCENARIO_STATUS=interrupted`.
    package static let interrupting = Locked(false)
    /// The BeforeAll and AfterAll hooks that ran in this process, for Messages (`testRunHookStarted`/`Finished`).
    package static let testRunHookResults = Locked<[HookResult]>([])
    /// Scenarios between their start and their result (hooks included).
    static let active = Locked(0)
    /// After a signal: when every hook still running is stopped (SIGKILL to its process group), whatever its own
    /// timeout; `final` once a second signal cut the hooks short (no later cap lifts it).
    static let hookCutoff = Locked<(at: ContinuousClock.Instant?, final: Bool)>((nil, false))

    /// After a signal: hooks running after `instant` are stopped (unless a second signal already cut them).
    package static func cutHooks(at instant: ContinuousClock.Instant) {
        hookCutoff.withLock { if !$0.final { $0.at = instant } }
    }

    /// A second signal: every hook running now is stopped, and any later one at once.
    package static func cutHooksNow() {
        hookCutoff.withLock { $0 = (.now, true) }
    }

    /// Whether a signal has ended the hooks' time: a hook now is stopped at once, or not started.
    static var hooksTimeIsUp: Bool { hookCutoff.current.at.map { $0 <= .now } == true }

    /// The moment a hook started now with `timeout` must end: its timeout, or the signal's cap when sooner.
    static func hookDeadline(_ timeout: Duration) -> ContinuousClock.Instant {
        let own = ContinuousClock.now + min(timeout, Hook.maxTimeout)
        return hookCutoff.current.at.map { min($0, own) } ?? own
    }

    /// Waits (polling) until no scenario runs, or `deadline`.
    package static func awaitIdle(deadline: ContinuousClock.Instant) {
        while active.current > 0, ContinuousClock.now < deadline { MonotonicClock.sleep(milliseconds: 20) }
    }

    /// Runs the scenario's Before hooks in order until one fails (the rest skipped).
    /// - Returns: each hook's result, and the failure that keeps the steps from running.
    static func runBeforeHooks(_ pickle: Pickle, in run: ScenarioRun, options: ScenarioOptions) -> ([HookResult], StepFailure?) {
        var results: [HookResult] = []
        var failure: StepFailure?
        for hook in Hook.ordered(options.hooks, .before, tags: pickle.tags) {
            guard failure == nil else {
                results.append(HookResult(kind: hook.kind, source: hook.source, status: "SKIPPED", duration: .zero))
                continue
            }
            let started = ContinuousClock.now
            failure = run.runHook(hook, status: "running")
            results.append(
                HookResult(
                    kind: hook.kind, source: hook.source, status: failure == nil ? "PASSED" : "FAILED", duration: .now - started,
                    message: failure?.message))
        }
        return (results, failure)
    }

    /// Runs every After hook of the scenario (in reverse order), whatever happened before, with `status`.
    /// - Returns: each hook's result, and the failures, in order.
    static func runAfterHooks(_ pickle: Pickle, in run: ScenarioRun, options: ScenarioOptions, status: String) -> (
        [HookResult], [StepFailure]
    ) {
        var results: [HookResult] = []
        var failures: [StepFailure] = []
        for hook in Hook.ordered(options.hooks, .after, tags: pickle.tags) {
            let started = ContinuousClock.now
            let failure = run.runHook(hook, status: interrupting.current ? "interrupted" : status)
            if let failure { failures.append(failure) }
            results.append(
                HookResult(
                    kind: hook.kind, source: hook.source, status: failure == nil ? "PASSED" : "FAILED", duration: .now - started,
                    message: failure?.message))
        }
        return (results, failures)
    }

    /// Runs the run's BeforeAll or AfterAll hooks, each in a directory of its own (removed after), with the caller's
    /// environment plus `SUT_RUN_STATUS` (AfterAll: `passed`, `failed` or `interrupted`). BeforeAll hooks stop at the
    /// first failure.
    /// - Returns: the failures, each naming its hook.
    package static func runTestRunHooks(_ kind: Hook.Kind, options: ScenarioOptions, status: String) -> [String] {
        var failures: [String] = []
        for hook in Hook.ordered(options.hooks, kind) {
            let temporary = FileSystem.temporaryDirectory(options.environment)
            let root = ScratchDirectory.make(in: temporary) ?? ScratchDirectory.make(in: "/tmp") ?? "/tmp"
            let pickle = Pickle(uri: hook.source, featureName: "sut-launch", name: hook.title, line: 0, tags: [], steps: [])
            let run = ScenarioRun(pickle: pickle, options: options, rootDirectory: root, timeout: hook.timeout)
            run.environment.append(("SUT_RUN_STATUS", status))
            let (startedAtMs, started) = (WallClock.milliseconds(), ContinuousClock.now)
            let failure = run.runHook(hook, status: status)
            let result = HookResult(
                kind: kind, source: hook.source, status: failure == nil ? "PASSED" : "FAILED", duration: .now - started,
                message: failure?.message, startedAtMs: startedAtMs)
            testRunHookResults.withLock { $0.append(result) }
            _ = run.tearDown()
            ScratchDirectory.remove(root)
            if let failure {
                failures.append(failure.message)
                if kind == .beforeAll { break }
            }
        }
        return failures
    }
}
