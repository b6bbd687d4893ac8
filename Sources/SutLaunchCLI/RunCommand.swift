import AutomationSupport
import AutomationHost
package import MockServer
package import ProcessEngine
import Scenarios
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The main form, `sut-launch [options] PROGRAM [ARGS...]`: its options and how they become a ``RunPlan``.
package enum RunCommand {
    static let options: [OptionSpec] = [
        OptionSpec("--flag", short: "-f", value: "key=value", help: "feature flag, sent as EPHEMERAL (key:=JSON for any JSON value)"),
        OptionSpec("--automation", short: "-a", value: "key=value", help: "automation flag, sent as AUTOMATION (key:=JSON likewise)"),
        OptionSpec("--flags-file", value: "FILE", help: "JSON file {\"featureFlags\":{}, \"automationFlags\":{}, \"env\":{}}; command-line flags override it"),
        OptionSpec("--flags-in", value: "args|env|both", help: "where flags travel: launch arguments, environment, or both (default both)"),
        OptionSpec("--entry-point", value: "NAME", help: "start the program at a named entry point (AUTOMATION entryPoint)"),
        OptionSpec("--env", short: "-e", value: "KEY=VALUE", help: "set an environment variable for the program"),
        OptionSpec("--env-file", value: "FILE", help: "read variables from a dotenv file (KEY=value, export, quotes, # comments)"),
        OptionSpec("--clear-env", help: "start from an empty environment (PATH and HOME kept) plus what is given"),
        OptionSpec("--cwd", short: "-C", value: "DIR", help: "run the program in DIR"),
        OptionSpec("--timeout", short: "-t", value: "DURATION", help: "stop the program after DURATION (500ms, 30s, 2m; 0: no timeout) and exit 124"),
        OptionSpec("--kill-grace", value: "DURATION", help: "time between SIGTERM and SIGKILL when stopping (default 5s)"),
        OptionSpec("--launcher", value: "posix-spawn|foundation", help: "how the program is started (default posix-spawn; foundation: Foundation.Process)"),
        OptionSpec("--stub", short: "-s", value: "FILE|DIR", help: "start a mock server with these stubs (native, WireMock mapping or root dir); repeatable"),
        OptionSpec("--strict", help: "fail the run (exit 4) on any request no stub matched"),
        OptionSpec("--lenient-stubs", help: "skip mappings and stub files that cannot be loaded (one warning each) instead of refusing"),
        OptionSpec("--global-response-templating", help: "template every WireMock mapping's response, as WireMock's option of that name"),
        OptionSpec("--port", short: "-p", value: "PORT", help: "mock server port (default 8080; 0 picks a free port)"),
        OptionSpec("--host", value: "ADDRESS", help: "mock server address (default 127.0.0.1)"),
        OptionSpec("--journal", value: "FILE", help: "write every request the mock server received, as JSON"),
        OptionSpec("--journal-limit", value: "N", help: "requests kept in the journal (default 10000; the oldest go first)"),
        OptionSpec("--journal-secrets", help: "keep Authorization, Cookie and Proxy-Authorization values in the journal (redacted by default)"),
        OptionSpec("--no-admin", help: "turn the mock server's /__admin API off"),
        OptionSpec("--report", value: "FILE", help: "write a JSON report: argv, env keys, flags, exit code, signal, timing, output bytes"),
        OptionSpec("--quiet", short: "-q", help: "print nothing of sut-launch's own but errors"),
        OptionSpec("--help", short: "-h", help: "show this help"),
        OptionSpec("--version", help: "show the version"),
    ]

    /// What the command line asks for.
    package enum Action: Sendable {
        case run(RunPlan)
        case help
        case version
    }

    /// Parses the main form.
    /// - Parameters:
    ///   - arguments: argv without argv[0].
    ///   - environment: the caller's environment.
    ///   - readFile: reads a named file (injected for tests).
    /// - Throws: ``UsageError`` (exit 2) for command-line mistakes, ``InputError`` (exit 3) for bad file content.
    package static func parse(
        _ arguments: [String], environment: [String: String],
        readFile: (String) throws -> String = RunCommand.readTextFile
    ) throws -> Action {
        let parsed = try ArgumentParser.parse(arguments, options: options)
        if parsed.has("--help") { return .help }
        if parsed.has("--version") { return .version }
        guard let program = parsed.positionals.first else {
            throw UsageError("no program given; usage: sut-launch [options] PROGRAM [ARGS...] (see sut-launch --help)")
        }
        // `sut-launch -q test features/` launched test(1), which exits 0: a suite that ran nothing went green.
        // A subcommand's name, or a likely typo of one, after options is refused as it is in first place.
        if !parsed.endedByDoubleDash {
            if SutLaunchCommand.subcommands.contains(program) {
                throw UsageError("'\(program)' is a sut-launch subcommand, not a program: write its options after it (sut-launch \(program) [options] ...); to launch a program named \(program), write: sut-launch [options] -- \(program)")
            }
            try SutLaunchCommand.refuseLikelyTypo(program)
        }
        try checkOutputs(parsed)
        var clearEnvironment = false, workingDirectory: String?, timeout: Duration?, killGrace = Duration.seconds(5)
        var flagsIn: WireFormat.Channel?, entryPoint: String?, launcher = LauncherBackend.posixSpawn
        var reportPath: String?, quiet = false
        var strict = false, mockPort: UInt16 = 8080, mockHost = "127.0.0.1", journalPath: String?, serverOptions = MockServer.Options()

        var fileFlags = FlagsFile()
        var flagsFileGiven = false
        if let option = parsed.last("--flags-file"), let path = option.value {
            fileFlags = try FlagsFile.parse(try read(path, option: option, readFile), file: path)
            flagsFileGiven = true
        }
        var features = FlagCollector(kind: "feature flag")
        var automations = FlagCollector(kind: "automation flag")
        var variables: [(key: String, value: String)] = fileFlags.environment.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var commandLineVariables: [(key: String, value: String)] = []
        var stubPaths: [String] = []

        for option in parsed.options {
            let value = option.value ?? ""
            switch option.long {
            case "--flag":
                try features.add(try assignment(value, option), origin: option.origin)
            case "--automation":
                try automations.add(try assignment(value, option), origin: option.origin)
            case "--env":
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    throw UsageError("\(option.spelling) '\(value)' is not KEY=VALUE (argument \(option.index))")
                }
                let (name, variable) = (String(value[..<equals]), String(value[value.index(after: equals)...]))
                if let problem = EnvironmentVariable.problem(name: name, value: variable) {
                    throw UsageError("\(option.spelling) '\(value)': \(problem) (argument \(option.index))")
                }
                // A second -e for one name silently won, where a second -f is an error; --env-file then -e
                // overriding is the documented layering and stays.
                if let earlier = parsed.values("--env").first(where: { $0.index < option.index && $0.value?.hasPrefix(name + "=") == true }) {
                    throw UsageError("environment variable \(name) is given twice: \(earlier.origin) and \(option.origin); keep one")
                }
                commandLineVariables.append((name, variable))
            case "--env-file":
                variables += try DotEnv.parse(try read(value, option: option, readFile), file: value)
            case "--clear-env":
                clearEnvironment = true
            case "--cwd":
                workingDirectory = value
            case "--timeout":
                let duration = try duration(value, option)
                timeout = duration == .zero ? nil : duration
            case "--kill-grace":
                killGrace = try duration(value, option)
            case "--flags-in":
                guard let channel = WireFormat.Channel(rawValue: value) else {
                    throw UsageError("\(option.spelling) '\(value)' is not one of args, env, both")
                }
                flagsIn = channel
            case "--entry-point":
                guard !value.isEmpty else { throw UsageError("\(option.spelling) needs a name (argument \(option.index))") }
                if let earlier = parsed.values("--automation").first(where: { $0.value?.hasPrefix(WireFormat.entryPointKey + "=") == true || $0.value?.hasPrefix(WireFormat.entryPointKey + ":=") == true }) {
                    throw UsageError("automation flag \"entryPoint\" is given twice: \(earlier.origin) and \(option.origin); keep one")
                }
                entryPoint = value
            case "--launcher":
                guard let backend = LauncherBackend(rawValue: value) else {
                    throw UsageError("\(option.spelling) '\(value)' is not one of posix-spawn, foundation (argument \(option.index))")
                }
                launcher = backend
            case "--report":
                reportPath = try outputPath(value, option)
            case "--stub":
                guard FileSystem.exists(value) else {
                    throw UsageError("\(option.spelling) \(value): no such file or directory (argument \(option.index))")
                }
                stubPaths.append(value)
            case "--strict":
                strict = true
            case "--port":
                mockPort = try port(value, option)
            case "--host":
                mockHost = value
            case "--journal":
                journalPath = try outputPath(value, option)
            case "--journal-limit":
                serverOptions.journalLimit = try NumericOptions.integer(option, in: NumericOptions.journalLimit)
            case "--journal-secrets":
                serverOptions.journalSecrets = true
            case "--no-admin":
                serverOptions.admin = false
            case "--global-response-templating":
                serverOptions.globalResponseTemplating = true
            case "--quiet":
                quiet = true
            default:
                break
            }
        }
        let flags = LaunchFlags(featureFlags: fileFlags.featureFlags.merging(features.values) { _, commandLine in commandLine },
                                automationFlags: fileFlags.automationFlags.merging(automations.values) { _, commandLine in commandLine },
                                entryPoint: entryPoint, flagsIn: flagsIn, flagsFileGiven: flagsFileGiven)
        // The program must talk to the server this run starts: a mockServerURL of the user's (a stale flags file,
        // a report's flags reused) silently sent it elsewhere while the run's checks watched an idle server.
        if !stubPaths.isEmpty, flags.automationFlags[WireFormat.mockServerURLKey] != nil {
            let origin = parsed.values("--automation").first { $0.value?.hasPrefix(WireFormat.mockServerURLKey) == true }?.origin ?? "--flags-file"
            throw UsageError("automation flag \"\(WireFormat.mockServerURLKey)\" (\(origin)) would send the program away from the mock server this run starts; leave it out: the program gets the server's URL")
        }
        var server: ServerPlan?
        if !stubPaths.isEmpty {
            let stubs = try loadStubs(stubPaths, lenient: parsed.has("--lenient-stubs"), templating: serverOptions.globalResponseTemplating)
            server = ServerPlan(stubs: stubs, host: mockHost, port: mockPort, strict: strict, options: serverOptions, journalPath: journalPath)
        }
        if journalPath != nil && stubPaths.isEmpty {
            throw UsageError("--journal needs a mock server: add --stub FILE")
        }
        let launch = LaunchPlan(program: program, arguments: Array(parsed.positionals.dropFirst()), flags: flags,
                                environment: variables + commandLineVariables, clearEnvironment: clearEnvironment,
                                callerEnvironment: environment, workingDirectory: workingDirectory, timeout: timeout,
                                killGrace: killGrace, backend: launcher)
        return .run(RunPlan(launch: launch, server: server, settings: RunSettings(reportPath: reportPath, quiet: quiet)))
    }

    /// Loads stub files, turning a stub problem into an ``InputError`` (exit 3).
    /// - Parameter lenient: skip (with one line each) mappings and files that cannot be loaded.
    /// - Parameter templating: `--global-response-templating`: template every WireMock mapping's response.
    package static func loadStubs(_ paths: [String], lenient: Bool = false, templating: Bool = false) throws(InputError) -> StubSet {
        do {
            let stubs = try StubLoader.load(paths, skip: lenient ? { Console.line("warning: skipped \($0)") } : nil)
            if templating { try stubs.templateWireMockResponses() }
            return stubs
        } catch {
            throw InputError(file: error.file, line: error.line, column: error.column, error.message)
        }
    }

    /// An output file named by an option, checked before anything launches: a missing directory or an
    /// unwritable path is a usage error naming the option.
    static func outputPath(_ value: String, _ option: ParsedOption) throws(UsageError) -> String {
        if let problem = OutputFile.problem(value) {
            throw UsageError("\(option.spelling) \(value): cannot write there: \(problem) (argument \(option.index))")
        }
        return value
    }

    /// `--report` and `--journal` once each, on files of their own: not each other, not the program, not a file
    /// the run reads.
    static func checkOutputs(_ parsed: ParsedArguments) throws(UsageError) {
        var inputs = OutputFiles.inputs(parsed, ["--stub", "--env-file", "--flags-file"])
        if let program = parsed.positionals.first, program.contains("/") { inputs.append((program, "the program \(program)")) }
        try OutputFiles.check(parsed, outputs: ["--report", "--journal"], inputs: inputs)
    }

    /// Writes the `--report` of a command line that failed before anything launched, when the option was given
    /// once, on a file of its own (``checkOutputs(_:)``).
    static func writeEarlyReport(_ arguments: [String], exitCode: Int32, error: String) {
        guard let path = ArgumentParser.lastValue(of: "--report", in: arguments, options: options),
              OutputFile.problem(path) == nil else { return }
        if let parsed = try? ArgumentParser.parse(arguments, options: options) {
            do { try checkOutputs(parsed) } catch { return }
        }
        let program = (try? ArgumentParser.parse(arguments, options: options))?.positionals.first ?? ""
        if !RunReport(notLaunched: program, exitCode: exitCode, error: error).write(to: path) {
            Console.error("--report \(path): cannot write the report")
        }
    }

    static func port(_ value: String, _ option: ParsedOption) throws(UsageError) -> UInt16 {
        try NumericOptions.port(option)
    }

    private static func assignment(_ value: String, _ option: ParsedOption) throws(UsageError) -> FlagAssignment {
        do {
            return try FlagAssignment.parse(value)
        } catch {
            throw UsageError("\(option.spelling) \(error.message) (argument \(option.index))")
        }
    }

    private static func duration(_ value: String, _ option: ParsedOption) throws(UsageError) -> Duration {
        try NumericOptions.duration(option)
    }

    private static func read(_ path: String, option: ParsedOption, _ readFile: (String) throws -> String) throws(UsageError) -> String {
        do {
            return try readFile(path)
        } catch {
            throw UsageError("\(option.spelling) \(path): cannot read the file (\(describe(error)))")
        }
    }

    /// Reads a UTF-8 text file (at most `FileSystem.readLimit` bytes).
    package static func readTextFile(_ path: String) throws -> String {
        guard let bytes = FileSystem.read(path) else { throw UnreadableFile(reason: FileSystem.unreadable(path)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why a file could not be read, as ``FileSystem/unreadable(_:)`` words it.
    struct UnreadableFile: Error {
        let reason: String
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? UnreadableFile { return error.reason }
        if let error = error as? CocoaError, error.code == .fileReadNoSuchFile { return "no such file" }
        if let error = error as? CocoaError, error.code == .fileReadNoPermission { return "permission denied" }
        return "\(error)"
    }
}
