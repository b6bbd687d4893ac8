import AutomationSupport
import ProcessEngine

/// Reads Cucumber Messages (NDJSON) into a ``ReportRun``: one file, or the files of several shards merged into one
/// run. Every problem names its file and line: a line that is not JSON (a truncated one included), one that is not
/// an envelope, an unknown envelope, a line over ``lineLimit``.
package struct MessagesReader {
    /// Why input was refused: not Messages (exit 3), or files that are not one run (exit 2, `--merge-any` forces).
    package struct Problem: Error, CustomStringConvertible, Sendable {
        package var description: String
        /// Files of different runs, or one scenario in two files: a merge refused, not bad input.
        package var differentRuns = false
    }

    /// The longest line read: a larger one is an error, not the machine's memory.
    package static let lineLimit = 64 << 20

    /// What one file defines, by id.
    struct FileState {
        var features: [String: String] = [:] // uri → feature name
        var keywords: [String: String] = [:] // AST step id → keyword
        var pickles: [String: (uri: String, line: Int, name: String, tags: [String], steps: [String: String])] = [:]
        var hooks: [String: String] = [:]
        var runHooks = MessagesRunHooks()
        var cases: [String: (pickle: String, steps: [(id: String, text: String, argument: String?)])] = [:]
        /// Pickle step id → its doc string or data table as written (`| a | b |` rows), for the HTML page.
        var arguments: [String: String] = [:]
        var started: [String: (scenario: Int, attempt: Int, testCase: String)] = [:]
        var scenarioByPickle: [String: Int] = [:]
        var finished = false
        var runId: String?
        /// `testRunStarted` was read (and its run compared with the other files').
        var identified = false
    }

    private(set) var run = ReportRun()
    private var byLocation: [String: Int] = [:] // "uri:line" → file, for a shard given twice
    /// "uri:line" → the first file's pickle there, as a hash of its text: another file's other text is another checkout.
    private var pickleTexts: [String: (file: Int, text: Int)] = [:]
    private let mergeAny: Bool
    /// Where ``resultRecord(_:at:)`` keeps what it reads of a record (reused, record after record).
    private let recordValues = MessagesValues()
    private let lineLimit: Int

    /// - Parameter mergeAny: merge files whatever run they come from (else files of different runs are refused).
    package init(mergeAny: Bool = false, lineLimit: Int = MessagesReader.lineLimit) {
        self.mergeAny = mergeAny
        self.lineLimit = lineLimit
    }

    /// Reads the files in order (`name` is how errors and the report name each).
    package static func read(_ files: [(name: String, bytes: [UInt8])], mergeAny: Bool = false, lineLimit: Int = lineLimit)
        throws(Problem) -> ReportRun
    {
        var reader = MessagesReader(mergeAny: mergeAny, lineLimit: lineLimit)
        for file in files { try reader.add(file.name, file.bytes) }
        reader.account()
        return reader.run
    }

    /// Reads one file's envelopes into the run.
    package mutating func add(_ name: String, _ bytes: [UInt8]) throws(Problem) {
        // What a run killed mid-way left at its report's name: read as a run, it would be one with no scenario.
        if ReportPlaceholder.isPlaceholder(bytes) { throw Problem(description: "\(name):1: this is \(ReportPlaceholder.reason)") }
        let file = run.files.count
        run.files.append(name)
        var state = FileState()
        try bytes.withUnsafeBufferPointer { (buffer) throws(Problem) in
            var scanner = MessagesLine(buffer)
            var start = 0
            var lineNumber = 0
            while start < buffer.count {
                lineNumber += 1
                let end = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: start) ?? buffer.count
                defer { start = end + 1 }
                if end == start { continue } // a blank line: nothing to read (100 MiB of them once took minutes)
                guard end - start <= lineLimit else {
                    throw Problem(
                        description:
                            "\(name):\(lineNumber): a line of \(end - start) bytes (the limit is \(lineLimit)): not Cucumber Messages?"
                    )
                }
                // Most lines are read by MessagesLine; the rest (an error, a byte order mark...) are parsed whole.
                let place = Place(file: name, line: lineNumber)
                if let (key, value) = scanner.envelope(start..<end) {
                    try envelope(key, value, &state, file: file, at: place)
                } else if let (key, value) = try Self.parse(bytes[start..<end], at: place, last: end == bytes.count) {
                    try envelope(key, value, &state, file: file, at: place)
                }
            }
        }
        if !state.finished { run.incomplete.append(name) }
        for unfinished in state.runHooks.unfinished(hooks: state.hooks, file: name) { run.runHookFailures.append((file, unfinished)) }
        // A test case the file announced but never started did not run: the run cannot have passed.
        let started = Set(state.started.values.map(\.testCase))
        let unstarted = state.cases.keys.filter { !started.contains($0) }.count
        if unstarted > 0 { run.unstarted.append((name, unstarted)) }
        if !state.identified { try checkIdentity(nil, name: name) }
        // The pickles that never started: `account()` decides which of them were meant to run.
        for (id, pickle) in state.pickles where state.scenarioByPickle[id] == nil {
            run.unrun.append(
                ReportRun.Scenario(
                    uri: pickle.uri, line: pickle.line, name: pickle.name, feature: state.features[pickle.uri] ?? "", tags: pickle.tags,
                    file: file))
        }
    }

    /// Every pickle meant to run must have run: those a run record lists as selected (sut-launch's files), or every
    /// pickle of a file without a record (another tool's), unless another file ran it. The rest is ``ReportRun/missing``.
    /// Then the run's ``ReportRun/results`` are made, once.
    package mutating func account() {
        let ran = Set(run.scenarios.map(\.location))
        var wanted: [String: Int] = [:] // location → the file that wanted it
        for record in run.records {
            for location in record.run.selected ?? [] where wanted[location] == nil { wanted[location] = record.file }
        }
        let recorded = Set(run.records.map(\.file))
        var named = Set<String>()
        for var pickle in run.unrun.sorted(by: { ($0.file, $0.uri, $0.line) < ($1.file, $1.uri, $1.line) })
        where !ran.contains(pickle.location) && (wanted[pickle.location] != nil || !recorded.contains(pickle.file)) {
            pickle.file = wanted[pickle.location] ?? pickle.file // the file that selected it names it
            if named.insert(pickle.location).inserted { run.missing.append(pickle) }
        }
        // Files an older sut-launch wrote (no `selected`) number their results 0..<N: a gap is a scenario whose test
        // case is gone, though the file cannot say which.
        for file in Set(run.records.map(\.file)) where !run.records.contains(where: { $0.file == file && $0.run.selected != nil }) {
            var indexes = Set(run.records.filter { $0.file == file }.flatMap { $0.orphans.map(\.index) })
            for scenario in run.scenarios where scenario.file == file {
                for attempt in scenario.attempts { if let index = attempt.result?.index { indexes.insert(index) } }
            }
            if let largest = indexes.max(), largest + 1 > indexes.count { run.gaps.append((run.files[file], largest + 1 - indexes.count)) }
        }
        for (location, file) in wanted.sorted(by: { $0.key < $1.key }) where !ran.contains(location) && !named.contains(location) {
            let uri = String(location[..<(location.lastIndex(of: ":") ?? location.endIndex)])
            let line = Int(location[(location.lastIndex(of: ":").map { location.index(after: $0) } ?? location.endIndex)...]) ?? 0
            run.missing.append(ReportRun.Scenario(uri: uri, line: line, name: "", feature: "", tags: [], file: file))
        }
        run.results = run.collectResults()
    }

    private mutating func checkIdentity(_ id: String?, name: String) throws(Problem) {
        let shown = id ?? "none"
        if !mergeAny, let first = run.runIds.first, first != shown {
            throw Problem(
                description:
                    "\(name): run \(Self.shown(shown)), but \(run.files[0]) is run \(Self.shown(first)): files of different runs are not merged (pass --merge-any to merge them anyway)",
                differentRuns: true)
        }
        if !run.runIds.contains(shown) { run.runIds.append(shown) }
    }

    private mutating func envelope(_ key: Envelope, _ value: some JSONReading, _ state: inout FileState, file: Int, at place: Place)
        throws(Problem)
    {
        switch key {
        case .gherkinDocument: document(value, &state)
        case .pickle:
            guard let id = value["id"]?.string, let uri = value["uri"]?.string else {
                throw Problem(description: "\(place): a pickle without id or uri")
            }
            // A second envelope with an id already read would replace the first: a scenario silently gone.
            guard state.pickles[id] == nil else { throw Problem(description: "\(place): a second pickle with id \(id.prefix(80))") }
            var steps: [String: String] = [:]
            var text = Hasher()
            for step in value.list("steps") {
                var argument: String?
                if let node = step["argument"] { argument = Self.argumentText(node) }
                text.combine(step["text"]?.string)
                text.combine(argument)
                guard let stepId = step["id"]?.string else { continue }
                let keyword = step["astNodeIds"]?.elements?.first(where: { _ in true })?.string.flatMap { state.keywords[$0] } ?? ""
                steps[stepId] = keyword + (step["text"]?.string ?? "")
                if let argument { state.arguments[stepId] = argument }
            }
            let line = value["location"]?["line"]?.int ?? 0
            let tags = value["tags"]?.elements?.compactMap { $0["name"]?.string } ?? []
            let name = value["name"]?.string ?? ""
            state.pickles[id] = (uri, line, name, tags, steps)
            text.combine(name)
            text.combine(tags)
            noteText(text.finalize(), uri: uri, line: line, file: file)
        case .meta:
            guard value.isObject else { throw Problem(description: "\(place): meta is not an object: not Cucumber Messages?") }
        case .parseError:
            // A feature file that did not parse: the run cannot have passed, and every report names it.
            guard let uri = value["source"]?["uri"]?.string, let message = value["message"]?.string else {
                throw Problem(description: "\(place): a parseError without source.uri or message")
            }
            let line = min(max(value["source"]?["location"]?["line"]?.int ?? 0, 0), Int(Int32.max))
            run.parseErrors.append((file, uri, line, message))
        case .hook:
            if let id = value["id"]?.string { state.hooks[id] = value["name"]?.string ?? "hook" }
        case .testCase: try testCase(value, &state, at: place)
        case .testCaseStarted: try testCaseStarted(value, &state, file: file, at: place)
        case .testStepFinished: try stepFinished(value, state, at: place)
        case .attachment: try attachment(value, state, file: file, at: place)
        case .testCaseFinished:
            if let started = value["testCaseStartedId"]?.string, let (scenario, attempt, _) = state.started[started] {
                run.scenarios[scenario].attempts[attempt].finished = true
                run.scenarios[scenario].attempts[attempt].willBeRetried = value["willBeRetried"]?.bool ?? false
            }
        case .testRunStarted:
            guard !state.identified else { throw Problem(description: "\(place): a second testRunStarted: two runs in one file?") }
            state.runId = value["id"]?.string
            if !state.identified { try checkIdentity(state.runId, name: run.files[file]) }
            state.identified = true
            if let at = Self.milliseconds(value["timestamp"]) { run.startedMs = min(run.startedMs ?? at, at) }
        case .testRunHookStarted: try state.runHooks.start(value, hooks: state.hooks, at: place)
        case .testRunHookFinished:
            if let failure = try state.runHooks.finish(value, hooks: state.hooks, at: place) { run.runHookFailures.append((file, failure)) }
        case .testRunFinished:
            state.finished = true
            let succeeded = value["success"]?.bool ?? false
            run.success = run.success && succeeded
            if !succeeded, run.finishMessages.count < 20, let said = Self.finishMessage(value) {
                run.finishMessages.append("\(run.files[file].escapingControlCharacters()): the run says it failed: \(said)")
            }
            if let at = Self.milliseconds(value["timestamp"]) { run.finishedMs = max(run.finishedMs ?? at, at) }
        default: break
        }
    }

    /// Notes a pickle's text at its place: one that differs from an earlier file's there is another checkout's.
    private mutating func noteText(_ text: Int, uri: String, line: Int, file: Int) {
        guard !mergeAny else { return }
        let location = "\(uri):\(line)"
        guard let first = pickleTexts[location] else {
            pickleTexts[location] = (file, text)
            return
        }
        if first.file != file, first.text != text { run.otherTexts.append((file, first.file, uri, line)) }
    }

    private mutating func testCaseStarted(_ value: some JSONReading, _ state: inout FileState, file: Int, at place: Place) throws(Problem) {
        guard let id = value["id"]?.string, let caseId = value["testCaseId"]?.string, let testCase = state.cases[caseId],
            let pickle = state.pickles[testCase.pickle]
        else { throw Problem(description: "\(place): a testCaseStarted whose testCase is not in the file before it") }
        guard state.started[id] == nil else { throw Problem(description: "\(place): a second testCaseStarted with id \(id.prefix(80))") }
        let index: Int
        if let known = state.scenarioByPickle[testCase.pickle] {
            index = known
        } else {
            let location = "\(pickle.uri):\(pickle.line)"
            if !mergeAny, let earlier = byLocation[location], earlier != file {
                throw Problem(
                    description:
                        "\(place): scenario \(location) is in \(run.files[earlier]) too: the same shard given twice? (--merge-any keeps both)",
                    differentRuns: true)
            }
            byLocation[location] = file
            index = run.scenarios.count
            state.scenarioByPickle[testCase.pickle] = index
            run.scenarios.append(
                ReportRun.Scenario(
                    uri: pickle.uri, line: pickle.line, name: pickle.name, feature: state.features[pickle.uri] ?? "", tags: pickle.tags,
                    file: file))
        }
        let attempt = ReportRun.Attempt(
            number: min(max(value["attempt"]?.int ?? 0, 0), 1 << 20),
            steps: testCase.steps.map { ReportRun.Step(text: $0.text, argument: $0.argument) })
        state.started[id] = (index, run.scenarios[index].attempts.count, caseId)
        run.scenarios[index].attempts.append(attempt)
    }

    /// Cucumber's step statuses: any other word is not Cucumber Messages (read as passing, it was a false green).
    static let statuses: Set = ["UNKNOWN", "PASSED", "SKIPPED", "PENDING", "UNDEFINED", "AMBIGUOUS", "FAILED"]

    private mutating func stepFinished(_ value: some JSONReading, _ state: FileState, at place: Place) throws(Problem) {
        let statusNode = value["testStepResult"]?["status"]
        guard statusNode == nil || statusNode?.string != nil else {
            throw Problem(description: "\(place): testStepResult.status is not a string (one of Cucumber's statuses, like \"PASSED\")")
        }
        let status = statusNode?.string ?? "UNKNOWN"
        guard Self.statuses.contains(status) else {
            throw Problem(
                description:
                    "\(place): step status \"\(status.prefix(40))\" is not one of Cucumber's (\(Self.statuses.sorted().joined(separator: ", ")))"
            )
        }
        guard let started = value["testCaseStartedId"]?.string, let (scenario, attempt, caseId) = state.started[started] else {
            throw Problem(description: "\(place): a testStepFinished whose testCaseStarted is not in the file before it")
        }
        // A result for a step its test case does not hold was dropped: a FAILED one read green (r12 R12-4).
        guard let stepId = value["testStepId"]?.string, let position = state.cases[caseId]?.steps.firstIndex(where: { $0.id == stepId })
        else {
            throw Problem(
                description:
                    "\(place): a testStepFinished whose testStepId \(Self.shown(value["testStepId"]?.string ?? "")) is not a step of its testCase \(Self.shown(caseId))"
            )
        }
        guard let result = value["testStepResult"] else { return }
        var step = run.scenarios[scenario].attempts[attempt].steps[position]
        // A second result for one step: the worse stands (a FAILED then PASSED is failed), as --rerun-failed reads it.
        let first = step.reported
        step.reported = true
        step.status = first ? MessagesVerdict.worse(step.status, status) : status
        guard !first || step.status == status else { return }
        let duration = result["duration"]
        // Numbers from the file are clamped to ten years: no overflow, whatever a file says.
        let seconds = min(max(duration?["seconds"]?.int ?? 0, 0), Self.maxSeconds)
        step.nanos = seconds * 1_000_000_000 + min(max(duration?["nanos"]?.int ?? 0, 0), 999_999_999)
        step.message = result["message"]?.string
        run.scenarios[scenario].attempts[attempt].steps[position] = step
    }

    private mutating func attachment(_ value: some JSONReading, _ state: FileState, file: Int, at place: Place) throws(Problem) {
        let name = value["fileName"]?.string ?? ""
        let mediaType = value["mediaType"]?.string ?? "text/plain"
        let base64 = value["contentEncoding"]?.string == "BASE64"
        if mediaType == "application/json", name == ReportRecord.resultFile, !base64 {
            // A result on each test case: read from the body's bytes as the lines are, no String between.
            let recorded = try resultRecord(value["body"]?.utf8 ?? [], at: place)
            if let started = value["testCaseStartedId"]?.string, let (scenario, attempt, _) = state.started[started] {
                run.scenarios[scenario].attempts[attempt].result = recorded
            }
            return
        }
        var body = value["body"]?.string ?? ""
        if base64 { body = "(\(body.utf8.count) bytes of base64)" }
        if mediaType == "application/json", name == ReportRecord.mergeFile {
            guard let shards = ReportRecord.shards(value) else {
                throw Problem(
                    description:
                        "\(place): \(name): its body is not {\"shards\":N} with N a whole number from 1 to \(ReportRecord.maxShards)")
            }
            run.mergedShards[file] = min((run.mergedShards[file] ?? 0) + shards, ReportRecord.maxShards)
            return
        }
        if mediaType == "application/json", name == ReportRecord.resultFile || name == ReportRecord.runFile {
            guard let node = try? JSONParser.parse(Array(body.utf8), repairingUTF8: true) else {
                throw Problem(description: "\(place): \(name) is not JSON")
            }
            if name == ReportRecord.runFile {
                guard let (record, orphans) = ReportRecord.run(node) else {
                    throw Problem(
                        description:
                            "\(place): \(name) lacks runId, exitCode or seconds, or its shard is not K/N or selected not a list of strings")
                }
                run.records.append((file, record, orphans))
                return
            }
            guard let recorded = ReportRecord.result(node) else {
                throw Problem(description: "\(place): \(name) lacks index, uri, line, status or duration")
            }
            if let started = value["testCaseStartedId"]?.string, let (scenario, attempt, _) = state.started[started] {
                run.scenarios[scenario].attempts[attempt].result = recorded
            }
            return
        }
        if let started = value["testCaseStartedId"]?.string, let (scenario, attempt, _) = state.started[started] {
            run.scenarios[scenario].attempts[attempt].attachments.append((name, mediaType, body))
        }
    }

    /// A `sut-launch-result.json` body read: by ``MessagesLine`` (nothing built but what the record reads), else
    /// parsed whole (what it says is wrong).
    private func resultRecord(_ body: [UInt8], at place: Place) throws(Problem) -> (index: Int, result: ScenarioResult) {
        let fast = body.withUnsafeBufferPointer { buffer in
            var scanner = MessagesLine(buffer, values: recordValues)
            return scanner.value(0..<buffer.count).map { ReportRecord.result($0) }
        }
        let recorded: (index: Int, result: ScenarioResult)?
        if let fast {
            recorded = fast
        } else {
            guard let node = try? JSONParser.parse(body, repairingUTF8: true) else {
                throw Problem(description: "\(place): \(ReportRecord.resultFile) is not JSON")
            }
            recorded = ReportRecord.result(node)
        }
        guard let recorded else {
            throw Problem(description: "\(place): \(ReportRecord.resultFile) lacks index, uri, line, status or duration")
        }
        return recorded
    }

    /// The longest duration or time read from a file, in seconds (ten years): larger numbers are clamped to it.
    static let maxSeconds = 10 * 366 * 86_400

    /// A failed `testRunFinished`'s reason: its `message`, else its `exception`'s `type: message`; at most 500
    /// characters, control characters escaped (it is shown on one line).
    static func finishMessage(_ value: some JSONReading) -> String? {
        var text = value["message"]?.string ?? ""
        if text.isEmpty, let exception = value["exception"] {
            text = [exception["type"]?.string ?? "", exception["message"]?.string ?? ""].filter { !$0.isEmpty }.joined(separator: ": ")
        }
        guard !text.isEmpty else { return nil }
        return String(text.prefix(500)).escapingControlCharacters()
    }

    /// A Messages timestamp (`{"seconds":…,"nanos":…}`) in milliseconds (a non-finite or negative one is nil).
    static func milliseconds(_ node: (some JSONReading)?) -> Double? {
        guard let seconds = node?["seconds"]?.double, seconds.isFinite, seconds >= 0, seconds < 1e12 else { return nil }
        return seconds * 1000 + min(max(node?["nanos"]?.double ?? 0, 0), 1e9) / 1_000_000
    }
}
