import AutomationHost
import AutomationSupport
import Coverage
import MockServer
import ProcessEngine

/// The catalog of ready steps (README "Scenarios" lists each with an example).
package enum StepCatalog {
    static let quoted = #""((?:[^"\\]|\\.)*)""#

    /// The longest step line (after an outline's placeholders are filled) matched against the steps: matching is
    /// linear, but a 20 MB line took 50 s, spent the matcher's budget and was then called undefined. A longer one
    /// matches nothing here and is a load error of its own (`ScenarioLint.stepProblems`).
    package static let maxStepBytes = 1 << 20

    package static func find(_ text: String) -> (StepDefinition, [String])? {
        guard text.utf8.count <= maxStepBytes else { return nil }
        // Suites repeat their step texts, and loading asks of each step several times (lint, snapshots, undefined
        // steps): each text is matched once. Remembered up to 64 MiB of text, so an outline of 100,000 rows (each its
        // own text) is matched once per row, not three times past a count limit.
        if let known = found.withLock({ $0.texts[ScalarKey(text)] }) { return known.map { (all[$0.index], $0.captures) } }
        var result: (index: Int, captures: [String])?
        for (index, definition) in all.enumerated() {
            if let captures = definition.match(text) {
                result = (index, captures.map(StepText.unescape))
                break
            }
        }
        found.withLock { memo in
            let cost = text.utf8.count + 64
            guard memo.bytes + cost <= 64 << 20 else { return }
            memo.bytes += cost
            memo.texts[ScalarKey(text)] = .some(result)
        }
        return result.map { (all[$0.index], $0.captures) }
    }
    /// Keyed by code points: two step texts that differ only in Unicode normalization are two steps (a String key
    /// handed one the other's captures, so an NFD expectation checked the NFC value of an earlier scenario).
    private static let found = Locked<(texts: [ScalarKey: (index: Int, captures: [String])?], bytes: Int)>(([:], 0))

    /// The catalog entries closest to an undefined step's text (quoted values do not count).
    static func closest(to text: String, count: Int = 3) -> [String] {
        let shape = { (step: String) -> String in
            String(step.split(separator: "\n").first ?? "").replacing(/"(?:[^"\\]|\\.)*"/, with: "\"\"").lowercased()
        }
        // The first 200 characters say which entry is meant; a 300 KB step would cost seconds per entry.
        let wanted = shape(String(text.prefix(200)))
        return all.map(\.example).map { ($0, Suggestion.editDistance(wanted, shape($0))) }
            .sorted { $0.1 < $1.1 }.prefix(count).map(\.0)
    }

    /// An unterminated quote in a command line, found at load (words are split before `${…}` is substituted,
    /// so a value never changes them).
    static func wordsProblem(_ line: String) -> String? {
        if let problem = nulProblem(line, "the command line") { return problem }
        do { _ = try ShellWords.split(line) } catch { return "\(error)" }
        return nil
    }

    /// A terminal size that is not two numbers from 1 to 1000, found at load (none given: 80x24).
    static func terminalSizeProblem(_ captures: [String]) -> String? {
        guard !captures[0].isEmpty else { return nil }
        return StepNumbers.problem(captures[0], "the terminal's columns", in: StepNumbers.terminalSize)
            ?? StepNumbers.problem(captures[1], "the terminal's rows", in: StepNumbers.terminalSize)
    }

    /// A file step's path that leaves the scenario's directory, found at load.
    static func pathProblem(_ name: String) -> String? {
        name.contains("${") ? nil : ScenarioRun.pathProblem(name)
    }

    package static let all: [StepDefinition] = setup + server + actions + output + outcomes + requests + commands

    /// The two rules for paths in steps, stated once (`sut-launch help steps`).
    package static let pathRules = """
        PATHS IN STEPS:
          Inputs a step names are relative to the feature file's directory, wherever sut-launch runs from:
            Given the program "./client.py" (a name without / is looked up in PATH), Given the stubs "stubs.json",
            Given the files from "fixtures/project". A path that starts with a --define or environment value
            (${NAME}) is that value, relative to the current directory as options are; a value the feature
            sets (Given the environment variable) stays relative to the feature file.
          Files the scenario writes and reads are relative to the scenario's directory, where its programs run:
            Given a file "data/x" with:, When I run "./x" (its arguments too), the program's arguments,
            Then the file "out.txt" exists / contains / is: / matches the snapshot; they may not leave it (.., /).
          Snapshots live beside the feature file in __snapshots__/; a step file's "run" is relative to the step file.

        """

    // MARK: Given

    static let setup: [StepDefinition] = [
        StepDefinition("the program \(quoted)", example: "Given the program \"${APP}\"", values: [0: .raw]) { run, captures, _ in
            try run.refuseEmptyExpansion(captures[0], "program")
            run.program = run.programPath(captures[0])
        },
        StepDefinition("the feature flag \(quoted) is \(quoted)", example: "Given the feature flag \"skipPreActiveCheck\" is \"true\"") {
            run, captures, step in
            try setFlag(run, "feature flag", captures[0], captures[1], line: step.line)
        },
        StepDefinition("the feature flags:", example: "Given the feature flags:\n  | greeting | hi |", argument: .table) { run, _, step in
            for (key, value, line) in try table(step) { try setFlag(run, "feature flag", key, value, line: line) }
        },
        StepDefinition(
            "the automation flag \(quoted) is \(quoted)", example: "Given the automation flag \"simulateUserAlreadyLoggedIn\" is \"true\""
        ) { run, captures, step in
            try setFlag(run, "automation flag", captures[0], captures[1], line: step.line)
        },
        StepDefinition("the automation flags:", example: "Given the automation flags:\n  | userName | ada |", argument: .table) {
            run, _, step in
            for (key, value, line) in try table(step) { try setFlag(run, "automation flag", key, value, line: line) }
        },
        StepDefinition(
            "the environment variable \(quoted) is \(quoted)", example: "Given the environment variable \"LANG\" is \"C\"",
            values: [0: .raw],
            check: { environmentProblem(name: $0[0], value: $0[1]) }
        ) { run, captures, step in
            if let problem = environmentProblem(name: captures[0], value: captures[1]) { throw StepFailure(problem, kind: .error) }
            // --coverage sets these for every program after the steps' variables: the step's value would not reach it.
            if run.options.coverage?.environment().contains(where: { $0.key == captures[0] }) == true {
                throw StepFailure(
                    "\(captures[0]) is set by --coverage for the scenario's program: this step's value would not reach it", kind: .error)
            }
            try setFlag(run, "environment variable", captures[0], captures[1], line: step.line)
        },
        // Without a size: 80x24. With one, both numbers are checked at load (StepNumbers.terminalSize).
        StepDefinition(
            "the program runs in a terminal(?: of ([^\\sx]+)x(\\S+))?", example: "Given the program runs in a terminal of 100x30",
            check: { terminalSizeProblem($0) }
        ) { run, captures, _ in
            if captures[0].isEmpty {
                run.terminal = TerminalSize(columns: 80, rows: 24)
            } else {
                run.terminal = TerminalSize(
                    columns: try StepNumbers.integer(captures[0], "the terminal's columns", in: StepNumbers.terminalSize),
                    rows: try StepNumbers.integer(captures[1], "the terminal's rows", in: StepNumbers.terminalSize))
            }
        },
        StepDefinition(
            "the flags travel in the (environment|launch arguments|launch arguments and the environment)",
            example: "Given the flags travel in the environment"
        ) { run, captures, _ in
            run.flagsIn = captures[0] == "environment" ? .env : captures[0] == "launch arguments" ? .args : .both
        },
        StepDefinition("the entry point (?:is )?\(quoted)", example: "Given the entry point \"search\"") { run, captures, step in
            guard !captures[0].isEmpty else { throw StepFailure("the entry point is empty: name the screen to start on", kind: .error) }
            if let earlier = run.flagLines["entry point"] {
                throw StepFailure(
                    "the entry point is set twice, at lines \(earlier) and \(step.line): the last would silently win; keep one",
                    kind: .error)
            }
            run.flagLines["entry point"] = step.line
            run.entryPoint = captures[0]
        },
    ]

    // MARK: When

    static let actions: [StepDefinition] = [
        StepDefinition(
            "I launch the program(?: with \(quoted))?", example: "When I launch the program with \"login --verbose\"",
            values: [0: .raw], check: { wordsProblem($0[0]) }
        ) { run, captures, _ in
            try run.launch(arguments: try run.commandWords(captures[0]))
        },
        StepDefinition("I type \(quoted)", example: "When I type \"ada\"") { run, captures, _ in
            let process = try run.requireProcess()
            try requireTerminalReader(run, process, "cannot type into the program")
            try requireLinesFit(run, process, captures[0])
            let budget = run.waitBudget()
            do {
                try process.writeToStandardInput(Array((captures[0] + "\n").utf8), timeout: budget.limit)
            } catch let error as Errno where error == .timedOut {
                throw StepFailure("the program did not read what was typed within \(run.describe(budget))")
            } catch {
                throw StepFailure("cannot type into the program: \(error) (did it exit or close stdin?)")
            }
        },
        StepDefinition(
            "I press (\\S+)", example: "When I press Ctrl-C",
            check: { TerminalKey(name: $0[0]) == nil ? "unknown key \"\($0[0])\"; keys: \(TerminalKey.names)" : nil }
        ) { run, captures, _ in
            guard let key = TerminalKey(name: captures[0]) else {
                throw StepFailure("unknown key \"\(captures[0])\"; keys: \(TerminalKey.names)", kind: .error)
            }
            guard run.terminal != nil else { throw StepFailure(pressNeedsTerminal(captures[0]), kind: .error) }
            let process = try run.requireProcess()
            try requireTerminalReader(run, process, "cannot press \(captures[0].prefix(30).escapingControlCharacters())")
            do {
                try process.writeToStandardInput(key.bytes, timeout: run.waitLimit)
            } catch {
                throw StepFailure("cannot press \(captures[0]): \(error) (did the program exit?)")
            }
        },
        StepDefinition(closeInputSource, example: "When I close the input") { run, _, _ in
            // Refused at load too: a terminal's input stays open while its screen is read (close would end nothing).
            if run.terminal != nil {
                throw StepFailure(terminalCloseInput(since: "Given the program runs in a terminal"), kind: .error)
            }
            try run.requireProcess().closeStandardInput()
        },
        StepDefinition("I send the control message \(quoted)", example: "When I send the control message \"refresh\"") { run, captures, _ in
            _ = try deliver(run, captures[0])
        },
        StepDefinition(
            "the program acknowledges the control message \(quoted)",
            example: "When the program acknowledges the control message \"refresh\""
        ) { run, captures, _ in
            // A refusal (the host library's convention, `error: …`) is no sign it was acted on (r12 R12-7).
            let reply = try acknowledgedReply(run, to: captures[0])
            if reply.hasPrefix("error:") {
                throw StepFailure(
                    "the program refused the control message \"\(captures[0])\": it replied \"\(reply.prefix(300))\" (to expect a refusal, "
                        + "write: Then the program replies \"…\" to the control message \"…\")")
            }
        },
        StepDefinition(
            "the program replies \(quoted) to the control message \(quoted)",
            example: "Then the program replies \"pong\" to the control message \"ping\"", values: [0: .expected]
        ) { run, captures, _ in
            let expected = captures[0]
            let message = captures[1]
            let reply = try acknowledgedReply(run, to: message)
            guard reply == expected else {
                throw StepFailure("the program replied \"\(reply)\" to the control message \"\(message)\", not \"\(expected)\"")
            }
        },
        StepDefinition("I wait (\\S+)", example: "When I wait 500ms", durationCaptures: [0]) { run, captures, _ in
            guard let duration = DurationParser.parse(captures[0]) else {
                throw StepFailure("\"\(captures[0])\" is not a duration like 500ms or 2s", kind: .error)
            }
            let budget = run.waitBudget(asked: duration)
            try? sleepFor(budget.limit)
            if let cut = budget.cut { throw StepFailure("the wait was cut short by \(cut)") }
        },
    ]

    // MARK: Then

    static let outcomes: [StepDefinition] = [
        StepDefinition(
            "the (?:exit code is|program exits with code) \(StepNumbers.capture)(?: within (\\S+))?", example: "Then the exit code is 0",
            durationCaptures: [1], check: { StepNumbers.problem($0[0], "the exit code", in: StepNumbers.exitCode) }
        ) { run, captures, _ in
            let expected = try StepNumbers.integer(captures[0], "the exit code", in: StepNumbers.exitCode)
            let process = try run.requireProcess()
            let status = try run.within(captures[1]) { () throws -> ProcessStatus in
                guard let status = process.waitForExit(timeout: run.waitLimit) else {
                    throw StepFailure("the program was still running after \(run.waitDescription); expected exit code \(captures[0])")
                }
                return status
            }
            process.finish(grace: run.options.killGrace)
            // A program killed by signal N has exit code 128+N, as shells say (130 after INT).
            guard Int(status.shellExitCode) == expected else {
                throw StepFailure("expected exit code \(captures[0]), the program \(status)")
            }
        },
        StepDefinition("the program is still running", example: "Then the program is still running") { run, _, _ in
            if let status = try run.requireProcess().status { throw StepFailure("the program is not running: it \(status)") }
        },
        StepDefinition("the program finishes within (\\S+)", example: "Then the program finishes within 2s", durationCaptures: [0]) {
            run, captures, _ in
            guard let limit = DurationParser.parse(captures[0]) else {
                throw StepFailure("\"\(captures[0])\" is not a duration like 500ms or 2s", kind: .error)
            }
            let budget = run.waitBudget(asked: limit)
            guard try run.requireProcess().waitForExit(timeout: budget.limit) != nil else {
                throw StepFailure(
                    "the program was still running after \(budget.cut.map { "\(Runner.format(budget.limit)): the wait was cut short by \($0)" } ?? "\(captures[0]) (the step's `within`)")"
                )
            }
        },
    ]

    // MARK: Helpers

    private static func table(_ step: GherkinDocument.Step) throws(StepFailure) -> [(String, String, Int)] {
        guard let table = step.dataTable else { throw StepFailure("this step needs a table: | key | value |", kind: .error) }
        var pairs: [(String, String, Int)] = []
        for (index, row) in table.rows.enumerated() {
            if index == 0 && row.map({ $0.lowercased() }) == ["key", "value"] { continue }
            guard row.count == 2 else { throw StepFailure("each row needs two cells: | key | value |", kind: .error) }
            pairs.append((row[0], row[1], index < table.rowPositions.count ? table.rowPositions[index].line : table.line + index))
        }
        return pairs
    }

    /// Sets a flag once: a key the scenario set already (two rows, two steps, or two `${NAME}`s with one value) fails
    /// naming both lines; the last one never silently wins.
    private static func setFlag(_ run: ScenarioRun, _ kind: String, _ key: String, _ value: String, line: Int) throws(StepFailure) {
        guard !key.isEmpty else { throw StepFailure("a \(kind) needs a name (\"\" would reach the program as an empty key)", kind: .error) }
        if kind == "automation flag", key == "mockServerURL" {
            throw StepFailure(
                "the automation flag \"mockServerURL\" would send the program away from the mock server this scenario starts; "
                    + "leave it out: the program gets the server's URL", kind: .error)
        }
        if kind == "automation flag", let problem = LaunchFlags.automationProblem(key: key, value: FlagValue.inferred(from: value)) {
            throw StepFailure(problem, kind: .error)
        }
        if kind != "environment variable", let problem = FlagValue.inferredProblem(key: key, text: value) {
            throw StepFailure(problem, kind: .error)
        }
        // `Given the entry point` sets the same automation flag: one of them would silently win.
        let name = kind == "automation flag" && key == "entryPoint" ? "entry point" : "\(kind) \"\(key.escapingControlCharacters())\""
        if let earlier = run.flagLines[name] {
            throw StepFailure(
                "the \(name) is set twice, at lines \(earlier) and \(line): the last would silently win; keep one", kind: .error)
        }
        run.flagLines[name] = line
        switch kind {
        case "feature flag": run.featureFlags[key] = FlagValue.inferred(from: value)
        case "automation flag": run.automationFlags[key] = FlagValue.inferred(from: value)
        default: run.environment.append((key, value))
        }
    }
}
