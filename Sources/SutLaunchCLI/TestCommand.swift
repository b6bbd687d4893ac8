import AutomationHost
import AutomationSupport
import Coverage
import MockServer
import ProcessEngine
import Scenarios

/// `sut-launch test [options] FEATURES...`: runs Gherkin scenarios; exit 0 all passed, 1 any failed,
/// 2 usage error, 3 a feature file does not parse. It runs as parse (``TestOptions``) → load → select →
/// execute → report.
package enum TestCommand {
    /// The text of `sut-launch test --help`.
    package static var help: String {
        var text = "USAGE:\n  sut-launch test [options] FEATURES...   (files, or directories searched for *.feature)\n\nOPTIONS:\n"
        text += TestOption.helpLines
        text += "\nThe steps: sut-launch help steps; coverage of the program: sut-launch help coverage\n"
        return text
    }

    /// Every step of the catalog with its example (`sut-launch help steps`), after the rules for paths.
    package static var steps: String {
        StepCatalog.pathRules + "\n" + StepNumbers.rules + "\n" + StepText.rules + "\nSTEPS:\n"
            + StepCatalog.all.map { "  " + $0.example.replacingOccurrences(of: "\n", with: "\n    ") }.joined(separator: "\n") + "\n"
    }

    /// What a step of the run hands on, or the exit code it ended the run with (its reports written).
    enum Stage<Value> {
        case next(Value)
        case finished(Int32)
    }

    /// The scenarios loaded and the options to run them with, files and environment included.
    struct Suite {
        var pickles: [Pickle]
        var scenario: ScenarioOptions
    }

    /// Runs `test` with the arguments after it; returns the exit code (``ExitCode``).
    /// - Throws: ``CommandFailure`` for a usage error or an unreadable file, with the `--report` to write.
    package static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        // SIGINT/SIGTERM/SIGHUP at any moment: cut the run (``ScenarioReports/interrupt()``), stop the scenarios'
        // programs, write the reports with every finished scenario and the running ones as they stood, exit 128+N.
        // A signal after the reports began to be written changes nothing: the run was over, its verdict stands.
        // A static executable cannot load libssl: HTTPS scenarios run in the companion, the whole suite at once. When
        // it cannot start, the suite runs here: each HTTPS scenario then fails saying why, and every report is written.
        if TLSServerContext.needsDynamicExecutable, case .run(let options)? = try? TestOptions.parse(arguments),
            let option = options.scenario.https.map({ $0.option }) ?? options.recording.httpsBackend
        {
            Console.error(SutLaunchCommand.execCompanion(for: option, arguments: ["test"] + arguments))
        }
        // Nor libxml2: a suite whose files name XML matchers runs in the companion too (``XMLStubScan``).
        if SharedLibrary.inStaticExecutable, case .run(let options)? = try? TestOptions.parse(arguments),
            XMLStubScan.mentionsXML(options.featurePaths + options.stepFiles.map(\.path))
        {
            Console.error(SutLaunchCommand.execCompanion(for: SutLaunchCommand.xmlMatchers, arguments: ["test"] + arguments))
        }
        let reports = ScenarioReports()
        Interruption.exitOnSignal { received in
            guard reports.interrupt() else { reports.awaitTheRunsOwnEnd() }
            Console.line("interrupted by \(signalName(received)); stopping the scenarios' programs")
            ScenarioRunner.interrupting.withLock { $0 = true }
            ScenarioRunner.stopAll(grace: .seconds(1))
            reports.addRunEntries(hooksOnSignal(received))
            reports.write(exitCode: ExitCode.signaled(received), interruption: "interrupted by \(signalName(received))")
            return nil
        }
        guard case .run(var options) = try TestOptions.parse(arguments) else {
            Console.out(help)
            return 0
        }
        try ShardEnvironment.apply(&options, environment: environment)
        // A summary path that is not UTF-8 would be appended to under its U+FFFD spelling (r15b R15B-1).
        if options.github, let summary = environment["GITHUB_STEP_SUMMARY"], let bytes = OriginalBytes.of(summary) {
            throw CommandFailure(
                UsageError(.notUTF8Path("GITHUB_STEP_SUMMARY", shown: OriginalBytes.shown(bytes), index: nil)), report: options.earlyReport)
        }
        let runId: String
        do {
            runId = try RunIdentity.resolve(options.runId, environment: environment)
        } catch {
            throw CommandFailure(error, report: options.earlyReport)
        }
        // The shard this run is, `--shard K/N` or what `--shard auto` resolved to: the run record keeps it for
        // `report`'s count of the shards (one missing or given twice is named there).
        let namedShard = options.scenario.shard
        reports.configure(
            junit: options.junitPath, report: options.reportPath, junitStrict: options.junitStrict,
            junitName: options.junitFromEnvironment ? "XML_OUTPUT_FILE" : "--junit")
        reports.configureRerun(options.rerunPath)
        reports.configureRun(
            html: options.htmlPath, id: runId,
            commandLine: ShellQuote.commandLine(["sut-launch", "test"] + arguments), shard: namedShard)
        if options.messagesPath != nil || options.htmlPath != nil { // a signal while the files load still writes it
            reports.configureMessages(path: options.messagesPath, envelopes: CucumberMessages(), startedAtMs: WallClock.milliseconds())
        }
        // Under GitHub Actions the console is inside a stop-commands block with or without --format github: the runner
        // trims a line's leading spaces before `::`, so a program's indented output lines would be workflow commands.
        if options.github || GitHubOutput.isActions(environment) { GitHubOutput.begin() }
        if options.github { reports.configureGitHub(environment: environment) }
        defer { GitHubOutput.end() } // on every way out; report() ends it before the annotations
        let suite: Suite
        do {
            switch try load(options, environment: environment, reports: reports) {
            case .finished(let code): return code
            case .next(let loaded): suite = loaded
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(error, report: options.earlyReport)
        }
        switch select(suite, options: options, reports: reports) {
        case .finished(let code): return code
        case .next(let selected):
            let ran = execute(selected, suite: suite, options: options, reports: reports)
            return report(
                ran, selected: selected, options: options, environment: environment, reports: reports, coverage: suite.scenario.coverage)
        }
    }

    /// The scenarios to run. `--dry-run` and `--list` end the run here, as does an empty selection unless it passes.
    static func select(_ suite: Suite, options: TestOptions, reports: ScenarioReports) -> Stage<[Pickle]> {
        // --name reads the names once, all within one time limit; the selections below take what it named.
        let named: [Pickle]
        do { named = try ScenarioRunner.named(suite.pickles, options: suite.scenario) } catch {
            Console.error(error.description)
            return .finished(reports.write([], exitCode: ExitCode.usage, error: error.description))
        }
        var unnamed = suite.scenario
        unnamed.namePattern = nil
        let selected = ScenarioRunner.select(named, options: unnamed)
        reports.setPartition(ScenarioRunner.partition(named, options: unnamed))
        if selected.isEmpty, let empty = emptySelection(suite.pickles, options: suite.scenario, allowEmpty: options.allowEmpty) {
            Console.error(empty)
            return .finished(reports.write([], exitCode: ExitCode.noScenarios, error: empty))
        }
        if options.dryRun || options.list { reports.setLaunchedNothing() }
        if options.dryRun {
            let undefined = ScenarioLint.undefinedSteps(selected, userSteps: suite.scenario.userSteps)
            // What the run would find before launching (a missing stub file, fixture or program): exit 3, as check.
            let unusable = ScenarioPreflight.problems(
                selected, defines: suite.scenario.defines, environment: suite.scenario.environment)
            for pickle in selected { Console.out(listed(pickle, " (\(pickle.steps.count) steps)")) }
            for problem in undefined + unusable { Console.error(problem) }
            let cannot = unusable.isEmpty ? "" : ", \(unusable.count) step\(unusable.count == 1 ? "" : "s") that cannot run"
            Console.out(
                "\(selected.count) scenario\(selected.count == 1 ? "" : "s") resolved, \(undefined.count) undefined step\(undefined.count == 1 ? "" : "s")\(cannot); nothing launched\n"
            )
            let code = !unusable.isEmpty ? ExitCode.invalidInput : undefined.isEmpty ? 0 : 1
            return .finished(reports.write([], exitCode: code, error: unusable.isEmpty ? nil : unusable.joined(separator: "\n")))
        }
        if options.list {
            for pickle in selected { Console.out(listed(pickle, "  " + pickle.tags.joined(separator: " "))) }
            return .finished(reports.write([], exitCode: 0))
        }
        return .next(selected)
    }

    /// A line of `--list` or `--dry-run`: location, feature and scenario name, then `rest`, control characters escaped
    /// as a run's console escapes them (an ESC in a name or a path would reach the terminal; a line break would forge a line).
    static func listed(_ pickle: Pickle, _ rest: String) -> String {
        "\(pickle.location)  \(pickle.featureName): \(pickle.name)\(rest)".escapingControlCharacters() + "\n"
    }

    /// Runs the selected scenarios with a live console, then prints the summary; returns what ran.
    static func execute(_ selected: [Pickle], suite: Suite, options: TestOptions, reports: ScenarioReports) -> [ScenarioResult] {
        let notSelected = suite.pickles.count - selected.count
        let console = ScenarioConsole(
            quiet: options.quiet, total: selected.count, environment: suite.scenario.environment, colour: options.color)
        reports.setConsole(console, selected: selected, notSelected: notSelected)
        let started = ContinuousClock.now
        loadedSuite.withLock { $0 = suite.scenario }
        if let refused = beforeAll(selected, options: suite.scenario) {
            for result in refused { reports.scenarioFinished(result) }
            let ran = refused + afterAll(options: suite.scenario, status: "failed")
            reports.blockIfInterrupted()
            console.close()
            console.summary(ran, seconds: (ContinuousClock.now - started).seconds, skipped: notSelected)
            return ran
        }
        var ran = ScenarioRunner.run(
            selected, options: suite.scenario,
            started: { progress in
                guard reports.scenarioStarted(progress) else { return false }
                if progress.attempt > 1 { console.retrying(progress) }
                console.started(progress.pickle)
                return true
            },
            report: reports.scenarioFinished)
        reports.blockIfInterrupted() // one summary: the interruption's
        ran += afterAll(options: suite.scenario, status: ran.allSatisfy { !$0.failsTheRun } ? "passed" : "failed")
        reports.blockIfInterrupted() // a signal while AfterAll ran: its handler waited for the hooks, and reports
        for result in ran where result.pickle.name == "AfterAll hooks" { reports.scenarioFinished(result) }
        let total = (ContinuousClock.now - started).seconds
        console.close()
        console.summary(ran + notStarted(selected, ran: ran), seconds: total, skipped: notSelected) // as every report counts
        return ran
    }

    /// Writes every report and returns the verdict: 0 when every scenario passed, 1 otherwise.
    static func report(
        _ ran: [ScenarioResult], selected: [Pickle], options: TestOptions, environment: [String: String],
        reports: ScenarioReports, coverage: CoverageSession? = nil
    ) -> Int32 {
        // --fail-fast: the scenarios it did not start are in every report, as not run (skipped).
        let notRun = notStarted(selected, ran: ran)
        if !notRun.isEmpty {
            Console.line("--fail-fast: \(notRun.count) scenario\(notRun.count == 1 ? "" : "s") not run after the first failure")
        }
        let results = ran + notRun
        // A step summary that could not be appended is an output missing: never exit 0 (exit 74, as for a report).
        let summaryMissing = options.github ? GitHubOutput.report(results, environment: environment) : nil
        // --fail-on-flaky: a flaky pass (not quarantined) fails the run; every report says so.
        let flaky = results.filter(\.flakyFailsTheRun).count
        if flaky > 0 {
            Console.line("--fail-on-flaky: \(flaky) scenario\(flaky == 1 ? "" : "s") passed only on a retry (exit 1)")
        }
        let (measured, code) = TestCoverage.finish(
            results, session: coverage, threshold: options.coverage.threshold, exitCode: results.allSatisfy { !$0.failsTheRun } ? 0 : 1,
            reports: reports)
        // So is an artefact file --artifacts could not write (each said on stderr as it failed, and in its scenario).
        let artefactsMissing = ScenarioArtifacts.anyNotWritten
        // The summary is said in every report, as a report that could not be written is (R10B-10: JSON and HTML said 74
        // with no reason).
        let missing = summaryMissing.map {
            ["GITHUB_STEP_SUMMARY \(environment["GITHUB_STEP_SUMMARY"] ?? ""): cannot append the summary: \($0)"]
        }
        return reports.write(measured, exitCode: artefactsMissing ? ExitCode.ioError : code, missing: missing ?? [])
    }

    /// Why an empty selection fails the run (exit 5), or nil when it passes: `--allow-empty`, or a shard
    /// left empty because there are more shards than scenarios (said on stderr).
    /// `pickles` are those `--name` matched (``ScenarioRunner/named(_:options:)``): its pattern is not read again.
    static func emptySelection(_ pickles: [Pickle], options: ScenarioOptions, allowEmpty: Bool) -> String? {
        var unsharded = options
        unsharded.shard = nil
        unsharded.namePattern = nil
        let tagged = ScenarioRunner.select(pickles, options: unsharded).count
        if let shard = options.shard, tagged > 0 {
            Console.line(
                "shard \(shard.index)/\(shard.count) has no scenarios (\(tagged) selected across \(shard.count) shards); nothing to run")
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
        if let rerun = options.rerunLocations {
            if rerun.isEmpty {
                return "no scenarios selected: the earlier run (--rerun-failed) had no failed scenarios; nothing to run (exit "
                    + "\(ExitCode.noScenarios); pass --allow-empty to accept this)"
            }
            by.append("--rerun-failed")
        }
        if !options.lines.isEmpty {
            by.append(
                options.lines.sorted { $0.key < $1.key }.map { file, lines in lines.sorted().map { "\(file):\($0)" }.joined(separator: " ")
                }.joined(separator: " "))
        }
        let reason =
            pickles.isEmpty
            ? "the feature files hold no scenarios"
            : "\(by.isEmpty ? "the selection" : by.joined(separator: " with ")) matched none of \(pickles.count) scenarios"
        return "no scenarios selected: \(reason) (exit \(ExitCode.noScenarios); pass --allow-empty to accept this)"
    }

    /// Feature files named directly, and `*.feature` below named directories (sorted).
    /// The feature files `paths` name, each real file once in first-seen order (`F/x.feature ./F/x.feature`, a
    /// directory and a file in it, a link to a file: one file, its scenarios run once, as Cucumber and cargo do),
    /// with every spelling named (a file or a walk's) mapped to the spelling kept.
    static func uniqueFeatureFiles(_ paths: [String]) throws(UsageError) -> (files: [String], firstSpelling: [String: String]) {
        var kept: [[UInt8]: String] = [:] // real path's bytes (Strings compare NFC and NFD equal) → first spelling
        var firstSpelling: [String: String] = [:]
        var files: [String] = []
        for file in try featureFiles(paths) {
            let real = Array((FileSystem.realPath(file) ?? file).utf8)
            if let first = kept[real] {
                firstSpelling[file] = first
                continue
            }
            kept[real] = file
            firstSpelling[file] = file
            files.append(file)
        }
        return (files, firstSpelling)
    }

    static func featureFiles(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            if FileSystem.isDirectory(path) {
                // Links followed, each directory once (device and inode): a link back up adds nothing.
                do {
                    files += try DirectoryWalk.files(under: path.hasSuffix("/") ? String(path.dropLast()) : path) {
                        $0.hasSuffix(".feature")
                    }
                } catch {
                    throw UsageError(.walk("\(error)"))
                }
            } else if FileSystem.isRegularFile(path) {
                files.append(path)
            } else {
                throw UsageError(
                    FileSystem.exists(path)
                        ? .unreadablePath(path, reason: FileSystem.unreadable(path))
                        : .noSuchPath(path, kind: "feature file or directory"))
            }
        }
        return files
    }
}
