import AutomationSupport
import AutomationHost
import ProcessEngine
import Scenarios
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `sut-launch test [options] FEATURES...`: runs Gherkin scenarios; exit 0 all passed, 1 any failed,
/// 2 usage error, 3 a feature file does not parse.
package enum TestCommand {
    static let options: [OptionSpec] = [
        OptionSpec("--tags", value: "EXPR", help: "run scenarios whose tags match: \"@smoke and not @slow\""),
        OptionSpec("--jobs", short: "-j", value: "N", help: "run N scenarios at once (default 1)"),
        OptionSpec("--shard", value: "K/N", help: "run the K-th of N stable shares (for a CI matrix)"),
        OptionSpec("--shard-timings", value: "FILE", help: "balance shards by the times in a JUnit or JSON report of an earlier run"),
        OptionSpec("--steps", value: "FILE", help: "steps defined as commands (JSON), besides the *.steps.json found next to the features"),
        OptionSpec("--define", short: "-D", value: "NAME=VALUE", help: "a value for ${NAME} in steps (NAME: letters, digits, _; once each; VALUE may be empty); PROGRAM=path is the default program"),
        OptionSpec("--flags-in", value: "args|env|both", help: "where flags travel (default: both when a scenario sets flags, env otherwise)"),
        OptionSpec("--step-timeout", value: "DURATION", help: "how long a waiting step waits (default 2s)"),
        OptionSpec("--scenario-timeout", value: "DURATION", help: "how long a scenario may take (default 60s; tag @timeout=10s overrides)"),
        OptionSpec("--junit", value: "FILE", help: "write JUnit XML"),
        OptionSpec("--junit-strict", help: "JUnit without file/line attributes: valid against the strict Jenkins/Ant schema"),
        OptionSpec("--report", value: "FILE", help: "write a JSON report"),
        OptionSpec("--messages", value: "FILE", help: "write Cucumber Messages (NDJSON: documents, pickles, results) for report tools"),
        OptionSpec("--update-snapshots", help: "write the snapshots the run compares (also SUT_UPDATE_SNAPSHOTS=1; never when CI is set)"),
        OptionSpec("--artifacts", value: "DIR", help: "failed scenarios leave outputs, commands, journal and their directory in DIR"),
        OptionSpec("--list", help: "list the selected scenarios, run nothing"),
        OptionSpec("--name", value: "REGEX", help: "run scenarios whose name matches (FILE.feature:LINE selects by line)"),
        OptionSpec("--fail-fast", help: "start no scenario after the first that fails"),
        OptionSpec("--dry-run", help: "load, select and resolve every step; launch nothing (exit 1 on an undefined step)"),
        OptionSpec("--color", value: "auto|always|never", help: "colour diffs: auto (a terminal without NO_COLOR or TERM=dumb), always, never"),
        OptionSpec("--format", value: "plain|github", help: "github: failures also as GitHub Actions annotations, and a summary in $GITHUB_STEP_SUMMARY"),
        OptionSpec("--allow-empty", help: "pass when no scenario is selected (otherwise exit 5)"),
        OptionSpec("--quiet", short: "-q", help: "print failures and the summary only"),
        OptionSpec("--help", short: "-h", help: "show this help"),
    ]

    /// The text of `sut-launch test --help`.
    package static var help: String {
        var text = "USAGE:\n  sut-launch test [options] FEATURES...   (files, or directories searched for *.feature)\n\nOPTIONS:\n"
        text += OptionSpec.helpLines(options)
        text += "\nThe steps: sut-launch help steps\n"
        return text
    }

    /// Every step of the catalog with its example (`sut-launch help steps`), after the rules for paths.
    package static var steps: String {
        StepCatalog.pathRules + "\n" + StepNumbers.rules + "\n" + StepText.rules + "\nSTEPS:\n"
            + StepCatalog.all.map { "  " + $0.example.replacingOccurrences(of: "\n", with: "\n    ") }.joined(separator: "\n") + "\n"
    }

    /// Runs `test` with the arguments after it; returns the exit code (``ExitCode``).
    package static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        // SIGINT/SIGTERM/SIGHUP at any moment: stop the scenarios' programs, write the reports with every
        // finished scenario and the running ones as interrupted, exit 128+N.
        let reports = ScenarioReports()
        Interruption.exitOnSignal { received in
            reports.interrupt()
            GitHubOutput.end()
            Console.line("interrupted by \(signalName(received)); stopping the scenarios' programs")
            ScenarioRunner.stopAll(grace: .seconds(1))
            reports.write(exitCode: ExitCode.signaled(received), interruption: "interrupted by \(signalName(received))")
            return nil
        }
        let parsed = try ArgumentParser.parse(arguments, options: options, stopAtPositional: false)
        if parsed.has("--help") {
            Console.out(help)
            return 0
        }
        try checkOutputs(parsed)
        var scenarioOptions = ScenarioOptions()
        scenarioOptions.environment = environment
        scenarioOptions.updateSnapshots = ["1", "true", "yes"].contains(environment["SUT_UPDATE_SNAPSHOTS"]?.lowercased() ?? "")
        scenarioOptions.defines = try DefineOptions.parse(parsed.values("--define"))
        for option in parsed.options {
            let value = option.value ?? ""
            switch option.long {
            case "--tags": scenarioOptions.tags = try TagExpression.parse(value)
            case "--jobs":
                scenarioOptions.jobs = try NumericOptions.integer(option, in: NumericOptions.jobs)
            case "--shard":
                scenarioOptions.shard = try NumericOptions.shard(option)
            case "--define": break // all of them at once below
            case "--step-timeout", "--scenario-timeout":
                let duration = try NumericOptions.duration(option)
                if option.long == "--step-timeout" { scenarioOptions.stepTimeout = duration } else { scenarioOptions.scenarioTimeout = duration }
            case "--flags-in":
                guard let channel = WireFormat.Channel(rawValue: value) else {
                    throw UsageError("\(option.spelling) '\(value)' is not one of args, env, both")
                }
                scenarioOptions.flagsIn = channel
            case "--name":
                do { _ = try RegexBox(value) } catch { throw UsageError("\(option.spelling) '\(value)': \(error)") }
                scenarioOptions.namePattern = value
            case "--shard-timings":
                guard let bytes = FileSystem.read(value) else {
                    throw UsageError("\(option.spelling) \(value): cannot read the file (\(FileSystem.unreadable(value)))")
                }
                guard let timings = try Sharding.timings(from: String(decoding: bytes, as: UTF8.self), file: value) else {
                    throw UsageError("\(option.spelling) \(value): not a JUnit file or a sut-launch test --report")
                }
                scenarioOptions.shardTimings = timings
            case "--fail-fast":
                scenarioOptions.failFast = true
            case "--color":
                guard ["auto", "always", "never"].contains(value) else { throw UsageError("\(option.spelling) '\(value)' is not one of auto, always, never") }
            case "--format":
                guard ["plain", "github"].contains(value) else { throw UsageError("\(option.spelling) '\(value)' is not one of plain, github") }
            case "--update-snapshots":
                scenarioOptions.updateSnapshots = true
            case "--artifacts":
                do { _ = try RootedDirectory(value, create: true) } catch { throw UsageError("\(option.spelling) \(value): cannot write there: \(error)") }
                if let problem = OutputFile.problem(value + "/artifact") {
                    throw UsageError("\(option.spelling) \(value): cannot write there: \(problem)")
                }
                scenarioOptions.artifactsDirectory = value
            case "--junit", "--report", "--messages":
                _ = try RunCommand.outputPath(value, option)
            default: break
            }
        }
        reports.configure(junit: parsed.last("--junit")?.value, report: parsed.last("--report")?.value, junitStrict: parsed.has("--junit-strict"))
        if let messagesPath = parsed.last("--messages")?.value { // a signal while the files load still writes it
            reports.configureMessages(path: messagesPath, envelopes: CucumberMessages(), startedAtMs: WallClock.milliseconds())
        }
        if parsed.last("--format")?.value == "github" { GitHubOutput.begin() }
        defer { GitHubOutput.end() } // on every way out; report() ends it before the annotations
        guard !parsed.positionals.isEmpty else { throw UsageError("test needs feature files: sut-launch test features/") }

        // `login.feature:19` selects the scenario (or Examples row) at that line, as Cucumber does.
        var paths: [String] = []
        for argument in parsed.positionals {
            if let colon = argument.lastIndex(of: ":"),
               let line = BoundedNumber.integer(argument[argument.index(after: colon)...], in: NumericOptions.featureLine) {
                let path = String(argument[..<colon])
                paths.append(path)
                scenarioOptions.lines[path, default: []].insert(line)
            } else {
                paths.append(argument)
            }
        }
        let files = try featureFiles(paths)
        var (pickles, problems, sources) = ScenarioLint.loadWithSources(files)
        // --messages: every file's document and pickles (or parse error) now, the results as the run ends; written
        // on every way out after loading, so a run that fails early still leaves its file. Built only when asked
        // for: for 1,000 files it is most of what `test --list` costs (1.05 s instead of 0.3 s).
        if let messagesPath = parsed.last("--messages")?.value {
            reports.configureMessages(path: messagesPath, envelopes: ScenarioLint.messages(sources), startedAtMs: WallClock.milliseconds())
        }
        for option in parsed.values("--steps") where !FileSystem.isRegularFile(option.value ?? "") {
            let path = option.value ?? ""
            throw UsageError("\(option.spelling) \(path): \(FileSystem.exists(path) ? FileSystem.unreadable(path) : "no such step file")")
        }
        let stepFiles = UserSteps.files(near: files) + parsed.values("--steps").compactMap(\.value)
        var seenStepFiles: Set<String> = []
        let (userSteps, stepProblems) = UserSteps.load(stepFiles.filter { seenStepFiles.insert(FileSystem.realPath($0) ?? $0).inserted })
        problems += stepProblems
        problems += StepVariables.problems(pickles, defines: scenarioOptions.defines, environment: environment)
        scenarioOptions.userSteps = userSteps
        reports.setUserSteps(userSteps)
        if !problems.isEmpty {
            for problem in problems { Console.error(problem) }
            return reports.write([ScenarioResult.loadError(problems)], exitCode: ExitCode.invalidInput, error: problems.joined(separator: "\n"))
        }
        let selected = ScenarioRunner.select(pickles, options: scenarioOptions)
        if selected.isEmpty {
            if let empty = emptySelection(pickles, options: scenarioOptions, allowEmpty: parsed.has("--allow-empty")) {
                Console.error(empty)
                return reports.write([], exitCode: ExitCode.noScenarios, error: empty)
            }
        }
        if parsed.has("--dry-run") {
            let undefined = ScenarioLint.undefinedSteps(selected, userSteps: userSteps)
            for pickle in selected { Console.out("\(pickle.location)  \(pickle.featureName): \(pickle.name) (\(pickle.steps.count) steps)\n") }
            for problem in undefined { Console.error(problem) }
            Console.out("\(selected.count) scenario\(selected.count == 1 ? "" : "s") resolved, \(undefined.count) undefined step\(undefined.count == 1 ? "" : "s"); nothing launched\n")
            return reports.write([], exitCode: undefined.isEmpty ? 0 : 1)
        }
        if parsed.has("--list") {
            for pickle in selected { Console.out("\(pickle.location)  \(pickle.featureName): \(pickle.name)  \(pickle.tags.joined(separator: " "))\n") }
            return reports.write([], exitCode: 0)
        }
        let console = ScenarioConsole(quiet: parsed.has("--quiet"), total: selected.count, environment: environment,
                                      colour: parsed.last("--color")?.value)
        reports.setConsole(console, notSelected: pickles.count - selected.count)
        let started = ContinuousClock.now
        let ran = ScenarioRunner.run(selected, options: scenarioOptions, started: { pickle in
            reports.scenarioStarted(pickle)
            console.started(pickle)
        }, report: { result in
            if reports.scenarioFinished(result) { console.finished(result) }
        })
        reports.blockIfInterrupted() // one summary: the interruption's
        let total = (ContinuousClock.now - started).seconds
        console.close()
        console.summary(ran, seconds: total, skipped: pickles.count - selected.count)
        // --fail-fast: the scenarios it did not start are in every report, as not run (skipped).
        let ranPickles = Set(ran.map(\.pickle))
        let notRun = selected.filter { !ranPickles.contains($0) }.map(ScenarioResult.notRun)
        if !notRun.isEmpty {
            Console.line("--fail-fast: \(notRun.count) scenario\(notRun.count == 1 ? "" : "s") not run after the first failure")
        }
        let results = ran + notRun
        if parsed.last("--format")?.value == "github" { GitHubOutput.report(results, environment: environment) }
        let passed = results.allSatisfy { $0.status == .passed }
        return reports.write(results, exitCode: passed ? 0 : 1)
    }

    /// Why an empty selection fails the run (exit 5), or nil when it passes: `--allow-empty`, or a shard
    /// left empty because there are more shards than scenarios (said on stderr).
    static func emptySelection(_ pickles: [Pickle], options: ScenarioOptions, allowEmpty: Bool) -> String? {
        var unsharded = options
        unsharded.shard = nil
        let tagged = ScenarioRunner.select(pickles, options: unsharded).count
        if let shard = options.shard, tagged > 0 {
            Console.line("shard \(shard.index)/\(shard.count) has no scenarios (\(tagged) selected across \(shard.count) shards); nothing to run")
            return nil
        }
        if allowEmpty {
            Console.line("no scenarios selected; passing because of --allow-empty")
            return nil
        }
        // Name what selected: --tags, --name, FILE:LINE (whichever were given).
        var by: [String] = []
        if let tags = options.tags { by.append("--tags \(tags)") }
        if let name = options.namePattern { by.append("--name \"\(name)\"") }
        if !options.lines.isEmpty {
            by.append(options.lines.sorted { $0.key < $1.key }.map { file, lines in lines.sorted().map { "\(file):\($0)" }.joined(separator: " ") }.joined(separator: " "))
        }
        let reason = pickles.isEmpty ? "the feature files hold no scenarios"
            : "\(by.isEmpty ? "the selection" : by.joined(separator: " with ")) matched none of \(pickles.count) scenarios"
        return "no scenarios selected: \(reason) (exit \(ExitCode.noScenarios); pass --allow-empty to accept this)"
    }


    /// `--junit`, `--report` and `--messages` once each, on files of their own: not each other, not a feature or
    /// steps file the run reads.
    static func checkOutputs(_ parsed: ParsedArguments) throws(UsageError) {
        var inputs = OutputFiles.inputs(parsed, ["--steps"])
        for argument in parsed.positionals where FileSystem.isRegularFile(argument) { inputs.append((argument, "the feature file \(argument)")) }
        try OutputFiles.check(parsed, outputs: ["--junit", "--report", "--messages"], inputs: inputs)
    }

    /// Writes the `--report` of a command line that failed before any scenario ran, when the option was given
    /// once, on a file of its own (``checkOutputs(_:)``).
    static func writeEarlyReport(_ arguments: [String], exitCode: Int32, error: String) {
        guard let path = ArgumentParser.lastValue(of: "--report", in: arguments, options: options, stopAtPositional: false),
              OutputFile.problem(path) == nil else { return }
        if let parsed = try? ArgumentParser.parse(arguments, options: options, stopAtPositional: false) {
            do { try checkOutputs(parsed) } catch { return }
        }
        let json = ScenarioJSONReport.render([], totalSeconds: 0, exitCode: exitCode, error: error)
        if let problem = OutputFile.write(Array(json.utf8), to: path) { Console.error("--report \(path): cannot write the report: \(problem)") }
    }

    /// Feature files named directly, and `*.feature` below named directories (sorted).
    static func featureFiles(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            if FileSystem.isDirectory(path) {
                // Links followed, each directory once (device and inode): a link back up adds nothing.
                do {
                    files += try DirectoryWalk.files(under: path.hasSuffix("/") ? String(path.dropLast()) : path) { $0.hasSuffix(".feature") }
                } catch {
                    throw UsageError("\(error)")
                }
            } else if FileSystem.isRegularFile(path) {
                files.append(path)
            } else {
                throw UsageError("\(path): \(FileSystem.exists(path) ? FileSystem.unreadable(path) : "no such feature file or directory")")
            }
        }
        return files
    }
}
