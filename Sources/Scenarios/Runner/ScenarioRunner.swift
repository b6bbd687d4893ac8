public import AutomationHost
import AutomationSupport
package import Coverage
import Dispatch
package import MockServer
package import ProcessEngine

/// How `sut-launch test` runs scenarios.
public struct ScenarioOptions: Sendable {
    /// `--tags`: the scenarios whose tags satisfy it (nil: all).
    package var tags: TagExpression?
    /// Scenarios run at once, each with its own mock-server port and working directory.
    public var jobs = 1
    /// `(k, n)`: run the k-th of n shares (1-based).
    public var shard: (index: Int, count: Int)?
    /// How long a waiting step waits (the seed step framework's 2 s); 0: no step limit, a wait ends at the scenario's deadline.
    public var stepTimeout: Duration = .seconds(2)
    /// How long a scenario may take in all (60 s; `@timeout=10s` on a scenario overrides it); 0: no timeout, as the
    /// launcher's `--timeout 0`.
    public var scenarioTimeout: Duration = .seconds(60)
    /// How long a stopped program gets between SIGTERM and SIGKILL.
    public var killGrace: Duration = .seconds(2)
    /// `--define NAME=VALUE`, for `${NAME}` in steps (`PROGRAM` is the default program).
    public var defines: [String: String] = [:]
    /// Where flags travel (`--flags-in`); nil: as `sut-launch` decides (launch arguments and environment
    /// when flags were asked for, the environment only otherwise).
    public var flagsIn: WireFormat.Channel?
    /// `--artifacts DIR`: failed scenarios leave their outputs, journal and directory there.
    public var artifactsDirectory: String?
    /// `--coverage DIR`: every launch writes its raw profile under `DIR/raw/<scenario id>/`.
    package var coverage: CoverageSession?
    /// `--update-snapshots` or `SUT_UPDATE_SNAPSHOTS=1`: write the snapshots a run compares (never with `CI` set).
    public var updateSnapshots = false
    /// `--name REGEX`: scenarios whose name matches somewhere.
    public var namePattern: String?
    /// `file.feature:LINE` arguments: per file, the lines that select (a scenario's, or an Examples row's).
    public var lines: [String: Set<Int>] = [:]
    /// `--fail-fast`: start no scenario after the first one that did not pass.
    public var failFast = false
    /// Steps from `*.steps.json` files and `--steps`.
    package var userSteps: [UserStep] = [] { didSet { stepIndex = UserStepIndex(userSteps) } }
    /// ``userSteps`` by their patterns' literal heads: a step text tries only the patterns that may match it.
    package private(set) var stepIndex = UserStepIndex()
    /// `--shard-timings FILE`: measured seconds by scenario (`feature: name`), to balance shards by time.
    public var shardTimings: [String: Double]?
    /// The caller's environment (for `${NAME}` and the program's environment).
    public var environment: [String: String] = [:]
    /// `test --https`: every scenario's mock server speaks HTTPS, trusted by its programs (nil: plain HTTP unless
    /// a scenario says `Given the mock server speaks HTTPS`).
    package var https: HTTPSPlan?
    /// `test --record-from` / `--proxy-unmatched`: every scenario has a server that forwards (and records) what no
    /// stub matches; nil: none.
    package var recording: ScenarioRecording?
    /// `--allow-host`: names besides this machine's that requests a scenario's server forwards may carry.
    package var forwardingHosts: [String] = []
    /// `--admin-writes`: what the programs may change through each scenario's server's admin API (read-only by default).
    package var adminWrites = MockServer.AdminWrites.refuse
    /// `--retries N`: a scenario that failed runs again from scratch up to N more times (`@retries=N` overrides).
    public var retries = 0
    /// `--fail-on-flaky`: a scenario that passed only on a retry fails the run (unless quarantined).
    package var failOnFlaky = false
    /// `--quarantine FILE` and `@quarantine`: scenarios that run and are reported apart, never failing the run.
    package var quarantine = Quarantine()
    /// `--rerun-failed FILE`: the only scenarios to run (their locations, `file:line`); nil: no such filter.
    package var rerunLocations: Set<String>?
    /// `--redact NAME=REGEX` and step files' `"redactions"`: applied, in order, after the built-in placeholders.
    package var redactions: [Redaction] = []
    /// Before/After/BeforeAll/AfterAll hooks from step files and `StepLibrary`, in definition order.
    package var hooks: [Hook] = []
    /// The snapshot files the run's scenarios compare, so two scenarios reaching one through `${NAME}` fail (set by ``ScenarioRunner/run(_:options:started:report:)``).
    package var snapshotClaims: SnapshotClaims?

