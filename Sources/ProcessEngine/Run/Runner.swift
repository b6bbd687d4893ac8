import AutomationSupport
import Coverage
import MockServer

/// The result of one run: sut-launch's exit code and the report.
package struct RunOutcome: Sendable {
    /// What sut-launch exits with (``ExitCode``).
    package var exitCode: Int32
    /// The run's report (`--report`).
    package var report: RunReport
}

/// Runs a program once: start the plan's mock server, launch with flags and environment, stream output, wait
/// (with timeout), stop what it left behind, report. The exit code follows ``ExitCode``.
package enum Runner {
    /// Carries out the plan. Never throws: every failure is an exit code, a line on stderr and the report.
    package static func run(_ plan: RunPlan, signals: SignalForwarder? = nil) -> RunOutcome {
        // The outputs' directories are held from now: a program that swaps one for a link cannot move a report out.
        OutputFile.pin([plan.settings.reportPath, plan.server?.journalPath].compactMap { $0 })
        // An earlier run's report and journal do not stay under their names while this one runs (a run killed now
        // leaves "did not finish"); the journal's once the server it records has started.
        if let problem = ReportPlaceholder.write(plan.settings.reportPath.map { [("--report", $0, .json)] } ?? []) {
            return failedToStart(plan, UsageError(problem), exitCode: ExitCode.ioError)
        }
        var server: MockServer?
        if let serverPlan = plan.server {
            switch MockServerRun.start(serverPlan) {
            case .success(let started):
                server = started
            case .failure(let error): return failedToStart(plan, error)
            }
            if let path = serverPlan.journalPath, let problem = ReportPlaceholder.write([("--journal", path, .json)]) {
                server?.stop()
                return failedToStart(plan, UsageError(problem), exitCode: ExitCode.ioError)
            }
        }
        // An HTTPS server's authority, trusted by the program through its environment; removed when the run ends.
        var trust: TrustFiles?
        if let server {
            switch TrustFiles.write(for: server, callerEnvironment: plan.launch.callerEnvironment) {
            case .success(let files): trust = files
            case .failure(let error):
                server.stop()
                return failedToStart(plan, error)
            }
        }
        defer { trust?.remove() }
        // A signal that came while the server started: the program is not launched (it may have side effects the
        // user stopped the run to prevent), the run ends 128+N.
        if let signal = signals?.receivedSignal {
            server?.stop()
            return interruptedBeforeLaunch(plan, signal)
        }
        var outcome = launchAndWait(
            plan.launch, mockServerURL: server?.baseURL, serverEnvironment: ServerEnvironment(server: server, trust: trust),
            quiet: plan.settings.quiet,
            signals: signals)
        if let server, let serverPlan = plan.server {
            finishServer(server, serverPlan, quiet: plan.settings.quiet, signals: signals, &outcome)
        }
        // A program that never started has nothing to measure: its own exit code (127, 126, 125) says why.
        if let coverage = plan.settings.coverage, outcome.report.launched {
            finishCoverage(coverage, quiet: plan.settings.quiet, signals: signals, &outcome)
        }
        noteUndeliveredOutput(&outcome)
        noteStalledOutput(&outcome)
        noteLostOutput(&outcome)
        writeReport(&outcome, plan.settings)
        return outcome
    }

    /// The reader of our stdout or stderr went away while the program's output was still passed on (`sut-launch
    /// prog | head -c1`): as piped to head directly, the program would have died of SIGPIPE at that write, so the
    /// run ends 141 whatever it did next, never 0 with output not delivered (a timeout or interruption stays).
    private static func noteUndeliveredOutput(_ outcome: inout RunOutcome) {
        guard let fd = StandardStreams.undeliveredTo, !outcome.report.timedOut, outcome.report.interruptedBy == nil else { return }
        let code = ExitCode.signaled(SignalNumber.pipe)
        let name = fd == 1 ? "standard output" : "standard error"
        let text = "the reader of \(name) went away: the program's output after that was not delivered (SIGPIPE, exit \(code))"
        if outcome.exitCode != code { Console.error(text) }
        outcome.exitCode = code
        outcome.report.exitCode = code
        outcome.report.error = [outcome.report.error, text].compactMap { $0 }.joined(separator: "; ")
    }

    /// A stop came while our reader held stdout or stderr without reading (`sut-launch prog | (sleep 1000)`): what was
    /// not written by the deadline is said, here and in the report; the exit code stays the stop's (124, 130, 143).
    private static func noteStalledOutput(_ outcome: inout RunOutcome) {
        for (fd, name) in [(Int32(1), "stdout"), (2, "stderr")] {
            let count = StandardStreams.bytesNotWritten(to: fd)
            guard count > 0 else { continue }
            let text = "\(count) bytes of the program's output were not written: \(name) was not being read"
            Console.error(text)
            outcome.report.error = [outcome.report.error, text].compactMap { $0 }.joined(separator: "; ")
        }
    }

    /// The server (or its trust files) could not be set up: exit 125, nothing launched, the report written.
    private static func failedToStart(_ plan: RunPlan, _ error: UsageError, exitCode: Int32 = ExitCode.cannotLaunch) -> RunOutcome {
        var report = RunReport(plan: plan.launch, request: plan.launch.request(mockServerURL: nil), mockServerURL: nil)
        report.error = error.message
        report.exitCode = exitCode
        Console.error(error.message + (exitCode == ExitCode.ioError ? " (exit \(exitCode)); nothing was launched" : ""))
        var outcome = RunOutcome(exitCode: exitCode, report: report)
        writeReport(&outcome, plan.settings)
        return outcome
    }

    /// The outcome of a run a signal ended before its program was launched: 128+N, the report saying so.
    private static func interruptedBeforeLaunch(_ plan: RunPlan, _ signal: Int32) -> RunOutcome {
        var report = RunReport(plan: plan.launch, request: plan.launch.request(mockServerURL: nil), mockServerURL: nil)
        let code = ExitCode.signaled(signal)
        report.error = "interrupted by \(signalName(signal)) before the program was launched: nothing was launched"
        report.exitCode = code
        report.interruptedBy = signalName(signal)
        Console.error(report.error ?? "")
        var outcome = RunOutcome(exitCode: code, report: report)
        writeReport(&outcome, plan.settings)
        return outcome
    }

    /// Stops the server and counts its checks into the outcome. A signal that arrives meanwhile (after the program
    /// ended, while webhooks wait) ends the wait and the run with 128+N, never 0.
    private static func finishServer(
        _ server: MockServer, _ plan: ServerPlan, quiet: Bool, signals: SignalForwarder?, _ outcome: inout RunOutcome
    ) {
        let (summary, journalFailed) = MockServerRun.finish(server, plan, quiet: quiet) { signals?.receivedSignal != nil }
        if let signal = signals?.receivedSignal, outcome.report.interruptedBy == nil, outcome.exitCode != ExitCode.timeout {
            outcome.report.interruptedBy = signalName(signal)
            outcome.exitCode = ExitCode.signaled(signal)
            outcome.report.exitCode = outcome.exitCode
            Console.error("interrupted by \(signalName(signal)) after the program ended; webhooks still waiting were not sent")
        }
        outcome.report.mockServer = MockServerReport(url: server.baseURL, summary: summary)
        let failures = summary.failures
        if !failures.isEmpty {
            Console.error("mock-server checks failed: \(failures.joined(separator: "; "))")
            if outcome.exitCode == 0 {
                outcome.exitCode = ExitCode.serverChecksFailed
                outcome.report.exitCode = ExitCode.serverChecksFailed
            }
        }
        if journalFailed {
            outcome.exitCode = ExitCode.ioError
            outcome.report.exitCode = ExitCode.ioError
            outcome.report.error = "cannot write the journal to \(plan.journalPath ?? "")"
        }
    }

    private static func launchAndWait(
        _ plan: LaunchPlan, mockServerURL: String?, serverEnvironment: ServerEnvironment, quiet: Bool, signals: SignalForwarder?
    ) -> RunOutcome {
        let request = plan.request(mockServerURL: mockServerURL, serverEnvironment: serverEnvironment)
        var report = RunReport(plan: plan, request: request, mockServerURL: mockServerURL)

        let process: LaunchedProcess
        do {
            process = try Launcher.launch(request)
        } catch {
            report.error = error.message
            report.exitCode = error.exitCode
            Console.error(error.message)
            return RunOutcome(exitCode: error.exitCode, report: report)
        }
        report.launched = true
        report.executablePath = process.executablePath
        // What the program was sent: Foundation.Process cannot set argv[0] (it sends the resolved path), ours sends the
        // program as given; the report says which, never the plan's argv[0] for both.
        report.argv = process.argv
        report.pid = process.pid
        signals?.attach(process)

        var timedOut = false
        var status = signals.map { $0.waitForExit(of: process, timeout: plan.timeout) } ?? process.waitForExit(timeout: plan.timeout)
        if status == nil {
            timedOut = true
            // A reader of ours that never reads cannot hold the stop: our writes end within the grace.
            StandardStreams.limitWrites(within: plan.killGrace)
            status = process.stop(signal: SignalNumber.terminate, grace: plan.killGrace)
        }
        process.finish(grace: plan.killGrace) { signals?.writeAllowance }
        // What left the group (setpgid, setsid) and outlived its parent is ours now, when the command line made this
        // process a subreaper (``Descendants/adopt()``; a library caller's other children are not ours to stop).
        let left = Descendants.stopAll(grace: plan.killGrace).left
        let final = status!
        if left > 0 {
            Console.error(stillRunning(left))
            report.error = [report.error, stillRunning(left)].compactMap { $0 }.joined(separator: "; ")
        }

        report.durationMs = process.duration.seconds * 1000
        report.stdoutBytes = process.output.byteCount(.stdout)
        report.stderrBytes = process.output.byteCount(.stderr)
        report.timedOut = timedOut
        switch final {
        case .exited(let code): report.programExitCode = code
        case .signaled(let signal):
            report.signal = signal
            report.signalName = signalName(signal)
        }

        var exitCode = final.shellExitCode
        let interrupted = signals?.receivedSignal
        if timedOut {
            exitCode = ExitCode.timeout
            Console.error("\(plan.program) timed out after \(format(plan.timeout!)) and was stopped (\(final))")
        } else if let interrupted {
            report.interruptedBy = signalName(interrupted)
            exitCode = ExitCode.signaled(interrupted)
            if !quiet { Console.error("interrupted by \(signalName(interrupted)); \(plan.program) \(final)") }
        } else if case .signaled = final, !quiet {
            Console.error("\(plan.program) was \(final)")
        }
        report.exitCode = exitCode
        return RunOutcome(exitCode: exitCode, report: report)
    }

    /// `--coverage`: the launch recorded (killed or not), profiles merged and exported, the summary in the report;
    /// exit 6 when the program passed but coverage could not be measured or is below the threshold.
    private static func finishCoverage(_ coverage: CoveragePlan, quiet: Bool, signals: SignalForwarder?, _ outcome: inout RunOutcome) {
        let report = outcome.report
        let killed: String? = report.timedOut ? "timed out" : report.signalName.map { "killed by \($0)" }
        coverage.session.record(
            CoverageSession.Launch(label: report.program, executable: report.executablePath, pid: report.pid ?? 0, killed: killed))
        // A signal during the merge reaches the tools (and stops them); the run then ends as interrupted.
        CoverageToolLauncher.forwarder.withLock { $0 = signals }
        defer { CoverageToolLauncher.forwarder.withLock { $0 = nil } }
        if let signal = signals?.receivedSignal {
            interruptedCoverage(coverage, signal: signal, &outcome)
            return
        }
        let (result, code) = coverage.finish(exitCode: outcome.exitCode, quiet: quiet)
        if let signal = signals?.receivedSignal {
            interruptedCoverage(coverage, signal: signal, &outcome)
            return
        }
        outcome.report.coverage = CoverageReport(result, directory: coverage.session.directory, threshold: coverage.threshold)
        if let failure = result.failure ?? result.error, code != outcome.exitCode {
            outcome.report.error = [outcome.report.error, "coverage: " + failure].compactMap { $0 }.joined(separator: "; ")
        }
        if code != outcome.exitCode {
            outcome.exitCode = code
            outcome.report.exitCode = code
        }
    }

    /// Interrupted before or during the merge: no coverage, exit 128+N, the report says so.
    private static func interruptedCoverage(_ coverage: CoveragePlan, signal: Int32, _ outcome: inout RunOutcome) {
        var result = CoverageOutcome()
        result.launches = coverage.session.recorded.count
        result.error = "interrupted by \(signalName(signal)) before coverage was measured"
        Console.error("coverage: \(result.error ?? "") (no report written in \(coverage.session.directory))")
        outcome.report.coverage = CoverageReport(result, directory: coverage.session.directory, threshold: coverage.threshold)
        outcome.report.interruptedBy = signalName(signal)
        outcome.exitCode = ExitCode.signaled(signal)
        outcome.report.exitCode = outcome.exitCode
    }

    /// Our stdout or stderr could not take a write (`> /dev/full`; EPIPE is a reader that left, not this): output
    /// was lost: a run that would end 0 fails with exit 74 naming it (the program's status stays in the report); any
    /// other code (the program's failure, 124, 128+N) stays, and the loss is named beside it.
    private static func noteLostOutput(_ outcome: inout RunOutcome) {
        guard let failure = StandardStreams.failure else { return }
        guard StandardStreams.lostOutputOverrides(outcome.exitCode) else {
            // The program's own failure, the timeout or the stop keeps its code; the loss is still named.
            Console.error("\(failure) (the exit code stays \(outcome.exitCode))")
            outcome.report.error = [outcome.report.error, failure].compactMap { $0 }.joined(separator: "; ")
            return
        }
        Console.error("\(failure) (exit \(ExitCode.ioError))")
        outcome.exitCode = ExitCode.ioError
        outcome.report.exitCode = ExitCode.ioError
        outcome.report.error = [outcome.report.error, failure].compactMap { $0 }.joined(separator: "; ")
    }

    /// Writes the `--report`; when that fails at the end, the run fails with exit 74 (EX_IOERR), never 0.
    private static func writeReport(_ outcome: inout RunOutcome, _ settings: RunSettings) {
        guard let path = settings.reportPath else { return }
        if let problem = outcome.report.problemWriting(to: path) {
            Console.error("--report \(path): cannot write the report: \(problem) (exit \(ExitCode.ioError))")
            outcome.exitCode = ExitCode.ioError
        }
    }

    package static func format(_ duration: Duration) -> String { DurationParser.format(duration) }

    /// The line for `count` processes of the run that the sweep at its end could not stop in its time.
    package static func stillRunning(_ count: Int) -> String {
        "\(count) process\(count == 1 ? "" : "es") the run started \(count == 1 ? "is" : "are") still running after the sweep "
            + "at its end (SIGTERM, SIGKILL, repeated for twice the kill grace plus 2 s); find \(count == 1 ? "it" : "them") by "
            + "\(Descendants.variable) in /proc/PID/environ"
    }
}
