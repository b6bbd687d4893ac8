package import AutomationHost
import AutomationSupport
package import ProcessEngine

/// The main form's command line, typed: what each option said, checked for its own mistakes, with no file read
/// and nothing created (files named here are read by ``configuration(environment:readFile:)``).
package struct RunOptions {
    /// A file an option names, with how the user named it, for messages.
    package struct NamedFile: Sendable, Hashable {
        package var path: String
        package var spelling: String
        package var index: Int
    }

    package var program = ""
    package var arguments: [String] = []
    package var featureFlags = FlagCollector(kind: "feature flag")
    package var automationFlags = FlagCollector(kind: "automation flag")
    /// Where the first `--automation mockServerURL…` stood, for the message refusing it beside `--stub`.
    package var mockServerURLOrigin: String?
    package var flagsFile: NamedFile?
    package var flagsIn: WireFormat.Channel?
    package var entryPoint: String?
    package var environment: [(key: String, value: String)] = []
    /// Where each `-e` name was given first: one look-up per option (a scan of the earlier ones was quadratic).
    private var environmentOrigins: [String: String] = [:]
    package var environmentFiles: [NamedFile] = []
    package var clearEnvironment = false
    package var workingDirectory: String?
    /// `--timeout` as given; zero means none.
    package var timeout: Duration?
    package var killGrace: Duration?
    package var launcher: LauncherBackend?
    package var stubs: [NamedFile] = []
    package var strict = false
    package var lenientStubs = false
    package var globalResponseTemplating = false
    package var port: UInt16?
    package var host: String?
    /// `--https` and its companions.
    package var https = HTTPSOptions()
    /// `--record-from`, `--proxy-unmatched` and their companions.
    package var recording = RecordingOptions()
    package var journalPath: String?
    package var journalLimit: Int?
    package var journalSecrets = false
    package var admin = true
    /// `--admin-writes`: `refuse` (nil), `allow` or `trust`.
    package var adminWrites: String?
    package var reportPath: String?
    package var quiet = false
    /// `--coverage DIR` and its companions.
    package var coverage = CoverageOptions()

    /// What a command line asks for.
    package enum Action {
        case run(RunOptions)
        case help
        case version
    }

    /// Parses the main form (`arguments` is argv without argv[0]); reads no file.
    /// - Throws: ``CommandFailure`` carrying the ``UsageError`` and the `--report` it may still write.
    package static func parse(_ arguments: [String]) throws(CommandFailure) -> Action {
        var parsed = ParsedArguments<RunOption>()
        do {
            try ArgumentParser.parse(arguments, into: &parsed)
        } catch {
            throw CommandFailure(error, report: earlyReport(parsed))
        }
        if parsed.has(.help) { return .help }
        if parsed.has(.version) { return .version }
        do {
            return .run(try RunOptions(parsed))
        } catch {
            throw CommandFailure(error, report: earlyReport(parsed))
        }
    }

    /// The reports a failed parse writes: each `--report` read, and each `--journal` its placeholder, when the outputs
    /// read so far hold.
    static func earlyReport(_ parsed: ParsedArguments<RunOption>) -> EarlyReport? {
        EarlyReport.all([
            EarlyReport.given(parsed, .report, make: { .run(path: $0, program: parsed.positionals.first ?? "") }) {
                (try? checkOutputs($0)) != nil
            },
            EarlyReport.given(parsed, .journal, make: { .placeholder(option: "--journal", path: $0) }) { (try? checkOutputs($0)) != nil },
        ])
    }

    /// The reports a failure after the parse writes: the `--report`, and the `--journal`'s placeholder.
    var earlyReport: EarlyReport? {
        EarlyReport.all(
            [reportPath.map { .run(path: $0, program: program) }, journalPath.map { .placeholder(option: "--journal", path: $0) }].map {
                EarlyReport.checked($0, outputsHold: true)
            })
    }

    /// `--report` and `--journal` once each, on files of their own: not each other, not the program, not a file
    /// the run reads, not a file the program's arguments name.
    static func checkOutputs(_ parsed: ParsedArguments<RunOption>) throws(UsageError) {
        var inputs = OutputFiles.inputs(parsed, [.stub, .envFile, .flagsFile, .httpsCertificate, .httpsKey])
        if let program = parsed.positionals.first, program.contains("/") { inputs.append((program, "the program \(program)")) }
        if parsed.has(.report) || parsed.has(.journal) {
            inputs += OutputFiles.programArgumentFiles(Array(parsed.positionals.dropFirst()), directory: parsed.last(.cwd)?.value)
        }
        try OutputFiles.check(parsed, outputs: [.report, .journal], inputs: inputs)
        // A directory the run reads whole (a --stub root: mappings/ and __files/) or writes a recording into (--into):
        // a report inside it becomes a mapping or a body of the next run.
        var trees = parsed.values(.stub).compactMap(\.value).filter(FileSystem.isDirectory).map { ($0, "--stub \($0)") }
        if let into = parsed.last(.into)?.value { trees.append((into, "--into \(into)")) }
        let outputs = [RunOption.report, .journal].flatMap { parsed.values($0) }.compactMap { option in
            option.value.map { ($0, option.origin) }
        }
        try OutputFiles.checkOutsideTrees(outputs, trees: trees)
        // The launcher writes the program's output to both of its own streams.
        try OutputFiles.checkConsole(outputs, streams: ["stdout", "stderr"])
    }

    init(_ parsed: ParsedArguments<RunOption>) throws(UsageError) {
        guard let program = parsed.positionals.first else { throw UsageError(.noProgram) }
        if let bytes = OriginalBytes.of(program) {
            throw UsageError(.notUTF8Path("the program", shown: OriginalBytes.shown(bytes), index: nil))
        }
        // `sut-launch -q test features/` launched test(1), which exits 0: a suite that ran nothing went green.
        // A subcommand's name, or a likely typo of one, after options is refused as it is in first place.
        if !parsed.endedByDoubleDash {
            if Subcommand(rawValue: program) != nil { throw UsageError(.subcommandAsProgram(program)) }
            try SutLaunchCommand.refuseLikelyTypo(program)
        }
        try Self.checkOutputs(parsed)
        self.program = program
        arguments = Array(parsed.positionals.dropFirst())
        for option in parsed.options { try apply(option, parsed) }
        try https.check()
        try recording.check()
        try recording.refuseOwnAddress(host: host, port: port)
        try recording.checkInto()
        try coverage.check()
        try Self.refuseServerOptionsWithoutServer(parsed, serverStarts: !stubs.isEmpty || recording.forwards)
        mockServerURLOrigin = parsed.values(.automation).first { $0.value?.hasPrefix(WireFormat.mockServerURLKey) == true }?.origin
    }

    /// The mock server's options do nothing without a mock server: `--strict` with no server passed a run that
    /// asked for strictness. Each is refused by the name typed, as `--journal` and `--https` are.
    private static func refuseServerOptionsWithoutServer(_ parsed: ParsedArguments<RunOption>, serverStarts: Bool) throws(UsageError) {
        guard !serverStarts else { return }
        let serverOnly: [RunOption] = [
            .strict, .lenientStubs, .globalResponseTemplating, .port, .host, .journalLimit, .journalSecrets, .noAdmin, .adminWrites,
        ]
        if let given = parsed.options.first(where: { serverOnly.contains($0.option) }) {
            throw UsageError(.serverOptionNeedsStub(given.spelling))
        }
    }

    /// Records one option; the `switch` names every case, so a new option cannot be forgotten here.
    private mutating func apply(_ option: ParsedOption<RunOption>, _ parsed: ParsedArguments<RunOption>) throws(UsageError) {
        let value = option.value ?? ""
        switch option.option {
        case .flag: try featureFlags.add(try Self.assignment(option), origin: option.origin)
        case .automation: try automationFlags.add(try Self.automationAssignment(option), origin: option.origin)
        case .flagsFile: flagsFile = NamedFile(path: value, spelling: option.spelling, index: option.index)
        case .flagsIn: flagsIn = try ChoiceOptions.channel(option)
        case .entryPoint: entryPoint = try Self.entryPoint(option, parsed)
        case .env: environment.append(try Self.variable(option, origins: &environmentOrigins))
        case .envFile: environmentFiles.append(NamedFile(path: value, spelling: option.spelling, index: option.index))
        case .clearEnv: clearEnvironment = true
        case .cwd:
            // `-C ''` named no directory: exit 125 "cannot use working directory : no such directory" did not say
            // which option, nor that the value was empty.
            guard !value.isEmpty else {
                throw UsageError("\(option.spelling) (argument \(option.index)) names no directory; give one, or leave it out to run here")
            }
            workingDirectory = value
        case .timeout: timeout = try NumericOptions.duration(option)
        case .killGrace: killGrace = try NumericOptions.duration(option)
        case .launcher: launcher = try ChoiceOptions.launcher(option)
        case .stub: stubs.append(NamedFile(path: value, spelling: option.spelling, index: option.index))
        case .strict: strict = true
        case .lenientStubs: lenientStubs = true
        case .globalResponseTemplating: globalResponseTemplating = true
        case .port: port = try NumericOptions.port(option)
        case .host: host = try ChoiceOptions.listenAddress(option)
        case .https: https.enabled = true
        case .httpsHost: try https.addHost(value, spelling: option.spelling, index: option.index)
        case .httpsCertificate: https.certificate = NamedFile(path: value, spelling: option.spelling, index: option.index)
        case .httpsKey: https.key = NamedFile(path: value, spelling: option.spelling, index: option.index)
        case .intercept: try https.addIntercepted(value, spelling: option.spelling, index: option.index)
        case .recordFrom: try recording.setBackend(value, option: option.spelling, index: option.index, recording: true)
        case .into: recording.into = value
        case .proxyUnmatched: try recording.setBackend(value, option: option.spelling, index: option.index, recording: false)
        case .recordMissing: recording.recordMissing = true
        case .keepSecrets: recording.keepSecrets = true
        case .captureHeader: try recording.addCapturedHeader(value, spelling: option.spelling)
        case .allowHost: try recording.addAllowedHost(value, spelling: option.spelling)
        case .recordInsecure: recording.insecure = true
        case .journal: journalPath = try OutputFiles.path(option)
        case .journalLimit: journalLimit = try NumericOptions.integer(option, in: NumericOptions.journalLimit)
        case .journalSecrets: journalSecrets = true
        case .noAdmin: admin = false
        case .adminWrites: adminWrites = try AdminWritesOption.mode(option)
        case .report: reportPath = try OutputFiles.path(option)
        case .quiet: quiet = true
        case .coverage: try coverage.setDirectory(value, spelling: option.spelling, index: option.index)
        case .coverageThreshold: try coverage.setThreshold(value, spelling: option.spelling, index: option.index)
        case .llvmProfdata: try coverage.setProfdata(value, spelling: option.spelling, index: option.index)
        case .help, .version: break // answered before the options are applied
        }
    }

    /// `--automation KEY=VALUE`: as a feature flag, and `entryPoint`/`mockServerURL` only as strings.
    private static func automationAssignment(_ option: ParsedOption<RunOption>) throws(UsageError) -> FlagAssignment {
        let assignment = try assignment(option)
        if let problem = LaunchFlags.automationProblem(key: assignment.key, value: assignment.value) {
            throw UsageError(.invalidFlag(option.spelling, problem: problem, index: option.index))
        }
        return assignment
    }

    private static func assignment(_ option: ParsedOption<RunOption>) throws(UsageError) -> FlagAssignment {
        // A flag travels as JSON text, which is UTF-8: bytes that are not would reach the program as U+FFFD.
        if let value = option.value, let bytes = OriginalBytes.of(value) ?? OriginalBytes.bundle(endingWith: value) {
            let shown = OriginalBytes.shown(bytes)
            let problem =
                "'\(shown)' is not UTF-8, and a flag's value travels as JSON text; "
                + "pass such bytes with -e KEY=VALUE or as an argument"
            throw UsageError(.invalidFlag(option.spelling, problem: problem, index: option.index))
        }
        do {
            return try FlagAssignment.parse(option.value ?? "")
        } catch {
            throw UsageError(.invalidFlag(option.spelling, problem: error.message, index: option.index))
        }
    }

    /// `--env KEY=VALUE`: a valid name and value, once per name on the command line (`--env-file` then `-e`
    /// overriding is the documented layering and stays).
    private static func variable(_ option: ParsedOption<RunOption>, origins: inout [String: String]) throws(UsageError) -> (
        key: String, value: String
    ) {
        let value = option.value ?? ""
        guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
            throw UsageError(.notKeyValue(option.spelling, index: option.index))
        }
        let (name, variable) = (String(value[..<equals]), String(value[value.index(after: equals)...]))
        if let problem = EnvironmentVariable.problem(name: name, value: variable) {
            throw UsageError(.invalidVariable(option.spelling, value: "\(name)=…", problem: problem, index: option.index))
        }
        // Values are left out of every error, as of the report (`environmentKeys`): they may be secrets.
        let origin = option.originHidingValue(name: name)
        if let earlier = origins[name] {
            throw UsageError(.givenTwice("environment variable \(name)", first: earlier, second: origin))
        }
        origins[name] = origin
        return (name, variable)
    }

    /// `--entry-point NAME`: not empty, and not also given as `--automation entryPoint=…`.
    private static func entryPoint(_ option: ParsedOption<RunOption>, _ parsed: ParsedArguments<RunOption>) throws(UsageError) -> String {
        let value = option.value ?? ""
        guard !value.isEmpty else { throw UsageError(.emptyName(option.spelling, index: option.index)) }
        let key = WireFormat.entryPointKey
        if let earlier = parsed.values(.automation).first(where: {
            $0.value?.hasPrefix(key + "=") == true || $0.value?.hasPrefix(key + ":=") == true
        }) {
            throw UsageError(.givenTwice("automation flag \"entryPoint\"", first: earlier.origin, second: option.origin))
        }
        return value
    }
}
