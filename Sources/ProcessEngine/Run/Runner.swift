import AutomationSupport
import MockServer

/// The result of one run: sut-launch's exit code and the report.
public struct RunOutcome: Sendable {
    /// What sut-launch exits with (``ExitCode``).
    public var exitCode: Int32
    /// The run's report (`--report`).
    public var report: RunReport
}

/// Runs a program once: launch with flags and environment, stream output, wait (with timeout), stop what
/// it left behind, report. The exit code follows ``ExitCode``.
public enum Runner {
    /// Runs the configuration. Never throws: every failure is an exit code, a line on stderr and the report.
    public static func run(_ configuration: RunConfiguration, signals: SignalForwarder? = nil) -> RunOutcome {
        var configuration = configuration
        var server: MockServer?
        if let stubs = configuration.stubs {
            switch MockServerRun.start(stubs, host: configuration.mockHost, port: configuration.mockPort, strict: configuration.strict,
                                       options: configuration.serverOptions) {
            case .success(let started):
                configuration.mockServerURL = started.baseURL
                server = started
            case .failure(let error):
                var report = RunReport(configuration: configuration, request: configuration.launchRequest())
                report.error = error.message
                report.exitCode = ExitCode.cannotLaunch
                Console.error(error.message)
                var outcome = RunOutcome(exitCode: ExitCode.cannotLaunch, report: report)
                writeReport(&outcome, configuration)
                return outcome
            }
        }
        var outcome = launchAndWait(configuration, signals: signals)
        if let server { finishServer(server, configuration, &outcome) }
        noteLostOutput(&outcome)
        writeReport(&outcome, configuration)
        return outcome
    }

    private static func finishServer(_ server: MockServer, _ configuration: RunConfiguration, _ outcome: inout RunOutcome) {
        let (summary, journalFailed) = MockServerRun.finish(server, journalPath: configuration.journalPath,
                                                            secrets: configuration.journalSecrets, quiet: configuration.quiet)
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
            outcome.report.error = "cannot write the journal to \(configuration.journalPath ?? "")"
        }
    }

    private static func launchAndWait(_ configuration: RunConfiguration, signals: SignalForwarder?) -> RunOutcome {
        let request = configuration.launchRequest()
        var report = RunReport(configuration: configuration, request: request)

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
        signals?.attach(process)

        var timedOut = false
        var status = signals.map { $0.waitForExit(of: process, timeout: configuration.timeout) } ?? process.waitForExit(timeout: configuration.timeout)
        if status == nil {
            timedOut = true
            status = process.stop(signal: SignalNumber.terminate, grace: configuration.killGrace)
        }
        process.finish(grace: configuration.killGrace)
        let final = status!

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
            Console.error("\(configuration.program) timed out after \(format(configuration.timeout!)) and was stopped (\(final))")
        } else if let interrupted {
            report.interruptedBy = signalName(interrupted)
            exitCode = ExitCode.signaled(interrupted)
            if !configuration.quiet { Console.error("interrupted by \(signalName(interrupted)); \(configuration.program) \(final)") }
        } else if case .signaled = final, !configuration.quiet {
            Console.error("\(configuration.program) was \(final)")
        }
        report.exitCode = exitCode
        return RunOutcome(exitCode: exitCode, report: report)
    }

    /// Our stdout or stderr could not take a write (`> /dev/full`; EPIPE is a reader that left, not this): output
    /// was lost, so the run fails with exit 74 naming it, whatever the program did (its status stays in the report).
    private static func noteLostOutput(_ outcome: inout RunOutcome) {
        guard let failure = StandardStreams.failure else { return }
        Console.error("\(failure) (exit \(ExitCode.ioError))")
        outcome.exitCode = ExitCode.ioError
        outcome.report.exitCode = ExitCode.ioError
        outcome.report.error = [outcome.report.error, failure].compactMap { $0 }.joined(separator: "; ")
    }

    /// Writes the `--report`; when that fails at the end, the run fails with exit 74 (EX_IOERR), never 0.
    private static func writeReport(_ outcome: inout RunOutcome, _ configuration: RunConfiguration) {
        guard let path = configuration.reportPath else { return }
        if !outcome.report.write(to: path) {
            Console.error("--report \(path): cannot write the report (exit \(ExitCode.ioError))")
            outcome.exitCode = ExitCode.ioError
        }
    }

    package static func format(_ duration: Duration) -> String { DurationParser.format(duration) }
}
