import AutomationSupport
import Dispatch
import ProcessEngine

/// The reports of one `sut-launch test` run (`--junit`, `--report`, `--messages`, `--format github`), written exactly
/// once: when the run ends, when it ends early (usage error, invalid file), or when a signal interrupts it.
///
/// An interruption (``interrupt()``) cuts the run at one instant, under the same lock that records results: a
/// scenario reported before it counts as finished; a running one is reported from its ``ScenarioProgress`` as it
/// stood then (finished steps passed, the running step failed "interrupted by SIGTERM", the rest skipped), whatever
/// its steps do afterwards (their programs are being stopped); a scenario whose steps had all run is waited for, so
/// its own verdict is reported; the selected scenarios that had not started are not run. Each is on the console too,
/// then the summary.
package final class ScenarioReports: Sendable {
    private struct State {
        var junitPath: String?
        /// How the user named the JUnit path: `--junit`, or `XML_OUTPUT_FILE` (Bazel's, under `--shard auto`).
        var junitName = "--junit"
        var junitStrict = false
        var reportPath: String?
        /// `--write-rerun`: the scenarios that failed the run, as Cucumber's rerun format.
        var rerunPath: String?
        /// `--format github`: the environment whose `GITHUB_STEP_SUMMARY` an interruption's summary goes to.
        var github: [String: String]?
        /// `--messages` (and `--html`, which renders from them): the documents and pickles, the run's envelopes
        /// added when the reports are written; without either, the run's envelopes alone (every result on the run).
        var messages: (path: String?, envelopes: CucumberMessages, userSteps: [UserStep], startedAtMs: Double)?
        var htmlPath: String?
        /// What identifies the run and the command line, for its record in the Messages.
        var run = ReportRecord.Run(id: "", commandLine: "")
        var startedAtMs = WallClock.milliseconds()
        /// The hooks, for Messages' `hook` envelopes.
        var hooks: [Hook] = []
        /// The run's console once scenarios run, and how many were not selected, for an interruption's summary.
        var console: (console: ScenarioConsole, notSelected: Int)?
        /// The scenarios selected to run, in order, once they run.
        var selected: [Pickle] = []
        var finished: [ScenarioResult] = []
        var running: [Pickle: ScenarioProgress] = [:]
        /// Scenarios whose steps had all run when the signal came: their own results are still taken.
        var settling: Set<Pickle> = []
        var written = false
        /// Set by ``holdUntilChecked()`` until ``placehold(keeping:)``: the outputs are not yet known to name no input.
        var unchecked = false
        /// `--coverage`'s summary for the JSON report, once measured.
        var coverage: String?
        /// Set by ``interrupt()``: results that come in later (scenarios we stopped) are ignored.
        var interrupted = false
        /// An interruption's entries for the run itself, after the scenarios: its AfterAll hooks' (``addRunEntries(_:)``).
        var runEntries: [ScenarioResult] = []
    }
    private let state = Locked(State())
    private let started = ContinuousClock.now

    /// Reports not configured yet (``configure(junit:report:junitStrict:)``).
    package init() {}

    /// Sets where the reports go (paths already checked).
    package func configure(junit: String?, report: String?, junitStrict: Bool = false, junitName: String = "--junit") {
        state.withLock {
            $0.junitPath = junit
            $0.junitName = junitName
            $0.junitStrict = junitStrict
            $0.reportPath = report
        }
    }

    /// Sets where `--write-rerun` goes (path already checked).
    package func configureRerun(_ path: String?) {
        state.withLock { $0.rerunPath = path }
    }

    /// `--format github`: an interruption also prints the annotations and appends the step summary.
    package func configureGitHub(environment: [String: String]) {
        state.withLock { $0.github = environment }
    }

    /// Sets where the Messages go (nil: only the HTML needs them), with the envelopes of the files loaded so far.
    package func configureMessages(path: String?, envelopes: CucumberMessages, startedAtMs: Double) {
        state.withLock { $0.messages = (path, envelopes, $0.messages?.userSteps ?? [], startedAtMs) }
    }

    /// `--html`, the run's identity, its command line and its `--shard K/N` (in the Messages' run record).
    package func configureRun(html: String?, id: String, commandLine: String, shard: (index: Int, count: Int)? = nil) {
        state.withLock {
            $0.htmlPath = html
            $0.run = ReportRecord.Run(id: id, commandLine: commandLine, shard: shard.map { "\($0.index)/\($0.count)" })
        }
    }

    /// Replaces every report asked for by its ``ReportPlaceholder`` (once no input can be overwritten and before anything
    /// runs): a run killed from now on leaves "did not finish", never an earlier run's verdict. The first that could not
    /// be written, as a one-line error.
    /// - Parameter keeping: the locations of the `--rerun-failed` file `--write-rerun` names too, kept in its placeholder.
    package func placehold(keeping: [String]? = nil) -> String? {
        let outputs = state.withLock { state -> [(option: String, path: String?, format: ReportPlaceholder.Format)] in
            state.unchecked = false
            return [
                (state.junitName, state.junitPath, .junit), ("--report", state.reportPath, .json),
                ("--messages", state.messages?.path, .messages), ("--html", state.htmlPath, .html),
                ("--write-rerun", state.rerunPath, keeping.map { .rerunKeeping($0) } ?? .rerun),
            ]
        }
        return ReportPlaceholder.write(outputs.compactMap { output in output.path.map { (output.option, $0, output.format) } })
    }

    /// Until the placeholders are written, an interruption writes no report: its paths are not yet checked against the
    /// files the run reads (the feature files may still be parsing for an outline's paths), and a report over one of
    /// them would destroy it. The run then ends 128+N saying so, its earlier files untouched.
    package func holdUntilChecked() {
        state.withLock { $0.unchecked = true }
    }

    /// Under `--shard`: what the partition was computed from, for `report`'s check that the shards agree.
    package func setPartition(_ partition: String?) {
        state.withLock { $0.run.partition = partition }
    }

    /// `test --dry-run` and `--list`: the run launches nothing, and its record says so (``ReportRecord/Run/launchedNothing``).
    package func setLaunchedNothing() {
        state.withLock { $0.run.launchedNothing = true }
    }

    /// `--coverage`'s summary, as JSON, for the JSON report.
    package func setCoverage(_ json: String) {
        state.withLock { $0.coverage = json }
    }

    /// The user steps loaded, for the Messages' step definitions.
    package func setHooks(_ hooks: [Hook]) {
        state.withLock { $0.hooks = hooks }
    }

    package func setUserSteps(_ userSteps: [UserStep]) {
        state.withLock { $0.messages?.userSteps = userSteps }
    }

    /// The console scenarios are reported on, the scenarios about to run and how many were not selected: an
    /// interruption reports each selected scenario and prints the summary there.
    package func setConsole(_ console: ScenarioConsole, selected: [Pickle], notSelected: Int) {
        state.withLock {
            $0.console = (console, notSelected)
            $0.selected = selected
        }
    }

    /// A scenario starts: until it finishes, an interruption reports it from `progress`.
    /// - Returns: false after an interruption: the scenario must not start (it is reported as not run).
    package func scenarioStarted(_ progress: ScenarioProgress) -> Bool {
        state.withLock { state in
            guard !state.interrupted else { return false }
            state.running[progress.pickle] = progress
            return true
        }
    }

    /// Records a finished scenario and prints it on the console. A signal that came first reports the scenario as
    /// interrupted instead (unless its steps had all run), so the console and the reports show it once.
    package func scenarioFinished(_ result: ScenarioResult) {
        state.withLock { state in
            guard !state.interrupted || state.settling.remove(result.pickle) != nil else { return }
            state.running[result.pickle] = nil
            state.finished.append(result)
            state.console?.console.finished(result)
        }
    }

    /// Entries an interruption's reports carry after the scenarios: the AfterAll hooks that failed, or an AfterAll
    /// phase the signal cut into (every scenario ended, the run did not).
    package func addRunEntries(_ entries: [ScenarioResult]) {
        state.withLock { $0.runEntries += entries }
    }

    /// Waits for the exit when a signal interrupted the run: its handler prints the summary and writes the reports.
    package func blockIfInterrupted() {
        if state.withLock({ $0.interrupted }) { DispatchSemaphore(value: 0).wait() }
    }

    /// Blocks the calling thread for good: used by a signal's handler when ``interrupt()`` refused, as the run's own
    /// end is writing the reports, then exits with its verdict.
    package func awaitTheRunsOwnEnd() -> Never {
        while true { DispatchSemaphore(value: 0).wait() }
    }

    /// Cuts the run at this instant: what finished counts, what runs is interrupted as it stands (its record frozen),
    /// and the normal end of the run no longer writes (the interruption does, then exits).
    /// - Returns: false when the reports are being written already (the run was over): the normal end goes on.
    package func interrupt() -> Bool {
        state.withLock { state in
            guard !state.written else { return false }
            state.interrupted = true
            let now = ContinuousClock.now
            for (pickle, progress) in state.running where progress.freeze(at: now) { state.settling.insert(pickle) }
            return true
        }
    }

    /// Writes the reports unless they were written already.
    /// - Parameters:
    ///   - results: the results to write; nil: those finished so far, plus the running ones as ``interrupt()``
    ///     found them, saying `interruption`, and those not started as not run.
    ///   - exitCode: the run's exit code so far.
    ///   - missing: outputs the run could not write before its reports (`GITHUB_STEP_SUMMARY`), each a one-line problem:
    ///     the reports say each, as one they could not write (R10B-10), and the exit code is 74.
    /// - Returns: the exit code, 74 when a report could not be written.
    @discardableResult
    package func write(
        _ results: [ScenarioResult]? = nil, exitCode: Int32, error: String? = nil, interruption: String? = nil, missing: [String] = []
    ) -> Int32 {
        if interruption == nil && state.withLock({ $0.interrupted }) {
            // A signal arrived: its handler writes the reports and exits 128+N. Do not race it to exit().
            DispatchSemaphore(value: 0).wait()
        }
        if results == nil, interruption != nil { awaitSettling(deadline: .now + .seconds(10)) }
        return state.withLock { state -> Int32 in
            guard !state.written else { return exitCode }
            state.written = true
            if state.unchecked {
                Console.line("no report written: the run ended before its outputs were checked against the files it reads")
                return exitCode
            }
            var all = results ?? state.finished
            let seconds = (ContinuousClock.now - started).seconds
            if results == nil, let interruption {
                all = Self.interrupted(state, saying: interruption)
                if let (console, notSelected) = state.console {
                    for result in all where state.running[result.pickle] != nil { console.finished(result) }
                    console.close()
                    console.summary(all, seconds: seconds, skipped: notSelected)
                } else if let message = all.first?.message {
                    Console.line(message)
                }
                if let environment = state.github { GitHubOutput.report(all, environment: environment) } else { GitHubOutput.end() }
            }
            // Interrupted before any scenario started: the error says so (the HTML shows the run's error, not orphans).
            let before = all.first.flatMap {
                state.console != nil && $0.pickle.line == 0 && $0.pickle.featureName == "sut-launch" ? $0.message : nil
            }
            return Self.render(
                all, state: state, seconds: seconds, exitCode: missing.isEmpty ? exitCode : ExitCode.ioError,
                error: error ?? (results == nil ? before : nil) ?? interruption, missing: missing)
        }
    }

    /// Waits (polling, up to `deadline`) for the results of the scenarios whose steps had all run at the signal.
    private func awaitSettling(deadline: ContinuousClock.Instant) {
        while state.withLock({ !$0.settling.isEmpty }), ContinuousClock.now < deadline {
            MonotonicClock.sleep(milliseconds: 10)
        }
    }

    /// Every selected scenario, in order: finished ones as they ended, running ones from their records, the others
    /// not run. Before anything was selected (the files still loading): one error entry saying the load was
    /// interrupted, so no report reads as an empty run that passed (JUnit's zero tests, Messages with no case).
    private static func interrupted(_ state: State, saying interruption: String) -> [ScenarioResult] {
        guard state.console != nil else {
            let pickle = Pickle(uri: "", featureName: "sut-launch", name: "load feature files", line: 0, tags: [], steps: [])
            var result = ScenarioResult(pickle: pickle, status: .error, duration: .zero, trail: [], outputTail: "", unexpectedRequests: [])
            result.message = "\(interruption) while the feature files were loading: no scenario ran"
            return [result]
        }
        let finished = Dictionary(state.finished.map { ($0.pickle, $0) }, uniquingKeysWith: { first, _ in first })
        // Before any scenario started (the BeforeAll hooks running): one error entry saying so, as a load gets, or the
        // JUnit would hold only skipped tests (green with skips) for a run that exited 143 having tested nothing.
        let before = state.finished.isEmpty && state.running.isEmpty ? [Self.interruptedBeforeScenarios(state, interruption)] : []
        var all =
            before
            + state.selected.map { pickle in
                if let result = finished[pickle] { return result }
                if let progress = state.running[pickle] { return progress.interruptedResult(interruption) }
                var result = ScenarioResult.notRun(pickle)
                result.message = "not run: \(interruption)"
                return result
            } + state.runEntries
        // Every scenario that started ended as itself (the signal came between two, or as they were torn down): the run
        // still did not end by itself, and no report of a run that exits 128+N reads green (JUnit's skipped tests are
        // green to its readers: the signal between two scenarios gave 2 passed, 28 skipped and no error, r11 R11-1).
        if !all.contains(where: { $0.failsTheRun && $0.status != .notRun }) {
            let notRun = all.filter { $0.status == .notRun }.count
            let what =
                notRun == 0
                ? "after every scenario's steps had run, while the run was ending: it did not end by itself"
                : "between two scenarios: \(notRun) scenario\(notRun == 1 ? "" : "s") not run"
            all.append(ScenarioResult.loadError(["\(interruption) \(what)"], name: "interrupted run"))
        }
        return all
    }

    /// The error entry of a run interrupted before its first scenario started, naming the BeforeAll hooks.
    private static func interruptedBeforeScenarios(_ state: State, _ interruption: String) -> ScenarioResult {
        let hooks = state.hooks.filter { $0.kind == .beforeAll }.map(\.source)
        let phase = hooks.isEmpty ? "" : ", while the BeforeAll hooks ran (\(hooks.prefix(5).joined(separator: ", ")))"
        var result = ScenarioResult.loadError(
            ["\(interruption) before any scenario started\(phase): no scenario ran"],
            name: hooks.isEmpty ? "start the run" : "BeforeAll hooks")
        result.failedStep = hooks.first ?? ""
        return result
    }

    /// Writes each report asked for; returns `exitCode`, or 74 when one could not be written. Every report is
    /// rendered from the run's Messages (``RunReports``): what `sut-launch report` writes from the Messages file.
    /// The rerun file and the Messages go first and the JSON report last: a report rendered after one that could not be
    /// written says exit 74 and names it (a JSON report said 0 beside `--messages /dev/full`, exit 74).
    private static func render(
        _ all: [ScenarioResult], state: State, seconds: Double, exitCode: Int32, error: String?, missing: [String] = []
    ) -> Int32 {
        if state.junitPath == nil, state.reportPath == nil, state.messages?.path == nil, state.htmlPath == nil, state.rerunPath == nil {
            return exitCode
        }
        var code = exitCode
        var failures = missing
        if let problem = writeRerun(all, state: state) { // it does not depend on the record: first, so the reports can say it
            code = ExitCode.ioError
            failures.append(problem)
        }
        var built: (failures: Int, bytes: [UInt8], run: ReportRun)?
        // The run's Messages and what is read back from them, rebuilt once an output failed (its record says 74).
        func current() -> (bytes: [UInt8], run: ReportRun)? {
            if let built, built.failures == failures.count { return (built.bytes, built.run) }
            let said = ([error].compactMap { $0 } + failures).joined(separator: "; ")
            guard let made = messages(all, state: state, seconds: seconds, exitCode: code, error: said.isEmpty ? nil : said) else {
                return nil
            }
            built = (failures.count, made.bytes, made.run)
            return made
        }
        let outputs: [(option: String, path: String?, what: String, render: (ReportRun, [UInt8]) -> [UInt8])] = [
            ("--messages", state.messages?.path, "the messages", { $1 }),
            (
                state.junitName, state.junitPath, "the JUnit report",
                // JUnit has no run-level error: an output missing is an error entry, as one missing at the start is.
                { run, _ in Array(RunReports.junit(run, strict: state.junitStrict, missing: failures).utf8) }
            ),
            ("--html", state.htmlPath, "the HTML report", { run, _ in HTMLReport.renderBytes(run) }),
            ("--report", state.reportPath, "the report", { run, _ in Array(RunReports.json(run).utf8) }),
        ]
        for output in outputs {
            guard let path = output.path else { continue }
            guard let made = current() else { return ExitCode.ioError }
            if let problem = OutputFile.write(output.render(made.run, made.bytes), to: path) {
                let failure = "\(output.option) \(path): cannot write \(output.what): \(problem)"
                Console.error("\(failure) (exit \(ExitCode.ioError))")
                code = ExitCode.ioError
                failures.append(failure)
            } else {
                Console.warnIfDisplaced(output.option, path)
            }
        }
        return code
    }

    /// The run's Messages with its record (exit code, error), and the run read back from them; nil (said) when they
    /// cannot be read back.
    private static func messages(
        _ all: [ScenarioResult], state: State, seconds: Double, exitCode: Int32, error: String?
    ) -> (bytes: [UInt8], run: ReportRun)? {
        var record = state.run
        record.seconds = seconds
        record.exitCode = exitCode
        record.error = error
        record.coverage = state.coverage
        var messages = state.messages?.envelopes ?? CucumberMessages()
        let userSteps = state.messages?.userSteps ?? []
        messages.stepDefinitions(userSteps: userSteps)
        messages.hookDefinitions(state.hooks)
        messages.testRun(
            all, startedAtMs: state.messages?.startedAtMs ?? state.startedAtMs, finishedAtMs: WallClock.milliseconds(), run: record,
            userSteps: userSteps)
        let bytes = Array((messages.lines.joined(separator: "\n") + "\n").utf8)
        // The run's own envelopes, in memory: no line limit (a feature file or message a report tool would refuse
        // must not cost this run its JUnit, JSON and HTML).
        do { return (bytes, try MessagesReader.read([("the run", bytes)], lineLimit: .max)) } catch {
            Console.error("cannot read back the run's own Messages: \(error) (exit \(ExitCode.ioError))")
            return nil
        }
    }

    /// Writes `--write-rerun`'s file, if asked for: the problem (said on stderr), or nil.
    private static func writeRerun(_ all: [ScenarioResult], state: State) -> String? {
        guard let path = state.rerunPath else { return nil }
        switch RerunFile.render(all) {
        case .success(let text):
            if let problem = OutputFile.write(Array(text.utf8), to: path) {
                Console.error("--write-rerun \(path): cannot write the rerun file: \(problem) (exit \(ExitCode.ioError))")
                return "--write-rerun \(path): cannot write the rerun file: \(problem)"
            }
            Console.warnIfDisplaced("--write-rerun", path)
            return nil
        case .failure(let problem):
            Console.error("--write-rerun \(path): \(problem) (exit \(ExitCode.ioError))")
            return "--write-rerun \(path): \(problem)"
        }
    }
}
