import AutomationSupport
import Dispatch
import ProcessEngine

/// The reports of one `sut-launch test` run (`--junit`, `--report`, `--messages`), written exactly once: when the
/// run ends, when it ends early (usage error, invalid file), or when a signal interrupts it (finished scenarios,
/// plus the running ones as errors "interrupted by SIGTERM", each also on the console, then the summary).
package final class ScenarioReports: Sendable {
    private struct State {
        var junitPath: String?
        var junitStrict = false
        var reportPath: String?
        /// `--messages`: the documents and pickles, the run's envelopes added when the reports are written.
        var messages: (path: String, envelopes: CucumberMessages, userSteps: [UserStep], startedAtMs: Double)?
        /// The run's console once scenarios run, and how many were not selected, for an interruption's summary.
        var console: (console: ScenarioConsole, notSelected: Int)?
        var finished: [ScenarioResult] = []
        var running: [Pickle: ContinuousClock.Instant] = [:]
        var written = false
        /// Set by ``interrupt()``: results that come in later (scenarios we stopped) are ignored.
        var interrupted = false
    }
    private let state = Locked(State())
    private let started = ContinuousClock.now

    /// Reports not configured yet (``configure(junit:report:junitStrict:)``).
    package init() {}

    /// Sets where the reports go (paths already checked).
    package func configure(junit: String?, report: String?, junitStrict: Bool = false) {
        state.withLock {
            $0.junitPath = junit
            $0.junitStrict = junitStrict
            $0.reportPath = report
        }
    }

    /// Sets where the Messages go, with the envelopes of the files loaded so far.
    package func configureMessages(path: String, envelopes: CucumberMessages, startedAtMs: Double) {
        state.withLock { $0.messages = (path, envelopes, [], startedAtMs) }
    }

    /// The user steps loaded, for the Messages' step definitions.
    package func setUserSteps(_ userSteps: [UserStep]) {
        state.withLock { $0.messages?.userSteps = userSteps }
    }

    /// The console scenarios are reported on: an interruption prints the interrupted ones and the summary there.
    package func setConsole(_ console: ScenarioConsole, notSelected: Int) {
        state.withLock { $0.console = (console, notSelected) }
    }

    package func scenarioStarted(_ pickle: Pickle) {
        state.withLock { $0.running[pickle] = .now }
    }

    /// Records a finished scenario; false once a signal interrupted the run (the interruption reports it, as
    /// interrupted: the console must not show it twice).
    @discardableResult
    package func scenarioFinished(_ result: ScenarioResult) -> Bool {
        state.withLock {
            guard !$0.interrupted else { return false }
            $0.running[result.pickle] = nil
            $0.finished.append(result)
            return true
        }
    }

    /// Waits for the exit when a signal interrupted the run: its handler prints the summary and writes the reports.
    package func blockIfInterrupted() {
        if state.withLock({ $0.interrupted }) { DispatchSemaphore(value: 0).wait() }
    }

    /// Freezes the results at this instant: what finished counts, what runs is interrupted, and the
    /// normal end of the run no longer writes (the interruption does, then exits).
    package func interrupt() {
        state.withLock { $0.interrupted = true }
    }

    /// Writes the reports unless they were written already.
    /// - Parameters:
    ///   - results: the results to write; nil: those finished so far, plus the running ones as errors
    ///     saying `interruption`.
    ///   - exitCode: the run's exit code so far.
    /// - Returns: the exit code, 74 when a report could not be written.
    @discardableResult
    package func write(_ results: [ScenarioResult]? = nil, exitCode: Int32, error: String? = nil, interruption: String? = nil) -> Int32 {
        if interruption == nil && state.withLock({ $0.interrupted }) {
            // A signal arrived: its handler writes the reports and exits 128+N. Do not race it to exit().
            DispatchSemaphore(value: 0).wait()
        }
        return state.withLock { state -> Int32 in
            guard !state.written else { return exitCode }
            state.written = true
            var all = results ?? state.finished
            var interrupted: [ScenarioResult] = []
            if results == nil, let interruption {
                for (pickle, since) in state.running.sorted(by: { $0.value < $1.value }) {
                    var result = ScenarioResult(
                        pickle: pickle, status: .error, duration: .now - since, trail: [],
                        outputTail: "", unexpectedRequests: [])
                    result.failedStep = pickle.location
                    result.message = interruption
                    interrupted.append(result)
                }
                all += interrupted
            }
            let seconds = (ContinuousClock.now - started).seconds
            if let (console, notSelected) = state.console, results == nil {
                for result in interrupted { console.finished(result) }
                console.close()
                console.summary(all, seconds: seconds, skipped: notSelected)
            }
            var code = exitCode
            if let path = state.junitPath,
                let problem = OutputFile.write(
                    Array(JUnitReport.render(all, totalSeconds: seconds, strict: state.junitStrict).utf8), to: path)
            {
                Console.error("--junit \(path): cannot write the JUnit report: \(problem) (exit \(ExitCode.ioError))")
                code = ExitCode.ioError
            }
            if let path = state.reportPath {
                let json = ScenarioJSONReport.render(all, totalSeconds: seconds, exitCode: exitCode, error: error ?? interruption)
                if let problem = OutputFile.write(Array(json.utf8), to: path) {
                    Console.error("--report \(path): cannot write the report: \(problem) (exit \(ExitCode.ioError))")
                    code = ExitCode.ioError
                }
            }
            if let (path, envelopes, userSteps, startedAtMs) = state.messages {
                var messages = envelopes
                messages.stepDefinitions(userSteps: userSteps)
                messages.testRunStarted(atMs: startedAtMs)
                var offset = startedAtMs
                for result in all {
                    messages.testCase(result, startedAtMs: offset, userSteps: userSteps)
                    offset += result.duration.seconds * 1000
                }
                messages.testRunFinished(success: code == 0, atMs: WallClock.milliseconds())
                if !messages.write(to: path) { code = ExitCode.ioError }
            }
            return code
        }
    }
}
