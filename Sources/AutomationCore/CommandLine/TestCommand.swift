import MockServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sut-launch test [options] FEATURES...`: runs Gherkin scenarios; exit 0 all passed, 1 any failed,
/// 2 usage error, 3 a feature file does not parse.
public enum TestCommand {
    static let options: [OptionSpec] = [
        OptionSpec("--tags", short: "-t", value: "EXPR", help: "run scenarios whose tags match: \"@smoke and not @slow\""),
        OptionSpec("--jobs", short: "-j", value: "N", help: "run N scenarios at once (default 1)"),
        OptionSpec("--shard", value: "K/N", help: "run the K-th of N stable shares (for a CI matrix)"),
        OptionSpec("--define", short: "-D", value: "NAME=VALUE", help: "a value for ${NAME} in steps; PROGRAM=path is the default program"),
        OptionSpec("--step-timeout", value: "DURATION", help: "how long a waiting step waits (default 2s)"),
        OptionSpec("--scenario-timeout", value: "DURATION", help: "how long a scenario may take (default 60s; tag @timeout=10s overrides)"),
        OptionSpec("--junit", value: "FILE", help: "write JUnit XML"),
        OptionSpec("--report", value: "FILE", help: "write a JSON report"),
        OptionSpec("--list", help: "list the selected scenarios, run nothing"),
        OptionSpec("--quiet", short: "-q", help: "print failures and the summary only"),
        OptionSpec("--help", short: "-h", help: "show this help"),
    ]

    public static var help: String {
        var text = "USAGE:\n  sut-launch test [options] FEATURES...   (files, or directories searched for *.feature)\n\nOPTIONS:\n"
        text += OptionSpec.helpLines(options)
        text += "\nSTEPS:\n" + StepCatalog.all.map { "  " + $0.example.replacingOccurrences(of: "\n", with: "\n    ") }.joined(separator: "\n") + "\n"
        return text
    }

    public static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: options, stopAtPositional: false)
        if parsed.has("--help") {
            print(help, terminator: "")
            return 0
        }
        var scenarioOptions = ScenarioOptions()
        scenarioOptions.environment = environment
        for option in parsed.options {
            let value = option.value ?? ""
            switch option.long {
            case "--tags": scenarioOptions.tags = try TagExpression.parse(value)
            case "--jobs":
                guard let jobs = Int(value), jobs > 0 else { throw UsageError("\(option.spelling) '\(value)' is not a positive number") }
                scenarioOptions.jobs = jobs
            case "--shard":
                let parts = value.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[1] > 0, (1...parts[1]).contains(parts[0]) else {
                    throw UsageError("--shard '\(value)' is not K/N with 1 <= K <= N, like 2/8")
                }
                scenarioOptions.shard = (parts[0], parts[1])
            case "--define":
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    throw UsageError("\(option.spelling) '\(value)' is not NAME=VALUE")
                }
                scenarioOptions.defines[String(value[..<equals])] = String(value[value.index(after: equals)...])
            case "--step-timeout", "--scenario-timeout":
                guard let duration = DurationParser.parse(value) else {
                    throw UsageError("\(option.spelling) '\(value)' is not a duration; write 500ms, 30s, 2m or 1h")
                }
                if option.long == "--step-timeout" { scenarioOptions.stepTimeout = duration } else { scenarioOptions.scenarioTimeout = duration }
            default: break
            }
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("test needs feature files: sut-launch test features/") }

        var pickles: [Pickle] = []
        var parseFailed = false
        for path in try featureFiles(parsed.positionals) {
            guard let bytes = FileSystem.read(path) else {
                Console.error("\(path): cannot read the file")
                parseFailed = true
                continue
            }
            do {
                pickles += Pickle.compile(try GherkinParser.parse(String(decoding: bytes, as: UTF8.self), uri: path))
            } catch {
                Console.error("\(error)")
                parseFailed = true
            }
        }
        if parseFailed { return ExitCode.invalidInput }
        let selected = ScenarioRunner.select(pickles, options: scenarioOptions)
        if parsed.has("--list") {
            for pickle in selected { print("\(pickle.location)  \(pickle.featureName): \(pickle.name)  \(pickle.tags.joined(separator: " "))") }
            return 0
        }
        // Ctrl-C (or SIGTERM) stops every program the scenarios started, then ends the run as a shell would.
        startThread {
            let received = SignalForwarder.waitForTerminationSignal()
            Console.line("interrupted by \(signalName(received)); stopping the scenarios' programs")
            ScenarioRunner.stopAll(grace: .seconds(1))
            exit(ExitCode.signaled(received))
        }
        let console = ScenarioConsole(quiet: parsed.has("--quiet"), total: selected.count)
        let started = ContinuousClock.now
        let results = ScenarioRunner.run(selected, options: scenarioOptions, started: console.started, report: console.finished)
        let total = (ContinuousClock.now - started).seconds
        console.summary(results, seconds: total, skipped: pickles.count - selected.count)
        if let path = parsed.last("--junit")?.value, !FileSystem.write(Array(JUnitReport.render(results, totalSeconds: total).utf8), to: path) {
            Console.error("cannot write the JUnit report to \(path)")
        }
        if let path = parsed.last("--report")?.value, !FileSystem.write(Array(ScenarioJSONReport.render(results, totalSeconds: total).utf8), to: path) {
            Console.error("cannot write the report to \(path)")
        }
        return results.allSatisfy { $0.status == .passed } ? 0 : 1
    }

    /// Feature files named directly, and `*.feature` below named directories (sorted).
    static func featureFiles(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        func walk(_ directory: String) {
            for name in FileSystem.list(directory) {
                let path = directory + "/" + name
                if FileSystem.isDirectory(path) { walk(path) } else if name.hasSuffix(".feature") { files.append(path) }
            }
        }
        for path in paths {
            if FileSystem.isDirectory(path) {
                walk(path.hasSuffix("/") ? String(path.dropLast()) : path)
            } else if FileSystem.isRegularFile(path) {
                files.append(path)
            } else {
                throw UsageError("\(path): no such feature file or directory")
            }
        }
        return files
    }
}

/// Progress and results on the terminal: a live line on a TTY, plain lines otherwise.
final class ScenarioConsole: Sendable {
    let quiet: Bool
    let isTerminal: Bool
    let total: Int
    private let finishedCount = Locked(0)

    init(quiet: Bool, total: Int) {
        self.quiet = quiet
        self.total = total
        self.isTerminal = isatty(1) == 1
    }

    func started(_ pickle: Pickle) {
        guard isTerminal, !quiet else { return }
        write("\r\u{1B}[K[\(finishedCount.current)/\(total)] \(pickle.featureName): \(pickle.name)")
    }

    func finished(_ result: ScenarioResult) {
        finishedCount.withLock { $0 += 1 }
        if isTerminal && !quiet { write("\r\u{1B}[K") }
        let mark = result.status == .passed ? "✓" : "✗"
        let line = "\(mark) \(result.pickle.featureName): \(result.pickle.name) (\(Runner.format(result.duration)))\n"
        if result.status == .passed {
            if !quiet { write(line) }
            return
        }
        write(line + JUnitReport.systemOut(result).split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n")
    }

    func summary(_ results: [ScenarioResult], seconds: Double, skipped: Int) {
        let passed = results.filter { $0.status == .passed }.count
        let failed = results.filter { $0.status == .failed }.count
        let errors = results.filter { $0.status == .error }.count
        var line = "\(results.count) scenario\(results.count == 1 ? "" : "s"): \(passed) passed"
        if failed > 0 { line += ", \(failed) failed" }
        if errors > 0 { line += ", \(errors) could not run" }
        if skipped > 0 { line += " (\(skipped) not selected)" }
        line += " in \(Runner.format(.milliseconds(Int(seconds * 1000))))\n"
        write(line)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc_or_Darwin_write(1, &bytes, bytes.count)
    }
}

private func Glibc_or_Darwin_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
