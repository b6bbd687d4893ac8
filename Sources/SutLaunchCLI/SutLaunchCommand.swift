import AutomationSupport
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
    static let subcommands = ["serve", "check", "test", "init", "help", "completions", "manpage"]
    /// Words kept for subcommands to come; launching a program of that name needs `--`.
    static let reservedWords: [String] = []

    /// Runs the command line and returns sut-launch's exit code. Signals must be blocked in this process already.
    /// - Parameters:
    ///   - arguments: argv without argv[0].
    ///   - environment: the caller's environment.
    /// The executable that has the Foundation.Process launcher linked in, installed next to sut-launch.
    static let foundationCompanion = "sut-launch-foundation"

    /// `--launcher foundation` in a sut-launch built without Foundation: the same command line, run by
    /// ``foundationCompanion``. Returns only when that cannot start (exit 125, with the report).
    private static func runCompanion(for configuration: RunConfiguration, arguments: [String]) -> Int32 {
        let name = foundationCompanion
        let message: String
        if let path = CompanionExecutable.path(name) {
            let error = CompanionExecutable.exec(path, arguments: arguments)
            message = "--launcher \(configuration.launcher.rawValue): cannot start \(path): \(error) (it is built beside sut-launch: swift build --product \(name), or scripts/build-release.sh)"
        } else {
            message = "--launcher \(configuration.launcher.rawValue): cannot find this executable's directory to start \(name) from"
        }
        Console.error(message)
        RunCommand.writeEarlyReport(arguments, exitCode: ExitCode.cannotLaunch, error: message)
        return ExitCode.cannotLaunch
    }

    /// Runs the command line `arguments` (argv without argv[0]) with the caller's `environment`; returns the exit code.
    /// Output lost on our stdout or stderr (`> /dev/full`) makes it 74, never 0 (the run's report says so too).
    package static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        let code = command(arguments, environment: environment)
        guard let failure = StandardStreams.failure, code != ExitCode.ioError else { return code }
        Console.error("\(failure) (exit \(ExitCode.ioError))")
        return ExitCode.ioError
    }

    private static func command(_ arguments: [String], environment: [String: String]) -> Int32 {
        let first = arguments.first
        do {
            switch first {
            case "serve": return try ServeCommand.run(Array(arguments.dropFirst()))
            case "check":
                Interruption.exitOnSignal()
                return try CheckCommand.run(Array(arguments.dropFirst()), environment: environment)
            case "test": return try TestCommand.run(Array(arguments.dropFirst()), environment: environment)
            case "init": return try InitCommand.run(Array(arguments.dropFirst()))
            case "completions": return try ShellIntegration.run(Array(arguments.dropFirst()))
            case "manpage":
                Console.out(ShellIntegration.manPage())
                return 0
            case "help": return try help(Array(arguments.dropFirst()))
            default: break
            }
            if let first { try refuseLikelyTypo(first) }
            switch try RunCommand.parse(arguments, environment: environment) {
            case .help:
                Console.out(HelpText.main)
                return 0
            case .version:
                Console.out("sut-launch \(SutLaunch.version)\n")
                return 0
            case .run(let configuration):
                if !Launcher.isAvailable(configuration.launcher) { return runCompanion(for: configuration, arguments: arguments) }
                let forwarder = SignalForwarder(grace: configuration.killGrace)
                return Runner.run(configuration, signals: forwarder).exitCode
            }
        } catch {
            let (code, message) = describe(error)
            Console.error(message)
            if first == "test" {
                TestCommand.writeEarlyReport(Array(arguments.dropFirst()), exitCode: code, error: message)
            } else if !["serve", "check", "help", "init", "completions", "manpage"].contains(first) {
                RunCommand.writeEarlyReport(arguments, exitCode: code, error: message)
            }
            return code
        }
    }

    /// The exit code and the one-line message for an error that ended parsing.
    static func describe(_ error: any Error) -> (Int32, String) {
        switch error {
        case let error as UsageError: (ExitCode.usage, error.message)
        case let error as InputError: (ExitCode.invalidInput, error.description)
        default: (ExitCode.usage, "\(error)")
        }
    }

    /// `help`, `help SUBCOMMAND`.
    static func help(_ arguments: [String]) throws(UsageError) -> Int32 {
        switch arguments.first {
        case nil: Console.out(HelpText.main)
        case "serve": Console.out(ServeCommand.help)
        case "check": Console.out(CheckCommand.help)
        case "test": Console.out(TestCommand.help)
        case "init": Console.out(InitCommand.help)
        case "steps": Console.out(TestCommand.steps)
        case "help": Console.out("USAGE:\n  sut-launch help [serve|check|test|init|steps]\n")
        case let topic?:
            throw UsageError("no help topic '\(topic)'\(Suggestion.didYouMean(topic, among: subcommands, quote: "'", otherwise: "; topics: serve, check, test, init, steps"))")
        }
        return 0
    }

    /// A first word that is not a subcommand but looks like a misspelt one is a usage error: launching
    /// whatever program of that name is in PATH would be a surprise (`sut-launch init` ran telinit).
    static func refuseLikelyTypo(_ word: String) throws(UsageError) {
        guard !word.hasPrefix("-"), !word.contains("/") else { return }
        let escape = "; to launch a program named \(word), write: sut-launch -- \(word)"
        if reservedWords.contains(word) {
            throw UsageError("'\(word)' is reserved for a sut-launch subcommand\(escape)")
        }
        // One edit for short words (so head, less, yes and tee still launch), two for longer ones.
        let limit = word.count <= 4 ? 1 : 2
        let lowered = word.lowercased()
        let near = subcommands.map { ($0, Suggestion.editDistance(lowered, $0)) }.filter { $0.1 > 0 && $0.1 <= limit }
        if let (subcommand, _) = near.min(by: { $0.1 < $1.1 }) {
            throw UsageError("unknown subcommand '\(word)'; did you mean 'sut-launch \(subcommand)'?\(escape)")
        }
        if subcommands.contains(lowered) {
            throw UsageError("unknown subcommand '\(word)'; subcommands are lower case: 'sut-launch \(lowered)'\(escape)")
        }
    }
}
