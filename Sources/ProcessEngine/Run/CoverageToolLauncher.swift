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

    package func run(_ path: String, _ arguments: [String], timeout: Duration, outputLimit: Int) -> ToolOutput {
        let request = LaunchRequest(
            executable: path, arguments: arguments, environment: environment, standardInput: .null, forwardsOutput: false,
            captureLimit: outputLimit)
        let process: LaunchedProcess
        do { process = try Launcher.launch(request) } catch { return ToolOutput(exitCode: nil, stdout: [], stderr: error.message) }
        var timedOut = false
        var status = process.waitForExit(timeout: timeout)
        if status == nil {
            timedOut = true
            status = process.stop(signal: ProcessGroup.kill, grace: .seconds(1))
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
        let outcome = session.finish(perScenario: perScenario)
        for note in outcome.notes { Console.line(note) }
        if let error = outcome.error {
            Console.error("coverage: \(error) (nothing written in \(session.directory); exit \(ExitCode.coverageFailed) if the run passed)")
        } else if !quiet {
            Console.line(outcome.summaryLine(directory: session.directory))
        }
        var code = exitCode
        if outcome.error != nil {
            if code == 0 { code = ExitCode.coverageFailed }
        } else if let threshold, let lines = outcome.totals?.lines, lines.percent < threshold {
            Console.error(
                "coverage: line coverage \(lines.text) is below --coverage-threshold \(threshold.formatted)% (exit \(ExitCode.coverageFailed))"
            )
            if code == 0 { code = ExitCode.coverageFailed }
        }
        return (outcome, code)
    }
}

extension Double {
    /// `80`, `80.5`: the threshold as the user wrote it, without a trailing `.0`.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
