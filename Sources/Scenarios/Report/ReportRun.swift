import AutomationSupport
import ProcessEngine

/// A run as its Cucumber Messages tell it, one file or the shards of one run merged: what `sut-launch report` and
/// `test` render JUnit, the JSON report and the HTML from (``MessagesReader`` builds it).
package struct ReportRun: Sendable {
    /// A test step as it ended (`UNKNOWN` when the file ends before it did).
    package struct Step: Sendable {
        package var text: String
        /// Its doc string, or its data table as `| a | b |` rows (``MessagesReader``); shown under it in the HTML.
        package var argument: String?
        package var status = "UNKNOWN"
        package var nanos = 0
        package var message: String?
        /// A `testStepFinished` was read for it (a second one keeps the worse result).
        var reported = false
    }

    /// One attempt of a scenario (`testCaseStarted`): retries add attempts.
    package struct Attempt: Sendable {
        package var number: Int
        package var steps: [Step]
        /// Attachments other than sut-launch's records: file name, media type, body.
        package var attachments: [(name: String, mediaType: String, body: String)] = []
        /// sut-launch's record of the attempt (`sut-launch-result.json`), with its place among the run's results.
        package var result: (index: Int, result: ScenarioResult)?
        package var finished = false
        package var willBeRetried = false
    }

    /// A pickle that ran at least once.
    package struct Scenario: Sendable {
        package var uri: String
        package var line: Int
        package var name: String
        package var feature: String
        package var tags: [String]
        package var attempts: [Attempt] = []
        /// Which input file it came from.
        package var file: Int
        package var location: String { "\(uri):\(line)" }
    }

    /// The input files (`test` renders from its own, named "the run").
    package var files: [String] = []
    /// How many shards a merged file holds (its `sut-launch-merge.json`), by file; a file without one is one shard.
    package var mergedShards: [Int: Int] = [:]
    /// How many shards the run merges: a merged file counts the shards it was merged from.
    package var shards: Int { files.indices.reduce(0) { $0 + (mergedShards[$1] ?? 1) } }
    package var scenarios: [Scenario] = []
    /// Each file's run record (none for a file cut short, or written by another tool).
    package var records: [(file: Int, run: ReportRecord.Run, orphans: [(index: Int, result: ScenarioResult)])] = []
    /// The files without `testRunFinished`: runs cut short.
    package var incomplete: [String] = []
    /// The files with test cases that never started, and how many.
    package var unstarted: [(file: String, count: Int)] = []
    /// Pickles that never started, whatever the reason (not selected, another shard's, or dropped).
    var unrun: [Scenario] = []
    /// Pickles meant to run that have no test case started in any file (``MessagesReader/account()``): not run.
    package var missing: [Scenario] = []
    /// Files of an older sut-launch (no `selected`) whose results' numbers have gaps, and how many are missing.
    package var gaps: [(file: String, count: Int)] = []
    /// A pickle whose text (name, tags, steps) differs from the one an earlier file holds at its place: shards that ran
    /// other checkouts (R10B-3); the later file, the earlier one, and the place. Not read under `--merge-any`.
    package var otherTexts: [(file: Int, earlier: Int, uri: String, line: Int)] = []
    /// Feature files that did not parse (`parseError`): file index, uri, line, message.
    package var parseErrors: [(file: Int, uri: String, line: Int, message: String)] = []
    /// What the caller found wrong with the set of files (a shard missing or given twice, shards that split the suite
    /// differently): the run cannot have passed, and every report says so (exit code, error, JUnit, HTML).
    package var problems: [String] = []
    /// BeforeAll/AfterAll hooks whose `testRunHookFinished` did not say PASSED (or SKIPPED), by file.
    package var runHookFailures: [(file: Int, message: String)] = []
    /// Every file's `testRunFinished` said success.
    package var success = true
    /// What a `testRunFinished` that did not say success gave as the reason (its `message`, or its `exception`'s type
    /// and message): another tool's word for a run-level error, shown by every report.
    package var finishMessages: [String] = []
    /// The run identities found (`testRunStarted.id`).
    package var runIds: [String] = []
    package var startedMs: Double?
    package var finishedMs: Double?

    /// The run's results in the order `test` had them (file by file when merged): what JUnit and the JSON report show.
    /// Set once the files are read (``MessagesReader/account()``).
    package internal(set) var results: [ScenarioResult] = []

    /// The results that stand for the run, not a scenario (feature files that did not load, BeforeAll/AfterAll hooks):
    /// the page lists scenarios, and shows these above them.
    package var runResults: [ScenarioResult] {
        let listed = Set(scenarios.map(\.location) + missing.map(\.location))
        return results.filter { result in result.failsTheRun && (result.pickle.line == 0 || !listed.contains(result.pickle.location)) }
    }

    /// Why the run failed, when no result says it failed (each may pass or not have run while the run exits non-zero):
    /// coverage, the files' own word (``finishMessages``), scenarios that did not run. nil when the run passed or a
    /// result that fails it is there to read. JUnit adds an error entry with it and the page shows it, so a run that
    /// exits non-zero is never green in them (r15b: a run failing on coverage alone had a green JUnit and page).
    package var unattributedFailure: String? {
        let code = exitCode
        guard code != 0, !results.contains(where: { $0.failsTheRun && $0.status != .notRun }) else { return nil }
        var reasons = coverageErrors + finishMessages
        let notRun = results.filter { $0.status == .notRun && $0.failsTheRun }.count
        if notRun > 0 { reasons.append("\(notRun) scenario\(notRun == 1 ? "" : "s") did not run") }
        if reasons.isEmpty { reasons.append("the run exited \(code)") }
        return reasons.joined(separator: "\n")
    }

    /// `--coverage`'s errors in the files' run records (coverage not measured, or under its threshold: exit 6).
    var coverageErrors: [String] {
        records.compactMap { record in
            guard let text = record.run.coverage, let node = try? JSONParser.parse(text) else { return nil }
            return node["error"]?.string.map { "coverage: " + $0 }
        }
    }

    /// The results the files read make (``results``).
    func collectResults() -> [ScenarioResult] {
        // One file (most runs): its results as they are, no second copy of 20,000 results.
        files.count == 1 ? collectResults(file: 0) : files.indices.flatMap { collectResults(file: $0) }
    }

    /// One file's results, in the order its run had them.
    private func collectResults(file: Int) -> [ScenarioResult] {
        var indexed = IndexedResults()
        for record in records where record.file == file { for orphan in record.orphans { indexed.append(orphan.index, orphan.result) } }
        var next = 1 << 40
        for scenario in scenarios where scenario.file == file {
            guard let last = scenario.attempts.last else { continue }
            if let recorded = last.result {
                indexed.append(recorded.index, Self.checked(recorded.result, scenario, scenario.attempts))
            } else {
                // Another tool's Messages: the attempts before the last (Cucumber's retries) are its earlier ones,
                // oldest first, so a flaky scenario stays flaky in JUnit and JSON.
                var result = Self.derived(scenario, last)
                result.earlierAttempts = scenario.attempts.dropLast().map { Self.derived(scenario, $0) }
                indexed.append(next, result)
                next += 1
            }
        }
        for scenario in missing where scenario.file == file {
            indexed.append(next, Self.missingResult(scenario, in: files[file]))
            next += 1
        }
        // A feature file that did not parse, which the file's own run did not report as a load error: as `test` shows it.
        let loadErrors = records.filter { $0.file == file }.flatMap(\.orphans).filter { $0.result.pickle.name == Self.loadErrorName }
        let broken = parseErrors.filter { $0.file == file }
        if !broken.isEmpty, loadErrors.isEmpty {
            indexed.append(
                -1,
                ScenarioResult.loadError(
                    broken.map { $0.message.hasPrefix($0.uri) ? $0.message : "\($0.uri):\($0.line): \($0.message)" }))
        }
        // A BeforeAll/AfterAll hook the file says did not pass (another tool's file has no record of it as a result):
        // never a green run, whatever the file's testRunFinished says.
        let hooks = runHookFailures.filter { $0.file == file }.map(\.message)
        if !hooks.isEmpty, !indexed.results.contains(where: \.failsTheRun) {
            var entry = ScenarioResult.loadError(hooks, name: "run hooks")
            entry.failedStep = "testRunHookFinished"
            indexed.append(Int.max, entry)
        }
        return indexed.inOrder()
    }

    /// Results with the numbers that order them: kept apart, so results already in order (a sut-launch file's) are
    /// returned as they are, and others are moved once, never copied per comparison.
    private struct IndexedResults {
        var indexes: [Int] = []
        var results: [ScenarioResult] = []

        mutating func append(_ index: Int, _ result: ScenarioResult) {
            indexes.append(index)
            results.append(result)
        }

        /// The results by number (a stable sort: equal numbers keep their order).
        func inOrder() -> [ScenarioResult] {
            if zip(indexes, indexes.dropFirst()).allSatisfy({ $0 <= $1 }) { return results }
            return indexes.indices.sorted { (indexes[$0], $0) < (indexes[$1], $1) }.map { results[$0] }
        }
    }

    /// The name `test` gives the result of feature files that did not load.
    static let loadErrorName = ScenarioResult.loadError([]).pickle.name

    /// A pickle meant to run with no test case started: not run, and it fails the run.
    static func missingResult(_ scenario: Scenario, in file: String) -> ScenarioResult {
        let pickle = Pickle(
            uri: scenario.uri, featureName: scenario.feature, ruleName: nil, name: scenario.name, line: scenario.line,
            scenarioLine: scenario.line, tags: scenario.tags, steps: [])
        var result = ScenarioResult.notRun(pickle)
        result.message = "not run: \(file) has no test case started for it (its testCase or testCaseStarted is missing)"
        return result
    }

    /// sut-launch's record of a result checked against the steps the Messages say ran, attempt by attempt: the worse
    /// of the two stands, so a record saying passed over a FAILED, PENDING, UNKNOWN... step, or over an attempt that
    /// never finished, is never green (what `--rerun-failed` reads off the same file).
    static func checked(_ recorded: ScenarioResult, _ scenario: Scenario, _ attempts: [Attempt]) -> ScenarioResult {
        guard let last = attempts.last else { return recorded }
        var result = checked(recorded, scenario, last)
        if result.earlierAttempts.count == attempts.count - 1 {
            result.earlierAttempts = zip(result.earlierAttempts, attempts.dropLast()).map { checked($0, scenario, $1) }
        }
        return result
    }

    /// One attempt's record checked against its steps (the HTML page shows each attempt by it).
    static func checked(_ recorded: ScenarioResult, _ scenario: Scenario, _ attempt: Attempt) -> ScenarioResult {
        // Before any record: a quarantine excuses a failure, not a run cut short (r14 R14-4).
        guard attempt.finished else { return unfinished(recorded) }
        guard recorded.status == .passed else { return recorded }
        var result = recorded
        guard status(attempt.steps.map(\.status)) != "passed" else { return recorded } // (most: no result built)
        let derived = Self.derived(scenario, attempt)
        result.status = derived.status
        result.failedStep = derived.failedStep
        result.message = (derived.message ?? "") + " (a step says \(derived.status.rawValue) where sut-launch's record says passed)"
        return result
    }

    /// An attempt without its `testCaseFinished`, whatever its steps say: an error (a JUnit `<error>`, never a skip), as
    /// `--rerun-failed` reruns it (r13 R13-5: "not run" made a JUnit of no failure and no error while a step had FAILED).
    private static func unfinished(_ result: ScenarioResult) -> ScenarioResult {
        var result = result
        result.status = .error
        result.message = "error: its testCaseFinished is missing (the attempt never finished)"
        return result
    }

    /// A result read off the steps, for Messages another tool wrote (no sut-launch record). An attempt without its
    /// `testCaseFinished` is an error, whatever its steps say (``unfinished(_:)``).
    static func derived(_ scenario: Scenario, _ attempt: Attempt) -> ScenarioResult {
        let pickle = Pickle(
            uri: scenario.uri, featureName: scenario.feature, ruleName: nil, name: scenario.name, line: scenario.line,
            scenarioLine: scenario.line, tags: scenario.tags, steps: [])
        guard attempt.finished else { return unfinished(.notRun(pickle)) }
        let status = ReportRun.status(attempt.steps.map(\.status))
        let statusValue: ScenarioResult.Status =
            switch status {
            case "passed": .passed
            case "notRun": .notRun
            case "undefined", "unknown": .error
            default: .failed
            }
        let nanos = attempt.steps.reduce(0) { min($0 + $1.nanos, Int.max / 2) }
        var result = ScenarioResult(
            pickle: pickle, status: statusValue, duration: .nanoseconds(nanos),
            trail: attempt.steps.map { (["PASSED": "✓ ", "FAILED": "✗ "][$0.status] ?? "- ") + $0.text }, outputTail: "",
            unexpectedRequests: [])
        if let failed = attempt.steps.first(where: { $0.status != "PASSED" && $0.status != "SKIPPED" }) {
            result.failedStep = failed.text
            result.message = failed.message ?? failed.status.lowercased()
        }
        return result
    }

    /// A scenario's status from its steps' statuses, the worst as Cucumber ranks them: `failed`, `undefined`, `unknown`,
    /// then `notRun` for any skipped step (a step that did not run: never a pass), else `passed`.
    static func status(_ steps: [String]) -> String { MessagesVerdict.status(steps) }

    /// The run's duration: the longest shard's (shards run at once), else read off the timestamps.
    package var seconds: Double {
        if let longest = records.map(\.run.seconds).max() { return longest }
        guard let startedMs, let finishedMs else { return 0 }
        return min(max(0, finishedMs - startedMs) / 1000, Double(MessagesReader.maxSeconds))
    }

    /// The run's exit code: the first shard's that failed; 1 when a file was cut short and said nothing.
    package var exitCode: Int32 {
        if let failed = records.first(where: { $0.run.exitCode != 0 }) { return failed.run.exitCode }
        if !parseErrors.isEmpty { return ExitCode.invalidInput }
        if nothingRan != nil { return ExitCode.noScenarios }
        // The files' own word is not taken over their results: a scenario that failed fails the run.
        return incompleteness.isEmpty && success && !results.contains(where: \.failsTheRun) ? 0 : 1
    }

    /// Why no scenario ran although the files are whole (exit 5, said by every report, never a pass): the run
    /// selected none (its records say exit 5), the files hold no run at all, or the run launched nothing
    /// (`test --dry-run`, `--list`: pickles, no test case). nil when a scenario has a result, or when every run
    /// record says its empty run passed (`--allow-empty`, an empty shard).
    package var nothingRan: String? {
        guard results.isEmpty, parseErrors.isEmpty, incompleteness.isEmpty else { return nil }
        if records.isEmpty { return "the files hold no scenario: nothing ran" }
        if records.allSatisfy({ $0.run.exitCode == ExitCode.noScenarios }) { return "the files hold no scenario: the run selected none" }
        if records.contains(where: { $0.run.launchedNothing }) {
            return "the files hold no scenario that ran (written by test --dry-run or --list, which launch nothing)"
        }
        return nil
    }

    /// Why the run is not whole: the caller's ``problems``, files cut short, test cases that never started, results
    /// missing, scenarios meant to run with no test case. Empty when whole; else the run failed (exit 1), and JUnit
    /// holds an error entry and the HTML says INCOMPLETE (one verdict in every report, as `report`'s exit code).
    package var incompleteness: [String] {
        var reasons = problems
        for file in incomplete { reasons.append("incomplete: \(file) has no testRunFinished (the run was cut short)") }
        for (file, count) in unstarted {
            reasons.append("incomplete: \(file) has \(count) test case\(count == 1 ? "" : "s") that never started")
        }
        for (file, count) in gaps {
            reasons.append("incomplete: \(file) lacks \(count) of its results (their test cases are missing)")
        }
        for scenario in missing.prefix(20) {
            reasons.append("not run: \(scenario.location) has no test case started in \(files[scenario.file])")
        }
        if missing.count > 20 { reasons.append("not run: \(missing.count - 20) more scenarios with no test case started") }
        // Beside files of runs that launched: a file of `--dry-run` or `--list` stands for scenarios that did not run.
        if records.contains(where: { !$0.run.launchedNothing }) {
            for record in records where record.run.launchedNothing {
                reasons.append(
                    "incomplete: \(files[record.file]) was written by test --dry-run or --list, which launch nothing: its scenarios did not run"
                )
            }
        }
        return reasons
    }

    /// Why the run (or a shard) ended early, and which files were cut short.
    package var error: String? {
        var reasons: [String] = []
        for record in records { if let error = record.run.error, !reasons.contains(error) { reasons.append(error) } }
        let whole = incompleteness
        reasons += whole.filter { !$0.hasPrefix("not run: ") }
        for broken in parseErrors where !reasons.contains(where: { $0.contains(broken.message) }) {
            reasons.append("\(files[broken.file]): \(broken.uri):\(broken.line): does not parse: \(broken.message)")
        }
        reasons += whole.filter { $0.hasPrefix("not run: ") }
        if reasons.isEmpty, let nothingRan { reasons.append(nothingRan) }
        for reason in coverageErrors + finishMessages where !reasons.contains(reason) { reasons.append(reason) }
        return reasons.isEmpty ? nil : reasons.joined(separator: "\n")
    }
}
