import AutomationSupport
import MockServer
import ProcessEngine
import Scenarios

/// The options of `sut-launch check [options] FILES...`.
package enum CheckOption: CommandOption {
    case help, messages, define

    package var repeats: Bool {
        switch self {
        case .define: true
        case .help, .messages: false
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        case .messages: OptionSpec("--messages", value: "FILE", help: "write every feature file as Cucumber Messages")
        case .define: OptionSpec("--define", short: "-D", value: "NAME=VALUE", help: "a value for ${NAME} in steps, as for test")
        }
    }
}

/// `sut-launch check FILES...`: validates stub files, WireMock mappings and feature files (syntax, durations,
/// and every step in the catalog); exit 0 when all are valid, 3 otherwise. It accepts what `test` and
/// `serve` accept (files and directories) and refuses what they refuse.
package enum CheckCommand {
    /// The text of `sut-launch check --help`.
    package static let help = """
        USAGE:
          sut-launch check [--messages FILE] [-D NAME=VALUE]... FILES...

        Validates stub files, WireMock mappings (files or root directories with mappings/) and .feature files,
        or directories of them; exit 3 on the first problem in each file. --messages FILE writes every feature
        file as Cucumber Messages (source, gherkinDocument, pickle, or parseError), undefined steps or not.
        A ${NAME} in a step must be defined (-D/--define as for test, or the environment) or be one the
        scenario's program gets (SUT_MOCK_SERVER_URL, SUT_CONTROL_URL, SUT_UNDER_TEST, SUT_EPHEMERAL, SUT_AUTOMATION).

        """

    /// Runs `check` with the arguments after it; returns the exit code.
    package static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        var parsed = ParsedArguments<CheckOption>()
        try ArgumentParser.parse(arguments, into: &parsed, stopAtPositional: false)
        let defines = try DefineOptions.parse(parsed.values(.define))
        try OutputFiles.check(parsed, outputs: [.messages], inputs: parsed.positionals.map { ($0, "the feature file \($0)") })
        let messagesPath = try parsed.last(.messages).map { option throws(UsageError) in try OutputFiles.path(option) }
        var sources: [ScenarioLint.Source] = [] // every feature file as read, for --messages
        if parsed.has(.help) {
            Console.out(help)
            return 0
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError(.needsOperands("check needs files: sut-launch check routes.json mappings/ features/"))
        }
        // A static executable cannot load libxml2: files that name XML matchers are checked by the companion.
        if SharedLibrary.inStaticExecutable && XMLStubScan.mentionsXML(parsed.positionals) {
            Console.error(SutLaunchCommand.execCompanion(for: SutLaunchCommand.xmlMatchers, arguments: ["check"] + arguments))
        }
        if let messagesPath {
            try checkOutput(
                messagesPath, spelling: parsed.last(.messages)?.spelling ?? "--messages", operands: parsed.positionals,
                defines: defines, environment: environment)
        }
        var failed = false
        for path in parsed.positionals {
            guard FileSystem.exists(path) else { throw UsageError(.noSuchPath(path, kind: "file or directory")) }
            var features: [String] = []
            var stubs = false
            if FileSystem.isDirectory(path) {
                features = try TestCommand.featureFiles([path])
                // Step files (`*.steps.json`) beside the features are step files, as test reads them: not stubs.
                stubs =
                    FileSystem.isDirectory(path + "/mappings")
                    || FileSystem.list(path).contains { $0.hasSuffix(".json") && !$0.hasSuffix(".steps.json") }
                // A mappings/ directory named itself: its .json files may all sit in subdirectories, which serve reads.
                if features.isEmpty && !stubs {
                    stubs = (try? DirectoryWalk.files(under: path) { $0.hasSuffix(".json") })?.isEmpty == false
                }
                if features.isEmpty && !stubs {
                    Console.error("\(path): no .feature files, .json stub files or mappings/ directory here")
                    failed = true
                }
            } else if path.hasSuffix(".feature") {
                features = [path]
            } else {
                stubs = true
            }
            let stepFiles = UserSteps.files(near: features)
            let (userSteps, loadProblems) = UserSteps.load(stepFiles)
            // Hooks and redactions are refused by check as test refuses them (exit 3), never passed here and failed there.
            let stepProblems =
                UserSteps.unlistedDirectories(near: features) + loadProblems + UserSteps.hooks(stepFiles).problems
                + UserSteps.redactions(stepFiles).problems
            for problem in stepProblems { Console.error(problem) }
            if !stepProblems.isEmpty { failed = true }
            // A refused step file fails every feature beside it: no "ok" for them (exit 3 with ok printed read as a pass).
            for feature in features
            where !checkFeature(
                feature, userSteps: userSteps, variables: (defines, environment), sources: &sources, stepsRefused: !stepProblems.isEmpty)
            {
                failed = true
            }
            if stubs && !checkStubs(path) { failed = true }
        }
        if let messagesPath, !ScenarioLint.messages(sources).write(to: messagesPath) { return ExitCode.ioError }
        return failed ? ExitCode.invalidInput : 0
    }

    /// `--messages` may not name a file the check reads, as `test` refuses it (exit 2 naming both, before anything is
    /// read): a feature or step file, a stub or fixture a scenario names, any file under a directory operand.
    static func checkOutput(
        _ path: String, spelling: String, operands: [String], defines: [String: String], environment: [String: String]
    ) throws(UsageError) {
        guard FileSystem.identity(path) != nil else { return } // a file that does not exist yet is no input
        let directories = operands.filter(FileSystem.isDirectory)
        let featureFiles = ((try? TestCommand.featureFiles(directories)) ?? []) + operands.filter { $0.hasSuffix(".feature") }
        let pickles = ScenarioLint.loadWithSources(featureFiles, printingWarnings: false).pickles
        var found = TestReadFiles.found(
            featurePaths: operands, defines: defines, featureFiles: featureFiles,
            steps: TestReadFiles.namedSteps(pickles, defines: defines, environment: environment),
            environment: environment)
        // check's directory operands are stub roots too: every file under them is read.
        found += directories.map { ($0, "under the directory \($0)", false) }
        try TestReadFiles.check([(path, "\(spelling) \(path)")], found: found)
    }

    static func checkStubs(_ path: String) -> Bool {
        do {
            let stubs = try StubLoader.load(path)
            for notice in stubs.notices { Console.line("note: \(notice)".escapingControlCharacters()) }
            if let root = stubs.emptyRoots.first {
                Console.error("\(root): \(RunCommand.emptyRootMessage)")
                return false
            }
            Console.out("ok: \(path.escapingControlCharacters()): \(stubs.count) route\(stubs.count == 1 ? "" : "s")\n")
            return true
        } catch {
            Console.error("\(error)")
            return false
        }
    }

    /// Parses a feature file and checks its durations and that every step is in the catalog.
    /// Checks one feature file and adds it, as read, to `sources`.
    static func checkFeature(
        _ path: String, userSteps: [UserStep], variables: (defines: [String: String], environment: [String: String]),
        sources: inout [ScenarioLint.Source], stepsRefused: Bool = false
    ) -> Bool {
        let (pickles, loadProblems, read) = ScenarioLint.loadWithSources([path])
        sources += read
        var problems =
            loadProblems + ScenarioLint.undefinedSteps(pickles, userSteps: userSteps)
            + ScenarioLint.ambiguousSteps(pickles, userSteps: userSteps)
            + StepVariables.problems(pickles, defines: variables.defines, environment: variables.environment)
        // What the run would find in the suite's own inputs before launching: stub files, fixture directories, a
        // program's path (--dry-run also checks PATH and -D PROGRAM, which belong to the run).
        if problems.isEmpty {
            problems += ScenarioPreflight.problems(
                pickles, defines: variables.defines, environment: variables.environment, runsHere: false)
        }
        for problem in problems { Console.error(problem) }
        if problems.isEmpty && !stepsRefused {
            Console.out("ok: \(path.escapingControlCharacters()): \(pickles.count) scenario\(pickles.count == 1 ? "" : "s")\n")
        }
        return problems.isEmpty
    }
}
