import AutomationSupport
import ProcessEngine

/// A run as its Cucumber Messages tell it, one file or the shards of one run merged: what `sut-launch report` and
/// `test` render JUnit, the JSON report and the HTML from (``MessagesReader`` builds it).
package struct ReportRun: Sendable {
    /// A test step as it ended (`UNKNOWN` when the file ends before it did).
    package struct Step: Sendable {
        package var text: String
        package var status = "UNKNOWN"
        package var nanos = 0
        package var message: String?
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
    /// Every file's `testRunFinished` said success.
    package var success = true
    /// The run identities found (`testRunStarted.id`).
    package var runIds: [String] = []
    package var startedMs: Double?
    package var finishedMs: Double?

    /// The run's results in the order `test` had them (file by file when merged): what JUnit and the JSON report show.
    package var results: [ScenarioResult] {
        files.indices.flatMap { file -> [ScenarioResult] in
            var indexed = records.filter { $0.file == file }.flatMap(\.orphans)
            var next = 1 << 40
            for scenario in scenarios where scenario.file == file {
                guard let last = scenario.attempts.last else { continue }
                if let recorded = last.result {
                    indexed.append(recorded)
                } else {
                    // Another tool's Messages: the attempts before the last (Cucumber's retries) are its earlier ones,
                    // oldest first, so a flaky scenario stays flaky in JUnit and JSON.
                    var result = Self.derived(scenario, last)
                    result.earlierAttempts = scenario.attempts.dropLast().map { Self.derived(scenario, $0) }
                    indexed.append((next, result))
                    next += 1
                }
            }
            return indexed.sorted { $0.index < $1.index }.map(\.result)
        }
    }

    /// A result read off the steps, for Messages another tool wrote (no sut-launch record).
    static func derived(_ scenario: Scenario, _ attempt: Attempt) -> ScenarioResult {
        let pickle = Pickle(
            uri: scenario.uri, featureName: scenario.feature, ruleName: nil, name: scenario.name, line: scenario.line,
            scenarioLine: scenario.line, tags: scenario.tags, steps: [])
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

    /// A scenario's status from its steps' statuses: `passed`, `failed`, `undefined`, `notRun` (all skipped), `unknown`.
    static func status(_ steps: [String]) -> String {
        if steps.contains(where: { ["FAILED", "AMBIGUOUS"].contains($0) }) { return "failed" }
        if steps.contains("UNDEFINED") { return "undefined" }
        if steps.contains(where: { ["UNKNOWN", "PENDING"].contains($0) }) { return "unknown" }
        if !steps.isEmpty, steps.allSatisfy({ $0 == "SKIPPED" }) { return "notRun" }
        return "passed"
    }

    /// The run's duration: the longest shard's (shards run at once), else read off the timestamps.
    package var seconds: Double {
        if let longest = records.map(\.run.seconds).max() { return longest }
        guard let startedMs, let finishedMs else { return 0 }
        return min(max(0, finishedMs - startedMs) / 1000, Double(MessagesReader.maxSeconds))
    }

    /// The run's exit code: the first shard's that failed; 1 when a file was cut short and said nothing.
    package var exitCode: Int32 {
        if let failed = records.first(where: { $0.run.exitCode != 0 }) { return failed.run.exitCode }
        // The files' own word is not taken over their results: a scenario that failed fails the run.
        return incomplete.isEmpty && unstarted.isEmpty && success && !results.contains(where: \.failsTheRun) ? 0 : 1
    }

    /// Why the run (or a shard) ended early, and which files were cut short.
    package var error: String? {
        var reasons: [String] = []
        for record in records { if let error = record.run.error, !reasons.contains(error) { reasons.append(error) } }
        for file in incomplete { reasons.append("incomplete: \(file) has no testRunFinished (the run was cut short)") }
        for (file, count) in unstarted {
            reasons.append("incomplete: \(file) has \(count) test case\(count == 1 ? "" : "s") that never started")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "\n")
    }
}
