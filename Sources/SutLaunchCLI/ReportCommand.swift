import AutomationSupport
import ProcessEngine
import Scenarios

/// The options of `sut-launch report [options] MESSAGES...`.
package enum ReportOption: CommandOption {
    case html, junit, junitStrict, json, messages, mergeAny, allowMissingShards, help

    package var repeats: Bool { false }

    package var spec: OptionSpec {
        switch self {
        case .html: OptionSpec("--html", value: "FILE", help: "write the HTML report")
        case .junit: OptionSpec("--junit", value: "FILE", help: "write JUnit XML")
        case .junitStrict: OptionSpec("--junit-strict", help: "JUnit without file/line attributes (strict Jenkins/Ant schema)")
        case .json: OptionSpec("--json", value: "FILE", help: "write the JSON report (what test --report writes)")
        case .messages: OptionSpec("--messages", value: "FILE", help: "write the Messages (merged into one run when several)")
        case .mergeAny: OptionSpec("--merge-any", help: "merge files of different runs (or one shard given twice) anyway")
        case .allowMissingShards:
            OptionSpec("--allow-missing-shards", help: "a partial merge is intended: shards missing or given twice do not fail it")
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        }
    }
}

/// `sut-launch report [options] MESSAGES...`: renders the reports of a run from its Cucumber Messages (what
/// `test --messages` wrote), the same bytes `test` wrote; several files (the shards of a CI run) are merged into
/// one run. Exit 0: written, and the run passed; 1: written, and the run failed or a file was cut short (no
/// `testRunFinished`, or the runs' records name shards that are missing or given twice, without
/// `--allow-missing-shards`, or a scenario meant to run has no test case); 2: usage (files of different runs without
/// `--merge-any`); 3: a file is not Cucumber Messages (file:line says where), or holds a `parseError` (a feature file
/// that did not parse, as `test` exits); 5: the files hold no scenario; 74: a report could not be written.
package enum ReportCommand {
    package static var help: String {
        """
        USAGE:
          sut-launch report [--html F] [--junit F] [--json F] [--messages F] MESSAGES...

        Renders reports from Cucumber Messages files (test --messages): the bytes test --html/--junit/--report
        write. Several files (the shards of one CI run, same run id) are merged into one run: one summary, one
        JUnit, one HTML. Exit 0 the run passed, 1 it failed, a file is cut short, a scenario has no test case or
        a --shard I/N is missing or given twice, 2 usage (files of different runs), 3 a file is not Cucumber
        Messages or a feature in it did not parse, 5 no scenario, 74 a report could not be written.

        OPTIONS:

        """ + ReportOption.helpLines
    }

    /// A name that is not UTF-8 reads as its U+FFFD spelling: another file, maybe one that exists (r15b R15B-1: a
    /// passing run's file was merged in place of the failing shard named). Refused as every path option refuses it.
    private static func refuseNamesNotUTF8(_ paths: [String]) throws {
        for path in paths {
            if let bytes = OriginalBytes.of(path) {
                throw UsageError(.notUTF8Path("the Messages file", shown: OriginalBytes.shown(bytes), index: nil))
            }
        }
    }

    package static func run(_ arguments: [String]) throws -> Int32 {
        var parsed = ParsedArguments<ReportOption>()
        try ArgumentParser.parse(arguments, into: &parsed, stopAtPositional: false)
        if parsed.has(.help) {
            Console.out(help)
            return 0
        }
        let outputs: [ReportOption] = [.html, .junit, .json, .messages]
        try refuseNamesNotUTF8(parsed.positionals)
        try OutputFiles.check(parsed, outputs: outputs, inputs: parsed.positionals.map { ($0, "the Messages file \($0)") })
        var paths: [ReportOption: String] = [:]
        for option in outputs { if let given = parsed.last(option) { paths[option] = try OutputFiles.path(given) } }
        // Its summary and errors go to stderr: a report there (`--junit j.xml 2>j.xml`) would lose them, or they it. Its
        // stdout carries nothing but --help: `report --junit /dev/stdout m.ndjson | xmllint -` stays allowed.
        let named = outputs.compactMap { option in paths[option].map { (path: $0, origin: "\(option.spec.long) \($0)") } }
        try OutputFiles.checkConsole(named, streams: ["stderr"])
        guard !parsed.positionals.isEmpty else {
            throw UsageError(.needsOperands("report needs Messages files: sut-launch report --html report.html shard-*.ndjson"))
        }
        guard !paths.isEmpty else {
            throw UsageError(.needsOperands("report needs an output: --html FILE, --junit FILE, --json FILE or --messages FILE"))
        }
        var files: [(name: String, bytes: [UInt8])] = []
        for path in parsed.positionals {
            guard FileSystem.exists(path) else { throw UsageError(.noSuchPath(path, kind: "Messages file")) }
            // Read block by block: a line past the limit is refused as it passes it, never held whole.
            switch FileSystem.read(path, lineLimit: MessagesReader.lineLimit) {
            case .bytes(let bytes): files.append((path, bytes))
            case .unreadable: throw UsageError(.unreadablePath(path, reason: FileSystem.unreadable(path)))
            case .lineTooLong(let line):
                Console.error(
                    "report: \(path):\(line): a line longer than the limit of \(MessagesReader.lineLimit) bytes: "
                        + "not Cucumber Messages? (exit \(ExitCode.invalidInput))")
                return ExitCode.invalidInput
            }
        }
        var run: ReportRun
        do { run = try MessagesReader.read(files, mergeAny: parsed.has(.mergeAny)) } catch {
            Console.error("report: \(error) (exit \(error.differentRuns ? ExitCode.usage : ExitCode.invalidInput))")
            return error.differentRuns ? ExitCode.usage : ExitCode.invalidInput
        }
        for file in run.incomplete {
            Console.error("report: \(file): incomplete: no testRunFinished (the run was cut short); rendering what it holds (exit 1)")
        }
        for broken in run.parseErrors {
            Console.error(
                "report: \(run.files[broken.file]): \(broken.uri.escapingControlCharacters().prefix(300)):\(broken.line): a feature file that does not parse: "
                    + "\(broken.message.escapingControlCharacters().prefix(300)) (exit \(ExitCode.invalidInput))")
        }
        for scenario in run.missing.prefix(20) {
            Console.error(
                "report: \(run.files[scenario.file]): \(scenario.location.escapingControlCharacters()): not run: no test case started for it "
                    + "(its testCase or testCaseStarted is missing); reported as not run (exit 1)")
        }
        for (file, count) in run.gaps {
            Console.error(
                "report: \(file): \(count) of its results missing: a scenario's test case was removed (an older file, which does not "
                    + "say which scenario; exit 1)")
        }
        if run.missing.count > 20 { Console.error("report: \(run.missing.count - 20) more scenarios not run (exit 1)") }
        // The shards a run's own records say it had: a missing one is a report that looks green while a shard failed.
        let shardProblems = ShardCompleteness.problems(run)
        let partial = parsed.has(.allowMissingShards)
        for problem in shardProblems {
            if partial {
                Console.line("report: \(problem); merged anyway (--allow-missing-shards)".escapingControlCharacters())
            } else {
                Console.error(
                    "report: \(problem); rendering what the files hold (exit 1; --allow-missing-shards if a partial merge is intended)")
            }
        }
        // Shards of other checkouts: no partial merge makes them one run.
        let otherTexts = ShardCompleteness.otherTexts(run)
        for problem in otherTexts {
            Console.error("report: \(problem); rendering what the files hold (exit 1)")
        }
        // One verdict, computed once: the problems are the run's, so JUnit, JSON and HTML say what the exit code says.
        run.problems = (partial ? [] : shardProblems) + otherTexts
        return write(run, files: files, paths: paths, strict: parsed.has(.junitStrict))
    }

    /// The exit code the run itself earns: 3 a feature file did not parse, 1 it failed or was cut short, 5 it holds
    /// no scenario at all (as `test` says no scenario selected) unless every run record says its run passed
    /// (`--allow-empty`, an empty shard), else 0.
    private static func verdict(_ run: ReportRun) -> Int32 {
        if !run.parseErrors.isEmpty { return ExitCode.invalidInput }
        // Nothing ran (none selected, no run, or a --dry-run's or --list's Messages): exit 5, as every report says.
        if let nothingRan = run.nothingRan {
            Console.error("report: \(nothingRan) (exit \(ExitCode.noScenarios))")
            return ExitCode.noScenarios
        }
        guard run.exitCode == 0, run.incomplete.isEmpty else { return 1 }
        return 0
    }

    private static func write(_ run: ReportRun, files: [(name: String, bytes: [UInt8])], paths: [ReportOption: String], strict: Bool)
        -> Int32
    {
        var code = verdict(run)
        let renders: [(ReportOption, () -> [UInt8])] = [
            (.junit, { Array(RunReports.junit(run, strict: strict).utf8) }),
            (.json, { Array(RunReports.json(run).utf8) }),
            (.messages, { files.count == 1 ? files[0].bytes : MessagesMerge.merge(files.map(\.bytes)) }),
            (.html, { HTMLReport.renderBytes(run) }),
        ]
        for (option, render) in renders {
            guard let path = paths[option] else { continue }
            if let problem = OutputFile.write(render(), to: path) {
                Console.error("\(option.spec.long) \(path): cannot write it: \(problem) (exit \(ExitCode.ioError))")
                code = ExitCode.ioError
            } else {
                Console.warnIfDisplaced(option.spec.long, path)
            }
        }
        // Counted as test's console counts (a quarantined failure is quarantined, not failed).
        let results = run.results
        Console.line(
            "report: \(results.count) scenario\(results.count == 1 ? "" : "s") from \(files.count) file\(files.count == 1 ? "" : "s"): "
                + ScenarioConsole.counts(results))
        return code
    }
}

