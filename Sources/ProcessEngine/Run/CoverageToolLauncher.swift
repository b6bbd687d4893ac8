import AutomationSupport
package import Coverage

/// Runs the coverage tools (`llvm-profdata`, `llvm-cov`, `swift-demangle`) with this library's own launcher: stdin
/// `/dev/null`, a minimal environment, stdout kept up to the limit, stopped with SIGKILL at the deadline.
package struct CoverageToolLauncher: CoverageToolRunning {
    let environment: [String: String]

    /// A runner whose tools see only PATH from `callerEnvironment` (and `LC_ALL=C`, for messages read here).
    package init(callerEnvironment: [String: String]) {
        environment = ["PATH": callerEnvironment["PATH"] ?? "/usr/bin:/bin", "LC_ALL": "C"]
    }

    /// The run's signal forwarder while coverage is measured (run mode): a signal reaches the tool's group and
    /// stops it (a second one at once), instead of being swallowed while the merge goes on.
    static let forwarder = Locked<SignalForwarder?>(nil)

    package func run(_ path: String, _ arguments: [String], timeout: Duration, outputLimit: Int) -> ToolOutput {
        let request = LaunchRequest(
            executable: path, arguments: arguments, environment: environment, standardInput: .null, forwardsOutput: false,
            captureLimit: outputLimit)
        let process: LaunchedProcess
        do { process = try Launcher.launch(request) } catch { return ToolOutput(exitCode: nil, stdout: [], stderr: error.message) }
        let signals = Self.forwarder.withLock { $0 }
        signals?.attach(process)
        var timedOut = false
        var status: ProcessStatus?
        let end = ContinuousClock.now + timeout
        // Slices: a tool writing past the output limit is stopped when it passes it, not at the deadline.
        while status == nil {
            let slice = min(Duration.milliseconds(100), max(end - .now, .zero))
            status = signals.map { $0.waitForExit(of: process, timeout: slice) } ?? process.waitForExit(timeout: slice)
            if status == nil && (ContinuousClock.now >= end || process.output.byteCount(.stdout) > outputLimit) {
                timedOut = ContinuousClock.now >= end
                status = process.stop(signal: ProcessGroup.kill, grace: .seconds(1))
            }
        }
        process.finish(grace: .seconds(1))
        let stdout = process.output.captured(.stdout)
        let code: Int32? = if case .exited(let code)? = status { code } else { nil }
        return ToolOutput(
            exitCode: timedOut ? nil : code, stdout: stdout, truncated: process.output.byteCount(.stdout) > stdout.count,
            stderr: String(decoding: process.output.tail(.stderr), as: UTF8.self), timedOut: timedOut)
    }
}

/// `--coverage DIR` of a run: the session whose variables every launch gets, and the line coverage below which the
/// run fails (`--coverage-threshold`).
package struct CoveragePlan: Sendable {
    package let session: CoverageSession
    package let threshold: Double?

    package init(session: CoverageSession, threshold: Double?) {
        self.session = session
        self.threshold = threshold
    }

    /// Merges, exports and prints the summary (and the notes) on stderr; returns the exit code the run ends with:
    /// `exitCode` unchanged, or ``ExitCode/coverageFailed`` when the run would pass but coverage could not be
    /// measured or is below the threshold (after every report was written).
    package func finish(exitCode: Int32, perScenario: Bool = false, quiet: Bool) -> (CoverageOutcome, Int32) {
        var outcome = session.finish(perScenario: perScenario)
        for note in outcome.notes { Console.line(note) }
        if let error = outcome.error {
            let code = outcome.writeFailed ? ExitCode.ioError : ExitCode.coverageFailed
            Console.error("coverage: \(error) (no report written in \(session.directory); exit \(code) if the run passed)")
        } else if !quiet || outcome.launches == 0 || outcome.goOnly {
            Console.line(outcome.summaryLine(directory: session.directory))
        }
        var code = exitCode
        if outcome.error != nil {
            if outcome.writeFailed {
                code = ExitCode.ioError
            } else if code == 0 {
                code = ExitCode.coverageFailed
            }
        } else if let failure = belowThreshold(outcome) {
            Console.error("coverage: \(failure) (exit \(ExitCode.coverageFailed))")
            outcome.failure = failure
            if code == 0 { code = ExitCode.coverageFailed }
        }
        return (outcome, code)
    }

    /// Why the threshold fails the run, or nil: lines below it, or no line measured at all (0 of 0 is not 100%). A run
    /// that launched nothing (an empty shard) has nothing to hold to it.
    func belowThreshold(_ outcome: CoverageOutcome) -> String? {
        guard let threshold, outcome.launches > 0 else { return nil }
        guard let lines = outcome.totals?.lines, lines.count > 0 else {
            return "no line was measured, so --coverage-threshold \(threshold.formatted)% is not met"
        }
        guard lines.percent < threshold else { return nil }
        return "line coverage \(lines.text) is below --coverage-threshold \(threshold.formatted)%"
    }
}

extension Double {
    /// `80`, `80.5`: the threshold as the user wrote it, without a trailing `.0`.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
