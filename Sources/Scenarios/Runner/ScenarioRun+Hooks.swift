import AutomationSupport
import Dispatch
import ProcessEngine

/// Running a scenario's Before and After hooks (``Hook``), and the run's BeforeAll and AfterAll ones.
extension ScenarioRun {
    /// Runs `hook` in this scenario's directory with its environment (plus `SCENARIO_NAME`, and `SCENARIO_STATUS` for
    /// After), within the hook's own deadline.
    /// - Returns: nil when it passed; else why it failed, naming the hook.
    func runHook(_ hook: Hook, status: String) -> StepFailure? {
        if ScenarioRunner.hooksTimeIsUp {
            // A second signal ended the hooks' time before this one's turn: say it never ran, not that it was stopped.
            return StepFailure("\(hook.title) did not run: the run was interrupted and hooks' time was up")
        }
        var added: [(key: String, value: String)] = [("SCENARIO_NAME", pickle.name)]
        if hook.kind != .before { added.append(("SCENARIO_STATUS", status)) }
        environment += added
        defer { environment.removeLast(added.count) }
        if let code = hook.code {
            // The hook's thread is the only one to use the context while the scenario waits for it (or gives up).
            nonisolated(unsafe) let context = StepContext(
                run: self, step: GherkinDocument.Step(keyword: "", kind: "", text: hook.title, line: 0), status: status)
            return Self.runClosure(hook) { try code(context, status) }
        }
        var argv = hook.run.map(expand)
        argv[0] = UserSteps.program(argv[0], from: hook.directory)
        let subject = process
        defer { process = subject }
        let started: LaunchedProcess
        do {
            started = try start(plan(program: argv[0], arguments: Array(argv.dropFirst()), standardInput: .pipe), label: hook.title)
        } catch {
            return StepFailure("\(hook.title) could not start \(argv[0].escapingControlCharacters()): \(error.message)")
        }
        if hook.kind == .after || hook.kind == .afterAll {
            // Teardown a signal must not cut: not among the programs an interruption stops at once; the hook's own
            // deadline, brought forward to its phase's cap (or now, by a second signal), stops it.
            _ = ScenarioRunner.live.withLock { $0.removeValue(forKey: started.pid) }
        }
        started.closeStandardInput()
        guard let exit = Self.waitForHook(started, timeout: hook.timeout) else {
            if ScenarioRunner.hooksTimeIsUp {
                // Interrupted, and the hooks' time is up: a hook that ignores SIGTERM must not hold the reports.
                started.stop(signal: SignalNumber.kill, grace: .seconds(5))
                started.finish(grace: .zero)
                return StepFailure(
                    "\(hook.title) was stopped (SIGKILL to its process group): the run was interrupted and hooks' time was up")
            }
            started.stop(signal: SignalNumber.terminate, grace: options.killGrace)
            started.finish(grace: options.killGrace)
            return StepFailure(
                "\(hook.title) was still running after its \(Runner.format(hook.timeout)) timeout and was stopped (raise its \"timeout\")")
        }
        started.finish(grace: options.killGrace)
        guard exit == .exited(0) else {
            return StepFailure(
                "\(hook.title) failed: \(argv.joined(separator: " ").escapingControlCharacters()) \(exit)\n"
                    + started.output.tailReport(lines: 20))
        }
        return nil
    }

    /// Waits for a hook's program until its deadline, which a signal may bring forward (``ScenarioRunner/cutHooks(at:)``):
    /// checked every 100 ms. Nil when the deadline came first.
    static func waitForHook(_ started: LaunchedProcess, timeout: Duration) -> ProcessStatus? {
        while true {
            let left = ScenarioRunner.hookDeadline(timeout - started.duration) - .now
            guard left > .zero else { return started.status }
            if let status = started.waitForExit(timeout: min(left, .milliseconds(100))) { return status }
        }
    }

    /// A Swift hook on a thread of its own, waited for until its deadline (a closure cannot be stopped: one that is
    /// late fails its scenario and is left to finish).
    static func runClosure(_ hook: Hook, _ body: @escaping @Sendable () throws -> Void) -> StepFailure? {
        let outcome = Locked<StepFailure??>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread {
            do {
                try body()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                let why = (error as? StepFailure)?.message ?? "\(error)"
                outcome.withLock { $0 = .some(StepFailure("\(hook.title) failed: \(why)")) }
            }
            done.signal()
        }
        let started = ContinuousClock.now
        func finished() -> Bool {
            while true {
                let left = ScenarioRunner.hookDeadline(hook.timeout - (.now - started)) - .now
                guard left > .zero else { return false }
                let slice = min(left, .milliseconds(100))
                if done.wait(timeout: .now() + .nanoseconds(Int(slice.seconds * 1e9))) == .success { return true }
            }
        }
        guard finished() else {
            return StepFailure("\(hook.title) was still running after its \(Runner.format(hook.timeout)) timeout (raise its timeout)")
        }
        return outcome.current ?? nil
    }
}