    /// The defaults: one job, all scenarios, 2 s steps, 60 s scenarios.
    public init() {}
}

/// The outcome of one scenario.
package struct ScenarioResult: Sendable {
    /// How a scenario ended: passed, failed (an expectation), error (it could not run), or not run
    /// (`--fail-fast` stopped the run before it).
    package enum Status: String, Sendable {
        case passed, failed, error, notRun
    }
    /// The scenario.
    package var pickle: Pickle
    /// How it ended.
    package var status: Status
    /// How long it took.
    package var duration: Duration
    /// When it started, on the wall clock (nil: it did not start); Cucumber Messages' timestamps.
    package var startedAtMs: Double?
    /// `login.feature:14: Then I see "x"` and why, when it did not pass.
    package var failedStep: String?
    /// Why it did not pass (nil when it passed).
    package var message: String?
    /// Every step with its mark (✓ passed, ✗ failed, - skipped).
    package var trail: [String]
    /// How long each step of the trail took (zero for the skipped ones), in trail order.
    package var stepDurations: [Duration] = []
    /// The program's last output lines (both streams).
    package var outputTail: String
    /// Unexpected requests the mock server received, with their near misses.
    package var unexpectedRequests: [String]
    /// Where a failed scenario's artefacts were written (`--artifacts`), or its directory kept.
    package var artifacts: String?
    /// The scenario reached its time limit (`--scenario-timeout` or `@timeout=`): it failed, whatever its steps said.
    package var timedOut = false
    /// The mock server's end-of-scenario checks (unmet `expect.times`, unexpected requests under strictness): nil
    /// when the scenario ran no server, else what failed (empty: they passed). Messages show them as an After hook.
    package var mockServerChecks: [String]?
    /// `--coverage`: the source files and functions this scenario's launches reached.
    package var coverage: ScenarioReach?
    /// The scenario's Before and After hooks, in the order they ran (or were skipped).
    package var hookResults: [HookResult] = []
    /// The attempts before this one (`--retries`, `@retries=`), each failed, oldest first; empty: it ran once.
    package var earlierAttempts: [ScenarioResult] = []
    /// `@quarantine` or `--quarantine FILE`: reported apart; a failure does not fail the run (an error still does).
    package var quarantined = false

    /// It failed, then passed on a retry.
    package var flaky: Bool { status == .passed && !earlierAttempts.isEmpty }
    /// A flaky pass that fails the run: `--fail-on-flaky`, not quarantined.
    package var flakyFailsTheRun = false
    /// It fails the run: not passed, unless quarantined and only failed (a quarantined scenario that could not run,
    /// an undefined step or a bad tag, still fails it: that is the suite's fault, not the program's); or a flaky
    /// pass under `--fail-on-flaky`.
    package var failsTheRun: Bool { status == .passed ? flakyFailsTheRun : !(quarantined && status == .failed) }
    /// The status every report's counts and marks show: a flaky pass that fails the run is `failed` there (the JSON
    /// report, the step summary, HTML, `report`'s line), as JUnit has it, agreeing with the exit code.
    package var shownStatus: Status { status == .passed && flakyFailsTheRun ? .failed : status }

    /// A scenario `--fail-fast` did not start: every step skipped.
    package static func notRun(_ pickle: Pickle) -> ScenarioResult {
        var result = ScenarioResult(
            pickle: pickle, status: .notRun, duration: .zero,
            trail: pickle.steps.map { "- \($0.keyword)\($0.text)" }, outputTail: "", unexpectedRequests: [])
        result.stepDurations = pickle.steps.map { _ in .zero }
        result.message = "not run: --fail-fast stopped the run"
        return result
    }
}

