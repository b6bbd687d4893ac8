#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of one run: sut-launch's exit code and the report.
public struct RunOutcome: Sendable {
    public var exitCode: Int32
    public var report: RunReport
}

/// Runs a program once: launch with flags and environment, stream output, wait (with timeout), stop what
/// it left behind, report. The exit code follows ``ExitCode``.
public enum Runner {
    /// Runs the configuration. Never throws: every failure is an exit code, a line on stderr and the report.
    public static func run(_ configuration: RunConfiguration, signals: SignalForwarder? = nil) -> RunOutcome {
        var report = RunReport(configuration: configuration)
        let request = LaunchRequest(
            executable: configuration.program, arguments: configuration.launchArguments,
            environment: configuration.launchEnvironment, workingDirectory: configuration.workingDirectory,
            standardInput: configuration.standardInput)

        let process: LaunchedProcess
        do {
            process = try Launcher.launch(request)
        } catch {
            report.error = error.message
            report.exitCode = error.exitCode
            Console.error(error.message)
            writeReport(report, configuration)
            return RunOutcome(exitCode: error.exitCode, report: report)
        }
        report.launched = true
        report.executablePath = process.executablePath
        signals?.attach(process)

        var timedOut = false
        var status = process.waitForExit(timeout: configuration.timeout)
        if status == nil {
            timedOut = true
            status = process.stop(signal: SIGTERM, grace: configuration.killGrace)
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
        writeReport(report, configuration)
        return RunOutcome(exitCode: exitCode, report: report)
    }

    private static func writeReport(_ report: RunReport, _ configuration: RunConfiguration) {
        guard let path = configuration.reportPath else { return }
        do {
            try report.write(to: path)
        } catch {
            Console.error("cannot write the report to \(path): \(error)")
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(seconds)s"
    }
}

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `.
public enum Console {
    /// Writes `sut-launch: error: message` to stderr.
    public static func error(_ message: String) { line("error: " + message) }

    /// Writes `sut-launch: message` to stderr.
    public static func line(_ message: String) {
        var bytes = Array(("sut-launch: " + message + "\n").utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
