import AutomationSupport
import MockServer
import ProcessEngine
import Scenarios

/// The whole command line: picks the subcommand, turns every error into its exit code, and writes the
/// `--report` a parsed option asked for, whatever the exit code.
///
/// Subcommand names are reserved words: a first word that is a likely typo of one (`tests`, `serv`,
/// `chek`, `hlep`) is a usage error, never a program launch; `--` before the program forces a launch
/// (`sut-launch -- test` runs test(1)).
package enum SutLaunchCommand {
    /// The subcommands, and `help`.
    static let subcommands = Subcommand.allCases.map(\.rawValue)
    /// Words kept for subcommands to come; launching a program of that name needs `--`.
    static let reservedWords: [String] = []

    /// Runs the command line and returns sut-launch's exit code. Signals must be blocked in this process already.
    /// - Parameters:
    ///   - arguments: argv without argv[0].
    ///   - environment: the caller's environment.
    /// The executable that has the Foundation.Process launcher linked in, installed next to sut-launch.
    static let foundationCompanion = "sut-launch-foundation"
    /// What asks for the companion when a static executable loads stubs that use XML (libxml2 cannot be loaded there).
    static let xmlMatchers = "stubs with XML matchers (equalToXml, matchesXPath, xPath, soapXPath)"

    /// The same command line, run by ``foundationCompanion`` in this process's place: for `--launcher foundation`
    /// in a sut-launch built without Foundation, and for `--https` in a static executable (which cannot load libssl;
    /// the companion has a dynamic C library). Returns only when that cannot start (exit 125, with the report).
    /// - Parameter option: what asked for it (`--launcher foundation`, `--https`), for the message.
    static func runCompanion(for option: String, arguments: [String], report: EarlyReport?) -> Int32 {
        let message = execCompanion(for: option, arguments: arguments)
        Console.error(message)
        report?.write(exitCode: ExitCode.cannotLaunch, error: message)
        return ExitCode.cannotLaunch
    }

    /// Runs ``foundationCompanion`` in this process's place; returns only when it cannot start, with why.
    static func execCompanion(for option: String, arguments: [String]) -> String {
        let name = foundationCompanion
        guard let path = CompanionExecutable.path(name) else {
            return "\(option): cannot find this executable's directory to start \(name) from"
        }
        let error = CompanionExecutable.exec(path, arguments: arguments)
        return
            "\(option): cannot start \(path): \(error) (it is built beside sut-launch: swift build --product \(name), or scripts/build-release.sh)"
    }

    /// Runs the command line `arguments` (argv without argv[0]) with the caller's `environment`; returns the exit code.
    /// Output lost on our stdout or stderr (`> /dev/full`) makes it 74, never 0 (the run's report says so too); a
    /// reader of our own lines that went away (`| head -n1`) makes a 0 into 141, as SIGPIPE would.
    package static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        let code = command(arguments, environment: environment)
        if code == 0, let fd = StandardStreams.ownLinesUndeliveredTo {
            // As a program piped to a reader that left would die of SIGPIPE: never 0 with lines not delivered.
            let lost = ExitCode.signaled(SignalNumber.pipe)
            Console.error(
                "the reader of \(fd == 1 ? "standard output" : "standard error") went away: sut-launch's lines after that were not delivered (exit \(lost))"
            )
            return lost
        }
        guard let failure = StandardStreams.failure, code != ExitCode.ioError, StandardStreams.lostOutputOverrides(code) else {
            return code
        }
        Console.error("\(failure) (exit \(ExitCode.ioError))")
        return ExitCode.ioError
    }

    private static func command(_ arguments: [String], environment: [String: String]) -> Int32 {
        do {
            if let first = arguments.first, let subcommand = Subcommand(rawValue: first) {
                return try run(subcommand, Array(arguments.dropFirst()), environment: environment)
            }
            if let first = arguments.first { try refuseLikelyTypo(first) }
            return try runForm(arguments, environment: environment)
        } catch {
            let failure = error as? CommandFailure
            let (code, message) = describe(failure?.underlying ?? error)
            Console.error(message)
            failure?.report?.write(exitCode: code, error: message)
            return code
        }
    }

    /// Runs a subcommand with the arguments after its name.
    private static func run(_ subcommand: Subcommand, _ arguments: [String], environment: [String: String]) throws -> Int32 {
        switch subcommand {
        case .serve: return try ServeCommand.run(arguments)
        case .record: return try RecordCommand.run(arguments)
        case .check:
            Interruption.exitOnSignal()
            return try CheckCommand.run(arguments, environment: environment)
        case .test: return try TestCommand.run(arguments, environment: environment)
        case .report:
            // Ctrl-C or SIGTERM while a large run is read: 128+N at once (outputs are renamed into place, never half-written).
            Interruption.exitOnSignal()
            return try ReportCommand.run(arguments)
        case .`init`: return try InitCommand.run(arguments, environment: environment)
        case .completions: return try ShellIntegration.run(arguments)
        case .manpage:
            try refuseExtra(arguments[...], after: "manpage")
            Console.out(ShellIntegration.manPage())
            return 0
        case .help: return try help(arguments)
        }
    }

    /// The main form: parse, load what the options name, launch. A failure before the launch writes the `--report`.
    private static func runForm(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        switch try RunOptions.parse(arguments) {
        case .help:
            Console.out(HelpText.main)
            return 0
        case .version:
            Console.out("sut-launch \(SutLaunch.version)\n")
            return 0
        case .run(let options):
            let report = options.earlyReport
            let plan: RunPlan
            do {
                // Ctrl-C or SIGTERM while the stubs load: 128+N at once, nothing launched, the report saying so.
                plan = try Interruption.whileLoading(
                    { try options.plan(environment: environment) }, grace: options.killGrace ?? .seconds(5)
                ) {
                    signal in
                    let message = "interrupted by \(signalName(signal)) while the run was loading: nothing was launched"
                    Console.error(message)
                    report?.write(exitCode: ExitCode.signaled(signal), error: message, interruptedBy: signalName(signal))
                    return nil
                }
            } catch {
                if StubLoader.xmlNeedsDynamicExecutable { return runCompanion(for: xmlMatchers, arguments: arguments, report: report) }
                throw CommandFailure(error, report: report)
            }
            if StubLoader.xmlNeedsDynamicExecutable { return runCompanion(for: xmlMatchers, arguments: arguments, report: report) }
            if !Launcher.isAvailable(plan.launch.backend) {
                return runCompanion(for: "--launcher \(plan.launch.backend.rawValue)", arguments: arguments, report: report)
            }
            if plan.server?.https != nil && TLSServerContext.needsDynamicExecutable {
                return runCompanion(for: plan.server?.https?.option ?? "--https", arguments: arguments, report: report)
            }
            if let backend = options.recording.httpsBackend, TLSServerContext.needsDynamicExecutable {
                return runCompanion(for: backend, arguments: arguments, report: report)
            }
            let forwarder = SignalForwarder(grace: plan.launch.killGrace)
            // One program per process: a descendant that leaves its group and outlives its parent becomes ours, and
            // is stopped at the end (R4a-22). Not for `test` or a library caller, whose other children are not its.
            Descendants.adopt()
            return Runner.run(plan, signals: forwarder).exitCode
        }
    }

    /// The exit code and the one-line message for an error that ended parsing.
    static func describe(_ error: any Error) -> (Int32, String) {
        switch error {
        case let error as CommandFailure: describe(error.underlying)
        case let error as UsageError: (ExitCode.usage, error.message)
        case let error as InputError: (ExitCode.invalidInput, error.description)
        default: (ExitCode.usage, "\(error)")
        }
    }

    /// `help`, `help TOPIC`.
    static func help(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let word = arguments.first else {
            Console.out(HelpText.main)
            return 0
        }
        guard let topic = HelpTopic(rawValue: word) else {
            throw UsageError(.noHelpTopic(word, subcommands: HelpTopic.allCases.map(\.rawValue)))
        }
        try refuseExtra(arguments.dropFirst(), after: "help \(word)")
        Console.out(topic.text)
        return 0
    }

    /// Words after a command that takes no more are a usage error naming the first (they were ignored in silence).
    static func refuseExtra(_ extra: ArraySlice<String>, after command: String) throws(UsageError) {
        guard let first = extra.first else { return }
        throw UsageError(
            .needsOperands(
                "sut-launch \(command) takes nothing more; '\(first.prefix(80).escapingControlCharacters())' is one word too many: leave it out"
            ))
    }

    /// A first word that is not a subcommand but looks like a misspelt one is a usage error: launching
    /// whatever program of that name is in PATH would be a surprise (`sut-launch init` ran telinit).
    static func refuseLikelyTypo(_ word: String) throws(UsageError) {
        guard !word.hasPrefix("-"), !word.contains("/") else { return }
        if reservedWords.contains(word) { throw UsageError(.reservedWord(word)) }
        // One edit for short words (so head, less, yes and tee still launch), two for longer ones.
        let limit = word.count <= 4 ? 1 : 2
        let lowered = word.lowercased()
        let near = subcommands.map { ($0, Suggestion.editDistance(lowered, $0)) }.filter { $0.1 > 0 && $0.1 <= limit }
        if let (subcommand, _) = near.min(by: { $0.1 < $1.1 }) {
            throw UsageError(.unknownSubcommand(word, suggestion: subcommand))
        }
        if subcommands.contains(lowered) {
            throw UsageError(.subcommandCase(word, lowered: lowered))
        }
    }
}