/// Runs pickles: in parallel with `jobs`, each in its own world, and reports as each ends.
package enum ScenarioRunner {
    /// Programs running in scenarios now, so an interrupted test run can stop them all.
    static let live = Locked<[Int32: LaunchedProcess]>([:])
    /// Trust files of HTTPS servers scenarios run now, by directory, so an interrupted test run removes them too.
    static let liveTrust = Locked<[String: TrustFiles]>([:])

    /// Stops every program a scenario is running (SIGTERM to its group, SIGKILL after `grace`).
    package static func stopAll(grace: Duration) {
        let processes = live.withLock { live -> [LaunchedProcess] in
            defer { live.removeAll() }
            return Array(live.values)
        }
        for process in processes { process.signalGroup(SignalNumber.terminate) }
        for process in processes { process.stop(signal: SignalNumber.terminate, grace: grace) }
        let trust = liveTrust.withLock { live -> [TrustFiles] in
            defer { live.removeAll() }
            return Array(live.values)
        }
        for files in trust { files.remove() }
    }

    /// How a report names a scenario: `feature: name` (JUnit classname and name, the JSON report's fields).
    static func timingKey(_ pickle: Pickle) -> String { "\(pickle.featureName): \(pickle.name)" }

    /// Runs every pickle and calls `report` (serialized) as each finishes. Results come back in input order.
    /// `started` gets each scenario as it starts, with the record of its steps as they run, and returns false to
    /// start no more (the run was interrupted): that one and the rest are left out.
    package static func run(
        _ pickles: [Pickle], options: ScenarioOptions,
        started: @escaping @Sendable (ScenarioProgress) -> Bool = { _ in true },
        report: @escaping @Sendable (ScenarioResult) -> Void
    ) -> [ScenarioResult] {
        let results = Locked([ScenarioResult?](repeating: nil, count: pickles.count))
        let next = Locked(0)
        let stopped = Locked(false)
        let reportLock = Locked(())
        let done = DispatchSemaphore(value: 0)
        let workers = max(1, min(options.jobs, pickles.count))
        let options = {
            var options = options
            options.snapshotClaims = options.snapshotClaims ?? SnapshotClaims()
            return options
        }()
        for _ in 0..<workers {
            startThread {
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < pickles.count, !stopped.current else { break }
                    let start: @Sendable (ScenarioProgress) -> Bool = { progress in
                        !stopped.current && reportLock.withLock { _ in started(progress) }
                    }
                    guard let result = runWithRetries(pickles[index], options: options, started: start) else { break }
                    if options.failFast && result.failsTheRun { stopped.withLock { $0 = true } }
                    results.withLock { $0[index] = result }
                    reportLock.withLock { _ in report(result) }
                }
                done.signal()
            }
        }
        for _ in 0..<workers { done.wait() }
        return results.current.compactMap { $0 }
    }

    /// Runs one scenario in a fresh working directory, recording its steps in `progress` as they run.
    package static func runOne(_ pickle: Pickle, options: ScenarioOptions, progress: ScenarioProgress? = nil) -> ScenarioResult {
        let progress = progress ?? ScenarioProgress(pickle)
        active.withLock { $0 += 1 }
        defer { active.withLock { $0 -= 1 } }
        let started = ContinuousClock.now
        let timeout = scenarioTimeout(pickle, options: options)
        let temporary = FileSystem.temporaryDirectory(options.environment)
        let rootDirectory = ScratchDirectory.make(in: temporary) ?? ScratchDirectory.make(in: "/tmp") ?? "/tmp"
        let run = ScenarioRun(pickle: pickle, options: options, rootDirectory: rootDirectory, timeout: timeout)

        var failure = preflight(pickle, options: options)
        var hookResults: [HookResult] = []
        let preflightPassed = failure == nil
        if preflightPassed {
            let (results, hookFailure) = runBeforeHooks(pickle, in: run, options: options)
            hookResults = results
            failure = hookFailure.map { (nil, $0) }
        }
        if let failure { progress.failedBeforeSteps(failure.failure) }
        var (trail, stepDurations) = runSteps(pickle, in: run, options: options, progress: progress, failure: &failure)
        // A scenario that reached its deadline failed, even when every step said it passed (the step that ran
        // into the deadline is the failed one, so every report agrees).
        let timedOut = ContinuousClock.now >= run.deadline
        if timedOut, failure == nil, let last = pickle.steps.last, let index = trail.indices.last {
            failure = (last, StepFailure("timed out: reached \(timeoutName(pickle, timeout: timeout)) during this step"))
            trail[index] = "✗" + trail[index].dropFirst()
        }
        // The scenario's programs end and the mock server's end-of-scenario checks run before the After hooks, so
        // their SCENARIO_STATUS is the scenario's final one. Counts left open while a program ran are judged first.
        judgeOpenChecks(run, final: true, failure: &failure, trail: &trail)
        let outputTail = run.outputTail()
        let unexpected = run.unexpectedRequests
        let hadServer = run.server != nil
        let serverFailures = run.tearDown()
        if failure == nil, !serverFailures.isEmpty {
            failure = (nil, StepFailure("mock server: " + serverFailures.joined(separator: "; ")))
        }
        if preflightPassed { // After hooks run whenever the scenario started, even after a failed Before hook
            let status = failure == nil ? "passed" : timedOut ? "timed-out" : "failed"
            let (results, failures) = runAfterHooks(pickle, in: run, options: options, status: status)
            hookResults += results
            if var first = failures.first {
                if let (step, earlier) = failure {
                    first = earlier
                    first.message += "\n(then " + failures.map(\.message).joined(separator: "; ") + ")"
                    failure = (step, first)
                } else {
                    failure = (nil, first)
                }
            }
        }
        progress.stepsFinished()
        run.releaseProcesses()
        run.recordCoverage()
        var result = ScenarioResult(
            pickle: pickle, status: .passed, duration: .now - started, trail: trail,
            outputTail: outputTail, unexpectedRequests: unexpected)
        result.stepDurations = stepDurations
        result.startedAtMs = progress.startedAtMs
        result.timedOut = timedOut
        result.mockServerChecks = hadServer ? serverFailures : nil
        result.hookResults = hookResults
        if let (step, error) = failure {
            result.status = error.kind == .error ? .error : .failed
            result.failedStep = step.map { "\(pickle.uri):\($0.line): \($0.keyword)\($0.text)" } ?? pickle.location
            result.message = error.message
        }
        ScenarioArtifacts.keep(run, &result, options: options, progress: progress, rootDirectory: rootDirectory)
        return result
    }

    /// The step that did not pass (nil: a failure of the scenario as a whole) and why.
    typealias Failure = (step: GherkinDocument.Step?, failure: StepFailure)

    /// What keeps the scenario from starting: an undefined step (every step must be defined before anything
    /// starts), or what `check` and `test` refuse at load.
    static func preflight(_ pickle: Pickle, options: ScenarioOptions) -> Failure? {
        for step in pickle.steps where ScenarioLint.isUndefined(step, userSteps: options.stepIndex) {
            let closest = StepCatalog.closest(to: "\(step.keyword)\(step.text)").map { "    " + $0.split(separator: "\n").first! }.joined(
                separator: "\n")
            return (
                step,
                StepFailure(
                    "undefined step: \(step.keyword)\(step.text)\n  closest catalog entries:\n\(closest)\n"
                        + "  or define it in a *.steps.json beside the feature file:\n    \(UserSteps.snippet(for: step.text))\n"
                        + "  or in Swift with AutomationTesting's StepLibrary:\n    \(UserSteps.swiftSnippet(for: step.text))", kind: .error
                )
            )
        }
        // What `check` and `test` refuse at load (a number out of range, a bad @timeout=) is refused here too,
        // for the Swift API, which runs pickles it did not lint: never a default in its place.
        let problems = ScenarioLint.stepProblems([pickle])
        return problems.isEmpty ? nil : (nil, StepFailure(problems.joined(separator: "\n"), kind: .error))
    }

    /// Runs the steps in order until one fails (the rest are skipped) or the deadline passes, recording each in
    /// `progress` as it starts and ends.
    /// - Returns: every step with its mark (✓, ✗, -) and how long it took.
    static func runSteps(
        _ pickle: Pickle, in run: ScenarioRun, options: ScenarioOptions, progress: ScenarioProgress,
        failure: inout Failure?
    ) -> (trail: [String], durations: [Duration]) {
        var trail: [String] = []
        var stepDurations: [Duration] = []
        for (index, step) in pickle.steps.enumerated() {
            let label = "\(step.keyword)\(step.text)"
            if failure == nil { judgeOpenChecks(run, final: false, failure: &failure, trail: &trail) }
            let failedBefore = failure != nil
            progress.stepStarted(index)
            let stepStarted = ContinuousClock.now
            defer {
                let duration = ContinuousClock.now - stepStarted
                stepDurations.append(duration)
                let mark = trail.last?.first ?? "-"
                progress.stepFinished(index, mark: mark, duration: duration, failure: failedBefore ? nil : failure?.failure)
            }
            guard failure == nil else {
                trail.append("- \(label)")
                continue
            }
            if ContinuousClock.now >= run.deadline {
                failure = (step, StepFailure("timed out: reached \(run.scenarioTimeoutName) before this step"))
                trail.append("✗ \(label)")
                continue
            }
            do {
                run.stepTakesWithin = false
                run.stepNote = nil
                if let (definition, captures) = StepCatalog.find(step.text) {
                    run.stepTakesWithin = definition.source.contains(" within (")
                    // Every built-in step's values are expanded here, in one place (StepValue), never by the step.
                    let (values, expanded) = try run.expandedValues(definition, captures, step)
                    try definition.run(run, values, expanded)
                } else if let (userStep, values) = options.stepIndex.first(matching: step.text) {
                    if let code = userStep.code {
                        try code(StepContext(run: run, step: step), values)
                    } else {
                        try run.runUserStep(userStep, values: values, step: step)
                    }
                }
                trail.append("✓ \(label)" + (run.stepNote.map { " (\($0))" } ?? ""))
            } catch {
                failure = (step, error as? StepFailure ?? StepFailure("\(error)"))
                trail.append("✗ \(label)")
            }
        }
        return (trail, stepDurations)
    }
}

extension ScenarioResult {
    /// The JUnit/JSON entry for feature files that did not load.
    /// - Parameter name: the entry's name; another than the default names a problem of no file (`file` then "").
    package static func loadError(_ problems: [String], name: String = "load feature files") -> ScenarioResult {
        let file = name != "load feature files" ? "" : problems.first.map { String($0.prefix { $0 != ":" }) } ?? ""
        let pickle = Pickle(uri: file, featureName: "sut-launch", name: name, line: 0, tags: [], steps: [])
        var result = ScenarioResult(pickle: pickle, status: .error, duration: .zero, trail: [], outputTail: "", unexpectedRequests: [])
        result.failedStep = file
        result.message = problems.joined(separator: "\n")
        return result
    }
}