/// Words of a command line as a shell reads them, for the reports; `-D NAME=VALUE` values left out (secrets), in
/// every spelling the parser takes (`-D N=V`, `-DN=V`, `-D=N=V`, `-qD N=V`, `--define N=V`, `--define=N=V`): the
/// words are parsed as `test` parses them and the values of its `--define` options hidden where they stand.
enum ShellQuote {
    static func commandLine(_ words: [String]) -> String {
        let offset = words.starts(with: ["sut-launch", "test"]) ? 2 : 0
        var parsed = ParsedArguments<TestOption>()
        try? ArgumentParser.parse(Array(words[offset...]), into: &parsed, stopAtPositional: false)
        var hidden: [Int: String] = [:]
        for option in parsed.options where option.option == .define {
            guard let value = option.value else { continue }
            let name = value.firstIndex(of: "=").map { String(value[...$0]) + "…" } ?? "…"
            let at = offset + option.index - 1
            guard words.indices.contains(at) else { continue }
            if words[at].count > value.count, words[at].hasSuffix(value) {
                hidden[at] = String(words[at].dropLast(value.count)) + name
            } else if words.indices.contains(at + 1), words[at + 1] == value {
                hidden[at + 1] = name
            }
        }
        var shown: [String] = []
        var hideNext = false
        for (index, word) in words.enumerated() {
            if let replacement = hidden[index] {
                shown.append(self.word(replacement))
            } else if hideNext, let equals = word.firstIndex(of: "=") {
                shown.append(self.word(String(word[...equals]) + "…"))
            } else if word.hasPrefix("--define="), let equals = word.dropFirst(9).firstIndex(of: "=") {
                shown.append(self.word(String(word[...equals]) + "…"))
            } else {
                shown.append(self.word(word))
            }
            hideNext = word == "-D" || word == "--define"
        }
        return shown.joined(separator: " ")
    }

    static func word(_ word: String) -> String {
        let safe = "-_./:=@,+%"
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                $0.isASCII
                    && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || safe.unicodeScalars.contains($0))
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
