import AutomationSupport
import Coverage
package import ProcessEngine

/// What JUnit, the JSON report and the HTML report need of a scenario's result and of the run, written into the
/// Cucumber Messages as `attachment`s (mediaType `application/json`), so every report is a function of the Messages:
/// `sut-launch report` renders from a Messages file the bytes `test` rendered from the same envelopes.
///
/// - `sut-launch-result.json`, on each test case (`testCaseStartedId`): ``ScenarioResult`` as the reports read it.
/// - `sut-launch-run.json`, on the run (`testRunStartedId`), before `testRunFinished`: the run's identity, command
///   line, duration, exit code and error, and the results that have no test case (a load error, a run cut before
///   its documents were read).
package enum ReportRecord {
    static let resultFile = "sut-launch-result.json"
    static let runFile = "sut-launch-run.json"
    /// On the run of merged Messages (`report --messages` of several files): `{"shards":N}`, how many were merged.
    static let mergeFile = "sut-launch-merge.json"
    /// The most shards a merge record counts (`--shard` allows 10,000).
    static let maxShards = 10_000
    /// The most earlier attempts a result record holds (`--retries` allows 10).
    static let maxAttempts = 10

    /// What a run says of itself (beside its results).
    package struct Run: Sendable, Equatable {
        /// Identifies the run: shards of one CI run share it (``RunIdentity``).
        package var id: String
        package var commandLine: String
        package var seconds: Double
        package var exitCode: Int32
        package var error: String?
        /// `--coverage`'s summary (JSON), when it ran.
        package var coverage: String?
        /// The shard `--shard K/N` ran, as `K/N` (nil: no shard, or `--shard auto`): what `report` counts shards by,
        /// never the command line re-split (a path holding ` --shard 1` is a word of it).
        package var shard: String?
        /// The scenarios selected, as `uri:line`: each must have a test case that finished, or the merge is not green.
        /// Nil in files written before it was recorded (and by other tools).
        package var selected: [String]?
        /// Under `--shard`: what the partition was computed from (``Sharding/partition(_:count:timings:)``), `N:DIGEST`.
        /// Every shard of one run must record the same, or `report` says the shards split different suites.
        package var partition: String?
        /// `test --dry-run` or `--list`: the run resolved its scenarios and launched none, so its Messages hold pickles
        /// and no test case; `report` on them says nothing ran (exit 5), never a pass.
        package var launchedNothing = false

        package init(
            id: String, commandLine: String, seconds: Double = 0, exitCode: Int32 = 0, error: String? = nil, coverage: String? = nil,
            shard: String? = nil
        ) {
            self.id = id
            self.commandLine = commandLine
            self.shard = shard
            self.seconds = seconds
            self.exitCode = exitCode
            self.error = error
            self.coverage = coverage
        }
    }

    /// A result as JSON; `index` is its place among the run's results.
    static func json(_ result: ScenarioResult, index: Int) -> String {
        let pickle = result.pickle
        let (seconds, attoseconds) = result.duration.components
        var json =
            "{\"index\":\(index),\"feature\":" + JSONWriter.quoted(pickle.featureName) + ",\"name\":" + JSONWriter.quoted(pickle.name)
            + ",\"uri\":" + JSONWriter.quoted(pickle.uri) + ",\"line\":\(pickle.line),\"tags\":["
            + pickle.tags.map(JSONWriter.quoted).joined(separator: ",") + "],\"status\":\"\(result.status.rawValue)\""
            + ",\"duration\":[\(seconds),\(attoseconds)],\"trail\":[" + result.trail.map(JSONWriter.quoted).joined(separator: ",") + "]"
        if let step = result.failedStep { json += ",\"failedStep\":" + JSONWriter.quoted(step) }
        if let message = result.message { json += ",\"message\":" + JSONWriter.quoted(message) }
        json += ",\"outputTail\":" + JSONWriter.quoted(result.outputTail)
        json += ",\"unexpectedRequests\":[" + result.unexpectedRequests.map(JSONWriter.quoted).joined(separator: ",") + "]"
        if let artifacts = result.artifacts { json += ",\"artifacts\":" + JSONWriter.quoted(artifacts) }
        if result.timedOut { json += ",\"timedOut\":true" }
        if let reach = result.coverage { json += ",\"coverage\":" + ScenarioJSONReport.coverage(reach) }
        if result.quarantined { json += ",\"quarantined\":true" }
        if result.flakyFailsTheRun { json += ",\"flakyFailsTheRun\":true" }
        if !result.earlierAttempts.isEmpty {
            // The attempts before this one (`--retries`), each as a result of its own (they have none before them).
            json += ",\"earlierAttempts\":[" + result.earlierAttempts.map { Self.json($0, index: index) }.joined(separator: ",") + "]"
        }
        return json + "}"
    }

    /// A result read back from ``json(_:index:)``; nil when it is not one.
    static func result(_ node: some JSONReading) -> (index: Int, result: ScenarioResult)? {
        // Numbers clamped: a file's record cannot make a duration, an index or a line overflow later arithmetic.
        guard let index = node["index"]?.int.map({ min(max($0, 0), 1 << 36) }), let uri = node["uri"]?.string,
            let line = node["line"]?.int.map({ min(max($0, 0), Int(Int32.max)) }),
            let status = node["status"]?.string.flatMap(ScenarioResult.Status.init(rawValue:)),
            let duration = node["duration"]?.elements.map({ Array($0) }), duration.count == 2, let seconds = duration[0].int,
            let attoseconds = duration[1].int
        else { return nil }
        let strings = { (key: MessagesKey) in node[key]?.elements?.compactMap(\.string) ?? [] }
        let pickle = Pickle(
            uri: uri, featureName: node["feature"]?.string ?? "", ruleName: nil, name: node["name"]?.string ?? "", line: line,
            scenarioLine: line, tags: strings("tags"), steps: [])
        var result = ScenarioResult(
            pickle: pickle, status: status,
            duration: Duration(
                secondsComponent: Int64(min(max(seconds, 0), MessagesReader.maxSeconds)),
                attosecondsComponent: Int64(min(max(attoseconds, 0), 999_999_999_999_999_999))),
            trail: strings("trail"), outputTail: node["outputTail"]?.string ?? "", unexpectedRequests: strings("unexpectedRequests"))
        result.failedStep = node["failedStep"]?.string
        result.message = node["message"]?.string
        result.artifacts = node["artifacts"]?.string
        result.timedOut = node["timedOut"]?.bool ?? false
        result.quarantined = node["quarantined"]?.bool ?? false
        result.flakyFailsTheRun = node["flakyFailsTheRun"]?.bool ?? false
        // At most the attempts `--retries` allows; an attempt's own attempts are not read (no recursion on a file).
        result.earlierAttempts = node.list("earlierAttempts").prefix(maxAttempts).compactMap { attempt in
            attempt["earlierAttempts"] == nil ? Self.result(attempt)?.result : nil
        }
        if let reach = node["coverage"] {
            let names = { (key: MessagesKey) in reach[key]?.elements?.compactMap(\.string) ?? [] }
            result.coverage = ScenarioReach(files: names("files"), functions: names("functions"))
        }
        return (index, result)
    }

    /// The run's record, with the results that have no test case.
    static func json(_ run: Run, orphans: [(index: Int, result: ScenarioResult)]) -> String {
        var text = "{\"runId\":" + JSONWriter.quoted(run.id) + ",\"commandLine\":" + JSONWriter.quoted(run.commandLine)
        text += ",\"seconds\":" + JSONWriter.number(run.seconds) + ",\"exitCode\":\(run.exitCode)"
        if let error = run.error { text += ",\"error\":" + JSONWriter.quoted(error) }
        if let coverage = run.coverage { text += ",\"coverage\":" + coverage }
        if let shard = run.shard { text += ",\"shard\":" + JSONWriter.quoted(shard) }
        if let selected = run.selected { text += ",\"selected\":[" + selected.map(JSONWriter.quoted).joined(separator: ",") + "]" }
        if let partition = run.partition { text += ",\"partition\":" + JSONWriter.quoted(partition) }
        if run.launchedNothing { text += ",\"launchedNothing\":true" }
        return text + ",\"orphans\":[" + orphans.map { json($0.result, index: $0.index) }.joined(separator: ",") + "]}"
    }

    static func run(_ node: JSONNode) -> (run: Run, orphans: [(index: Int, result: ScenarioResult)])? {
        guard let id = node["runId"]?.string, let exitCode = node["exitCode"]?.int, let seconds = node["seconds"]?.double else {
            return nil
        }
        // What report counts shards and scenarios by: present, it must say so plainly (else the record is refused).
        guard node["shard"] == nil || node["shard"]?.string.flatMap(shard) != nil else { return nil }
        var selected: [String]?
        if let list = node["selected"] {
            guard let elements = list.elements else { return nil }
            selected = elements.compactMap(\.string)
            guard selected?.count == elements.count else { return nil }
        }
        var run = Run(
            id: id, commandLine: node["commandLine"]?.string ?? "",
            seconds: seconds.isFinite ? min(max(seconds, 0), Double(MessagesReader.maxSeconds)) : 0, exitCode: Int32(clamping: exitCode),
            error: node["error"]?.string, coverage: node["coverage"].map(JSONWriter.write), shard: node["shard"]?.string)
        run.selected = selected
        run.launchedNothing = node["launchedNothing"]?.bool ?? false
        run.partition = node["partition"]?.string
        return (run, node["orphans"]?.elements?.compactMap(result) ?? [])
    }

    /// `text` as a shard `K/N` with 1 <= K <= N <= 100,000; nil otherwise (a run record's `shard`, and `report`'s
    /// reading of an older record's `--shard` value).
    package static func shard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...100_000).contains(count),
            (1...count).contains(index)
        else { return nil }
        return (index, count)
    }

    /// The shards a merge record's attachment counts, 1 to ``maxShards``; nil when its body says anything else.
    static func shards(_ attachment: some JSONReading) -> Int? {
        guard let body = attachment["body"]?.string, case .int(let count)? = (try? JSONParser.parse(body))?["shards"]?.value,
            (1...maxShards).contains(count)
        else { return nil }
        return count
    }

    /// An attachment envelope holding `body` (JSON) named `fileName`, on a test case or on the run.
    static func attachment(_ body: String, fileName: String, testCaseStartedId: String? = nil, testRunStartedId: String? = nil) -> String {
        "{\"attachment\":{"
            + (testCaseStartedId.map { "\"testCaseStartedId\":" + JSONWriter.quoted($0) + "," } ?? "")
            + (testRunStartedId.map { "\"testRunStartedId\":" + JSONWriter.quoted($0) + "," } ?? "")
            + "\"body\":" + JSONWriter.quoted(body) + ",\"contentEncoding\":\"IDENTITY\",\"mediaType\":\"application/json\",\"fileName\":"
            + JSONWriter.quoted(fileName) + "}}"
    }
}

