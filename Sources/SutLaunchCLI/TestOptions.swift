import AutomationSupport
import ProcessEngine
package import Scenarios

/// `test`'s command line, typed: the scenario options it sets, the files it names (read by the load step, never
/// here) and the reports it writes. Parsing reads no file and creates nothing.
package struct TestOptions {
    /// A file or directory an option names, with how the user named it, for messages.
    package struct NamedPath: Sendable, Hashable {
        package var path: String
        package var spelling: String
    }

    /// What the options set of the scenario run; the load step adds what comes from files and the environment.
    package var scenario = ScenarioOptions()
    /// `--update-snapshots` (SUT_UPDATE_SNAPSHOTS=1 is read by the load step).
    package var updateSnapshots = false
    package var shardTimings: NamedPath?
    /// `--shard auto` (total nil) or `--shard auto/N`: resolved from the CI's variables by ``ShardEnvironment``.
    package var autoShard: (total: Int?, spelling: String)?
    package var stepFiles: [NamedPath] = []
    package var artifacts: NamedPath?
    /// The feature files and directories, `FILE.feature:LINE` already split into ``ScenarioOptions/lines``.
    package var featurePaths: [String] = []
    package var junitPath: String?
    /// True when `junitPath` is Bazel's `XML_OUTPUT_FILE` (`--shard auto`), not `--junit`: messages name it.
    package var junitFromEnvironment = false
    package var junitStrict = false
    package var reportPath: String?
    package var messagesPath: String?
    /// `--html FILE`: the HTML report, rendered from the run's Messages.
    package var htmlPath: String?
    /// `--run-id ID`: what identifies the run for `report` merging shards (default: the CI's run, ``RunIdentity``).
    package var runId: String?
    /// `--write-rerun FILE`: the scenarios that did not pass, as Cucumber's rerun format.
    package var rerunPath: String?
    /// `--rerun-failed FILE`: an earlier run's rerun file, JUnit or Messages (read by the load step).
    package var rerunFailed: NamedPath?
    /// `--quarantine FILE` (read by the load step).
    package var quarantineFile: NamedPath?
    package var list = false
    package var dryRun = false
    package var allowEmpty = false
    package var quiet = false
    package var color: String?
    package var github = false
    /// `--https` and `--https-host` (a scenario's server mints its own certificate: no `--https-cert` here).
    package var https = HTTPSOptions()
    /// `--record-from URL --into DIR` and its companions: every scenario's server forwards and records.
    package var recording = RecordingOptions()
    /// `--coverage DIR` and its companions: every scenario's launches profiled, attributed per scenario.
    package var coverage = CoverageOptions()

    /// What a command line asks for.
    package enum Action {
        case run(TestOptions)
        case help
    }

    /// The report a failure before any scenario ran writes.
    var earlyReport: EarlyReport? {
        let placeholders = [("--messages", messagesPath), ("--html", htmlPath)].map { given in
            given.1.map { EarlyReport.placeholder(option: given.0, path: $0) }
        }
        return EarlyReport.all(
            ([reportPath.map { EarlyReport.test(path: $0) }, junitPath.map { .junit(path: $0) }] + placeholders).map {
                EarlyReport.checked($0, outputsHold: true)
            })
    }

    /// Parses `test`'s arguments (after `test`); reads no file.
    /// - Throws: ``CommandFailure`` carrying the ``UsageError`` and the `--report` it may still write.
    package static func parse(_ arguments: [String]) throws(CommandFailure) -> Action {
        var parsed = ParsedArguments<TestOption>()
        do {
            try ArgumentParser.parse(arguments, into: &parsed, stopAtPositional: false)
        } catch {
            throw CommandFailure(error, report: earlyReport(parsed))
        }
        if parsed.has(.help) { return .help }
        do {
            try checkOutputs(parsed)
        } catch {
            throw CommandFailure(error, report: nil)
        }
        do {
            return .run(try TestOptions(parsed))
        } catch {
            throw CommandFailure(error, report: earlyReport(parsed))
        }
    }

    /// The reports a failed parse writes: each `--report` read, when the outputs read so far hold.
    static func earlyReport(_ parsed: ParsedArguments<TestOption>) -> EarlyReport? {
        // The JSON report and the JUnit: a usage error leaves neither an earlier run's passing file; the Messages and the
        // HTML report get their placeholders.
        EarlyReport.all([
            EarlyReport.given(parsed, .report, make: { .test(path: $0) }) { (try? checkOutputs($0)) != nil },
            EarlyReport.given(parsed, .junit, make: { .junit(path: $0) }) { (try? checkOutputs($0)) != nil },
            EarlyReport.given(parsed, .messages, make: { .placeholder(option: "--messages", path: $0) }) { (try? checkOutputs($0)) != nil },
            EarlyReport.given(parsed, .html, make: { .placeholder(option: "--html", path: $0) }) { (try? checkOutputs($0)) != nil },
        ])
    }

    /// `--junit`, `--report`, `--messages` and `--html` once each, on files of their own: not each other, not a feature or
    /// steps file the run reads.
    static func checkOutputs(_ parsed: ParsedArguments<TestOption>) throws(UsageError) {
        var inputs = OutputFiles.inputs(parsed, [.steps, .quarantine])
        for argument in parsed.positionals where FileSystem.isRegularFile(argument) {
            inputs.append((argument, "the feature file \(argument)"))
        }
        try OutputFiles.check(parsed, outputs: [.junit, .report, .messages, .html, .writeRerun], inputs: inputs)
    }

    init(_ parsed: ParsedArguments<TestOption>) throws(UsageError) {
        scenario.defines = try DefineOptions.parse(parsed.values(.define))
        for option in parsed.options { try apply(option) }
        try https.check()
        try recording.check()
        try recording.checkInto()
        try coverage.check()
        scenario.recording = recording.scenarioRecording
        scenario.forwardingHosts = recording.allowedHosts
        // test takes names only, no certificate
        scenario.https = https.needsTLS ? HTTPSPlan(hosts: https.hosts, intercept: https.intercept, listensWithTLS: https.enabled) : nil
        guard !parsed.positionals.isEmpty else { throw UsageError(.needsOperands("test needs feature files: sut-launch test features/")) }
        // `login.feature:19` selects the scenario (or Examples row) at that line, as Cucumber does.
        for argument in parsed.positionals {
            if let bytes = OriginalBytes.of(argument) {
                throw UsageError(.notUTF8Path("the feature path", shown: OriginalBytes.shown(bytes), index: nil))
            }
            let (path, lines) = try Self.location(argument)
            featurePaths.append(path)
            for line in lines { scenario.lines[path, default: []].insert(line) }
        }
    }

    /// A feature operand: `FILE`, `FILE:LINE`, or Cucumber's `FILE:LINE:LINE…`, the form a rerun file holds (R10B-8: it
    /// was "no such feature file"). Each line is bare digits as every number of the command line (`:02` was taken as 2).
    /// - Throws: ``UsageError`` for a trailing `:DIGITS` that is no line number, naming the operand.
    static func location(_ argument: String) throws(UsageError) -> (path: String, lines: [Int]) {
        var path = Substring(argument)
        var lines: [Int] = []
        while let colon = path.lastIndex(of: ":") {
            let digits = path[path.index(after: colon)...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { break }
            guard let line = BoundedNumber.written(digits, in: NumericOptions.featureLine) else {
                throw UsageError(
                    "the feature path \(argument.prefix(300).escapingControlCharacters()): '\(digits.prefix(20))' is not a line from 1 to "
                        + "\(NumericOptions.featureLine.upperBound) (bare digits, no leading zero); write FILE.feature:LINE[:LINE…]")
            }
            lines.insert(line, at: 0)
            path = path[..<colon]
        }
        return (String(path), lines)
    }

    /// Records one option; the `switch` names every case, so a new option cannot be forgotten here.
    private mutating func apply(_ option: ParsedOption<TestOption>) throws(UsageError) {
        let value = option.value ?? ""
        switch option.option {
        case .tags:
            let expression = try TagExpression.parse(value)
            scenario.tags = scenario.tags.map { .and($0, expression) } ?? expression
        case .jobs: scenario.jobs = try NumericOptions.integer(option, in: NumericOptions.jobs)
        case .shard:
            if let total = try ShardEnvironment.parse(value, spelling: option.spelling) {
                autoShard = (total, option.spelling)
            } else {
                scenario.shard = try NumericOptions.shard(option)
            }
        case .shardTimings: shardTimings = try Self.named(option)
        case .steps: stepFiles.append(try Self.named(option))
        case .define: break // all of them at once, before the others
        case .flagsIn: scenario.flagsIn = try ChoiceOptions.channel(option)
        case .https: https.enabled = true
        case .httpsHost: try https.addHost(value, spelling: option.spelling, index: option.index)
        case .intercept: try https.addIntercepted(value, spelling: option.spelling, index: option.index)
        case .recordFrom: try recording.setBackend(value, option: option.spelling, index: option.index, recording: true)
        case .into: recording.into = value
        case .proxyUnmatched: try recording.setBackend(value, option: option.spelling, index: option.index, recording: false)
        case .recordMissing: recording.recordMissing = true
        case .keepSecrets: recording.keepSecrets = true
        case .captureHeader: try recording.addCapturedHeader(value, spelling: option.spelling)
        case .allowHost: try recording.addAllowedHost(value, spelling: option.spelling)
        case .recordInsecure: recording.insecure = true
        case .adminWrites: scenario.adminWrites = AdminWritesOption.mode(named: try AdminWritesOption.mode(option))
        case .stepTimeout: scenario.stepTimeout = try NumericOptions.duration(option)
        case .scenarioTimeout: scenario.scenarioTimeout = try NumericOptions.duration(option)
        case .junit: junitPath = try OutputFiles.path(option)
        case .junitStrict: junitStrict = true
        case .report: reportPath = try OutputFiles.path(option)
        case .messages: messagesPath = try OutputFiles.path(option)
        case .html: htmlPath = try OutputFiles.path(option)
        case .runId:
            if let problem = RunIdentity.problem(value) {
                throw UsageError(
                    .needsOperands(
                        "\(option.spelling): \(problem); it takes 1 to \(RunIdentity.limit) printable characters: --run-id \"$GITHUB_RUN_ID\""
                    ))
            }
            runId = value
        case .updateSnapshots: updateSnapshots = true
        case .artifacts: artifacts = try Self.named(option)
        case .list: list = true
        case .name:
            do { _ = try RegexBox(value) } catch { throw UsageError(.invalidPattern(option.spelling, value: value, problem: "\(error)")) }
            scenario.namePattern = scenario.namePattern.map { "(?:\($0))|(?:\(value))" } ?? value
        case .failFast: scenario.failFast = true
        case .retries: scenario.retries = try NumericOptions.integer(option, in: ScenarioRunner.retryLimit)
        case .failOnFlaky: scenario.failOnFlaky = true
        case .quarantine: quarantineFile = try Self.named(option)
        case .rerunFailed: rerunFailed = try Self.named(option)
        case .writeRerun: rerunPath = try OutputFiles.path(option)
        case .redact:
            do { scenario.redactions.append(try Redaction(value, source: option.spelling)) } catch {
                throw UsageError(.invalidPattern(option.spelling, value: value, problem: error.message))
            }
        case .dryRun: dryRun = true
        case .color: color = try ChoiceOptions.word(option, in: ["auto", "always", "never"])
        case .format: github = try ChoiceOptions.word(option, in: ["plain", "github"]) == "github"
        case .allowEmpty: allowEmpty = true
        case .quiet: quiet = true
        case .coverage: try coverage.setDirectory(value, spelling: option.spelling, index: option.index)
        case .coverageThreshold: try coverage.setThreshold(value, spelling: option.spelling, index: option.index)
        case .llvmProfdata: try coverage.setProfdata(value, spelling: option.spelling, index: option.index)
        case .help: break // answered before the options are applied
        }
    }

    /// A file or directory an option names; an empty name is a usage error naming the option (`--artifacts ''` was
    /// taken), as `-C ''` is.
    private static func named(_ option: ParsedOption<TestOption>) throws(UsageError) -> NamedPath {
        guard let value = option.value, !value.isEmpty else { throw UsageError(.emptyName(option.spelling, index: option.index)) }
        return NamedPath(path: value, spelling: option.spelling)
    }
}
