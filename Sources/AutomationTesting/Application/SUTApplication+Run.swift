public import ProcessEngine
import Scenarios

/// What a command printed and how it ended.
public struct CommandResult: Sendable {
    /// Everything the program wrote to stdout.
    public var stdout: String
    /// Everything the program wrote to stderr.
    public var stderr: String
    /// How the program ended.
    public var status: ProcessStatus
    /// The exit code, 128 + N when signal N ended it.
    public var exitCode: Int32 { status.shellExitCode }
}

extension SUTApplication {
    /// Runs a command line to completion, as the scenario step `When I run` does: words split as a POSIX
    /// shell splits them, no shell (write `sh -c '…'` for pipes), stdin empty. In a test with a scope it runs
    /// in the scope's ``ScratchSpace`` with its isolated `HOME`, `TMPDIR` and `XDG_*`.
    /// - Parameters:
    ///   - directory: where it runs (default: the scratch directory, else ours).
    ///   - environment: added to ours (and the scratch isolation), winning over both.
    /// - Returns: its output and status; a failing exit is a result, not an error.
    /// - Throws: ``AutomationError`` for an unterminated quote, a program that cannot start, or one still
    ///   running after `timeout` (it is stopped).
    public static func run(
        _ commandLine: String, in directory: String? = nil, environment: [String: String] = [:],
        timeout: Duration = WaitTimeout.standard
    ) throws -> CommandResult {
        let words: [String]
        do { words = try ShellWords.split(commandLine) } catch { throw AutomationError("\(error)") }
        guard let program = words.first else { throw AutomationError("run needs a command") }
        let scratch = try AutomationScope.current.map { try $0.scratch }
        let workingDirectory = directory ?? scratch?.directory
        let plan = LaunchPlan(
            program: program.contains("/") && !program.hasPrefix("/") && workingDirectory != nil
                ? workingDirectory! + "/" + program : program,
            arguments: Array(words.dropFirst()),
            environment: (scratch?.environment ?? [:]).merging(environment) { _, given in given }
                .sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            callerEnvironment: ProcessEnvironment.current, workingDirectory: workingDirectory,
            standardInput: .null, forwardsOutput: false, captureLimit: 64 << 20)
        let process: LaunchedProcess
        do {
            process = try Launcher.launch(plan.request(mockServerURL: nil))
        } catch {
            throw AutomationError(error.message)
        }
        guard let status = process.waitForExit(timeout: timeout) else {
            process.stop(signal: SignalNumber.terminate, grace: .seconds(1))
            process.finish(grace: .seconds(1))
            throw AutomationError(
                "\(commandLine) was still running after \(Runner.format(timeout)) and was stopped\n\(process.output.tailReport(lines: 15))")
        }
        process.finish(grace: .seconds(1))
        return CommandResult(
            stdout: String(decoding: process.output.captured(.stdout), as: UTF8.self),
            stderr: String(decoding: process.output.captured(.stderr), as: UTF8.self), status: status)
    }

    /// Sends a signal (`"INT"`, `"TERM"`, `"HUP"`, `"QUIT"`, `"USR1"`, `"USR2"`, `"KILL"`) to the program's
    /// process group.
    /// - Throws: ``AutomationError`` for an unknown name or a program that was not launched.
    public func signal(_ name: String) throws {
        let bare = name.uppercased().hasPrefix("SIG") ? String(name.uppercased().dropFirst(3)) : name.uppercased()
        guard let number = SignalNumber.named.first(where: { $0.name == bare })?.number else {
            throw AutomationError("unknown signal \"\(name)\"; use one of \(SignalNumber.named.map(\.name).joined(separator: ", "))")
        }
        try runningProcess().signalGroup(number)
    }
}