/// What identifies a run, so `sut-launch report` merges the shards of one run and refuses files of different runs:
/// `--run-id ID`, else the CI's own (GitHub Actions `GITHUB_RUN_ID`, GitLab `CI_PIPELINE_ID`,
/// Buildkite `BUILDKITE_BUILD_ID`, CircleCI `CIRCLE_WORKFLOW_ID`, Jenkins `BUILD_TAG`), else a random id (a run
/// on its own). Every shard of a CI run sees the same variables, so they agree without being told. An id, given or
/// read from a CI variable, is 1 to ``limit`` bytes of printable text (``problem(_:)``): it lands in the Messages, the
/// HTML and `report`'s messages, so a variable holding a line break, an escape or 10 KB is refused, never carried.
package enum RunIdentity {
    /// The longest id, in UTF-8 bytes.
    package static let limit = 200

    /// The CI variables an id is read from, in order: the CI's name and its variable.
    static let ci: [(name: String, variable: String)] = [
        ("github", "GITHUB_RUN_ID"), ("gitlab", "CI_PIPELINE_ID"), ("buildkite", "BUILDKITE_BUILD_ID"),
        ("circleci", "CIRCLE_WORKFLOW_ID"), ("jenkins", "BUILD_TAG"),
    ]

    /// Why `value` cannot identify a run (empty or blank, a space at either end, over ``limit`` bytes, a control character, a line or paragraph
    /// separator, a bidirectional override), or nil when it can.
    package static func problem(_ value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if value.allSatisfy(\.isWhitespace) { return "it is only spaces" }
        if value.first?.isWhitespace == true || value.last?.isWhitespace == true { return "it starts or ends with a space" }
        if value.utf8.count > limit { return "it is \(value.utf8.count) bytes (the limit is \(limit))" }
        if let bad = value.unicodeScalars.first(where: { String($0).escapingControlCharacters() != String($0) }) {
            return "it holds the control character U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return nil
    }

    /// The run's id: `option` (checked by the option's parser), else the CI's, else a random `local:` one.
    /// - Throws: ``UsageError`` naming the CI variable whose value cannot identify a run, and suggesting `--run-id`.
    package static func resolve(_ option: String?, environment: [String: String]) throws(UsageError) -> String {
        if let option, !option.isEmpty { return option }
        for (name, variable) in ci {
            guard let value = environment[variable], !value.isEmpty else { continue }
            // Not GITHUB_RUN_ATTEMPT: "Re-run failed jobs" re-runs the failed shards as attempt 2 beside attempt 1's
            // passed ones, and the merge job of attempt 2 reads both; with the attempt in the id they were two runs,
            // each missing a shard, and a suite that had all passed could never merge green.
            let id = name + ":" + value
            if let problem = problem(value) ?? problem(id) {
                throw UsageError(
                    "the CI variable \(variable) cannot identify the run: \(problem); pass --run-id ID (the same on every shard)")
            }
            return id
        }
        return "local:" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
