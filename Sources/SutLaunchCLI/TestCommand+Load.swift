import AutomationSupport
import ProcessEngine
import Scenarios

/// Loading the suite. Everything an output check needs that paths and the files' text can answer comes first, then
/// the placeholders (``holdOutputs(_:environment:reports:rerun:)``), and only then are the feature files parsed: for a
/// large suite that takes seconds (a 20,000-row outline, 3.5 s), and a run killed in that window left the previous
/// run's reports whole and green.
extension TestCommand {
    /// The step files' entries (read, their patterns not yet compiled), with what reading them, their hooks and
    /// redactions found wrong.
    struct StepFiles {
        var entries: [UserSteps.Entry]
        var problems: [String]
        var commands: [(path: String, origin: String)]
    }

    /// Reads what the options name: `--shard-timings`, the step files' entries, then (placeholders written) the step
    /// files' patterns (compiled and compared: seconds for thousands) and the feature files;
    /// `--artifacts` is made last, once no input can be in it. A feature or step problem ends the run here (exit 3, in
    /// every report).
    static func load(_ options: TestOptions, environment: [String: String], reports: ScenarioReports) throws -> Stage<Suite> {
        var scenario = try setUp(options, environment: environment)
        let (files, firstSpelling) = try uniqueFeatureFiles(options.featurePaths)
        // `x.feature:3 ./x.feature:9`: the lines of every spelling select in the one file kept.
        scenario.lines = Dictionary(
            scenario.lines.map { (firstSpelling[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { $0.union($1) })
        let stepFiles = try readStepFiles(options, featureFiles: files, environment: environment, into: &scenario)
        // An output on a file the run reads is refused before anything is written, and writes no report (not even
        // --report): here from the paths and the feature files' text, before they are parsed.
        let textSteps = TestReadFiles.namedSteps(inTextOf: files)
        try checkOutputs(options, files: files, steps: textSteps, stepFiles, environment)
        // A path filled from an outline's row or a step-set `${NAME}` is known only once the files are parsed: then they
        // are parsed first, and every output checked against what the scenarios read before anything is written.
        var parsed: (pickles: [Pickle], problems: [String], sources: [ScenarioLint.Source])?
        if TestReadFiles.needsParsedSteps(files, textSteps: textSteps, defines: options.scenario.defines) {
            reports.holdUntilChecked() // a signal while they parse writes nothing over what may be an input
            let loaded = ScenarioLint.loadWithSources(files)
            try checkOutputs(options, files: files, steps: parsedSteps(loaded.pickles, options, environment), stepFiles, environment)
            parsed = loaded
        }
        // -D PROGRAM is the program of every scenario that names none: one that cannot start is a usage error now,
        // not a "could not run" in each scenario.
        if let program = options.scenario.defines["PROGRAM"], !options.list,
            let problem = ProgramCheck.problem(program, path: environment["PATH"])
        {
            throw UsageError(.needsOperands("-D PROGRAM=\(program.escapingControlCharacters()): \(problem.escapingControlCharacters())"))
        }
        // `--rerun-failed` is read before its file can be replaced by `--write-rerun`'s placeholder (which keeps its list).
        let rerun = options.rerunFailed.flatMap { FileSystem.read($0.path) }
        if let code = holdOutputs(options, environment: environment, reports: reports, rerun: rerun) { return .finished(code) }
        // --coverage DIR's reports of an earlier run go now too, not once the suite has loaded (--list and --dry-run
        // launch nothing and leave DIR as it is).
        if !options.list && !options.dryRun { options.coverage.removeEarlierReports() }
        let (userSteps, stepProblems) = UserSteps.compile(stepFiles.entries)
        var (pickles, problems, sources) = parsed ?? ScenarioLint.loadWithSources(files)
        // Checked again on the parsed scenarios, before anything runs (a safety net: what the text left unknown was
        // parsed and checked before the placeholders).
        if parsed == nil {
            try checkOutputs(options, files: files, steps: parsedSteps(pickles, options, environment), stepFiles, environment)
        }
        // --messages: every file's document and pickles (or parse error) now, the results as the run ends; written
        // on every way out after loading, so a run that fails early still leaves its file. Built only when asked
        // for: for 1,000 files it is most of what `test --list` costs (1.05 s instead of 0.3 s).
        if options.messagesPath != nil || options.htmlPath != nil {
            reports.configureMessages(
                path: options.messagesPath, envelopes: ScenarioLint.messages(sources), startedAtMs: WallClock.milliseconds())
        }
        problems += stepProblems + stepFiles.problems
        reports.setHooks(scenario.hooks)
        problems += StepVariables.problems(pickles, defines: scenario.defines, environment: environment)
        problems += ScenarioLint.ambiguousSteps(pickles, userSteps: userSteps)
        scenario.userSteps = userSteps
        reports.setUserSteps(userSteps)
        if !problems.isEmpty {
            for problem in problems { Console.error(problem) }
            return .finished(
                reports.write(
                    [ScenarioResult.loadError(problems)], exitCode: ExitCode.invalidInput, error: problems.joined(separator: "\n")))
        }
        try readRerunAndQuarantine(options, rerun: rerun, pickles: pickles, into: &scenario)
        try makeArtifacts(options, into: &scenario)
        // --list and --dry-run launch nothing: DIR is left as it is (no directory made, no old profile removed).
        if !options.list && !options.dryRun {
            try options.recording.lockInto() // one run per recording root: its scenarios' servers share the lock
            scenario.coverage = try options.coverage.plan(environment: environment)?.session
        }
        return .next(Suite(pickles: pickles, scenario: scenario))
    }

    /// The steps of `pickles` that may name an input, with the variables their scenario's steps set.
    static func parsedSteps(_ pickles: [Pickle], _ options: TestOptions, _ environment: [String: String]) -> [TestReadFiles.NamedStep] {
        TestReadFiles.namedSteps(pickles, defines: options.scenario.defines, environment: environment)
    }

    /// The step files found beside the feature files and named by `--steps`, read: their entries (patterns compiled
    /// later, once the placeholders are written), hooks and redactions set in `scenario`, and the scripts they run
    /// (inputs an output may not name).
    static func readStepFiles(
        _ options: TestOptions, featureFiles files: [String], environment: [String: String], into scenario: inout ScenarioOptions
    ) throws(UsageError) -> StepFiles {
        for file in options.stepFiles where !FileSystem.isRegularFile(file.path) {
            let reason = FileSystem.exists(file.path) ? FileSystem.unreadable(file.path) : "no such step file"
            throw UsageError(.unreadableStepFile(file.spelling, path: file.path, reason: reason))
        }
        let stepFiles = UserSteps.files(near: files) + options.stepFiles.map(\.path)
        var seenStepFiles: Set<String> = []
        let uniqueStepFiles = stepFiles.filter { seenStepFiles.insert(FileSystem.realPath($0) ?? $0).inserted }
        let entries = UserSteps.read(uniqueStepFiles)
        var problems = UserSteps.unlistedDirectories(near: files)
        let (fileRedactions, redactionProblems) = UserSteps.redactions(uniqueStepFiles)
        problems += redactionProblems
        scenario.redactions += fileRedactions
        let (fileHooks, hookProblems) = UserSteps.hooks(uniqueStepFiles)
        problems += hookProblems
        scenario.hooks += fileHooks
        let commands = TestReadFiles.commands(
            steps: entries, hooks: scenario.hooks, defines: scenario.defines, environment: environment)
        return StepFiles(entries: entries, problems: problems, commands: commands)
    }

    /// Refuses an output over an input (a feature, step, stub or fixture file, a script a step runs) and an
    /// `--artifacts` or `--coverage` directory among the inputs: exit 2, no report written, nothing made.
    static func checkOutputs(
        _ options: TestOptions, files: [String], steps: [TestReadFiles.NamedStep], _ stepFiles: StepFiles, _ environment: [String: String]
    ) throws(CommandFailure) {
        do {
            try TestReadFiles.check(options, featureFiles: files, steps: steps, environment: environment)
            try TestReadFiles.checkCommands(
                options, featureFiles: files, steps: steps, commands: stepFiles.commands, environment: environment)
        } catch {
            throw CommandFailure(error, report: nil)
        }
    }

    /// The scenario options the command line and the environment set, and `--shard-timings` read.
    static func setUp(_ options: TestOptions, environment: [String: String]) throws -> ScenarioOptions {
        var scenario = options.scenario
        scenario.environment = environment
        scenario.updateSnapshots =
            options.updateSnapshots
            || ["1", "true", "yes"].contains(environment["SUT_UPDATE_SNAPSHOTS"]?.lowercased() ?? "")
        if let file = options.shardTimings {
            guard let bytes = FileSystem.read(file.path) else {
                throw UsageError(.cannotRead(file.spelling, path: file.path, reason: FileSystem.unreadable(file.path)))
            }
            guard let timings = try Sharding.timings(from: bytes, file: file.path) else {
                throw UsageError(.notShardTimings(file.spelling, path: file.path))
            }
            scenario.shardTimings = timings
        }
        return scenario
    }

    /// `--artifacts DIR`: made when missing and checked writable, once it is known to hold no input and to be inside
    /// none (``TestReadFiles/checkArtifacts(_:inputs:)``): a refused DIR is never made.
    static func makeArtifacts(_ options: TestOptions, into scenario: inout ScenarioOptions) throws(UsageError) {
        guard let directory = options.artifacts else { return }
        do { _ = try RootedDirectory(directory.path, create: true) } catch {
            throw UsageError(.cannotWrite(directory.spelling, path: directory.path, problem: "\(error)", index: nil))
        }
        if let problem = OutputFile.problem(directory.path + "/artifact") {
            throw UsageError(.cannotWrite(directory.spelling, path: directory.path, problem: problem, index: nil))
        }
        ScenarioArtifacts.claim(directory.path) // staging directories of a killed run swept; held while this one runs
        scenario.artifactsDirectory = directory.path
    }
}
