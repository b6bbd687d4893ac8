import AutomationSupport

/// The scenarios that did not pass in a Cucumber Messages NDJSON file: per test case, its last attempt (the
/// `testCaseStarted` whose `testCaseFinished` is not `willBeRetried`) had a step FAILED, UNDEFINED, AMBIGUOUS, PENDING
/// or UNKNOWN, or sut-launch's record of it (`sut-launch-result.json`) says failed or error, and is not marked
/// quarantined, or it is marked a flaky pass that failed the run (`--fail-on-flaky`): the worse of steps and record,
/// as `sut-launch report` reads the same file. Named by its pickle's `uri` and `location.line`.
///
/// An attempt that never finished (no `testCaseFinished`) and no later attempt of its test case finished: rerun,
/// whatever its steps or marks say (`report` counts it an error).
///
/// The file must be a whole run: it ends with `testRunFinished`, every pickle has a line number, every test case
/// names a pickle of the file, every attempt a test case. A file cut short or damaged could hide a failure (a false
/// green), so it is refused, naming the line.
enum RerunMessages {
    /// The longest envelope read (an attachment of a program's output is capped well below).
    static let lineLimit = 16 << 20
    private static let failing: Set<String> = ["FAILED", "UNDEFINED", "AMBIGUOUS", "PENDING", "UNKNOWN"]

    private struct Run {
        var pickles: [String: (uri: String, line: Int, at: Int, name: String?, identity: RerunFile.Identity?)] = [:]
        /// Each pickle's step ids: a test case must hold a test step for each (``read(_:into:at:file:)``).
        var pickleSteps: [String: [String]] = [:]
        /// The Examples rows of the Gherkin documents: id → cell values (a pickle's row is its second astNodeId).
        var rows: [String: [String]] = [:]
        var pickleOrder: [String] = []
        var testCases: [String: String] = [:]
        /// Per test case, its steps' ids: a step of a last attempt without a result is not a pass (``MessagesVerdict``).
        var caseSteps: [String: [String]] = [:]
        /// Per attempt, each step's result (the worse of two).
        var stepResults: [String: [String: String]] = [:]
        var attempts: [String: (caseId: String, at: Int)] = [:]
        var finished: Set<String> = []
        var failedAttempts: Set<String> = []
        var quarantinedAttempts: Set<String> = []
        /// Last attempts of flaky passes that failed the run (`--fail-on-flaky`).
        var flakyFailures: Set<String> = []
        /// Per test case, its last finished attempt that will not be retried.
        var lastAttempt: [String: String] = [:]
        var runFinished = false
        /// BeforeAll/AfterAll hooks started (`testRunHookStarted` ids) and those that finished PASSED or SKIPPED.
        var runHooksStarted: Set<String> = []
        var runHooksPassed: Set<String> = []
        /// A run hook finished with another status (FAILED, UNKNOWN…).
        var runHookFailed = false
    }

    static func entries(_ bytes: [UInt8], file: String) throws(RerunFile.Problem) -> [RerunFile.Entry] {
        var run = Run()
        var lineNumber = 0
        var lastEnvelope = 1
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            guard line.count <= lineLimit else { throw RerunFile.Problem(file, lineNumber, "an envelope over \(lineLimit >> 20) MiB") }
            let node: JSONNode
            do { node = try JSONParser.parse(Array(line)) } catch {
                throw RerunFile.Problem(file, lineNumber, "not a Messages envelope: \(error.message)")
            }
            lastEnvelope = lineNumber
            if run.runFinished { throw RerunFile.Problem(file, lineNumber, "an envelope after testRunFinished") }
            try read(node, into: &run, at: lineNumber, file: file)
        }
        guard run.runFinished else {
            throw RerunFile.Problem(
                file, lastEnvelope, "no testRunFinished: the earlier run's Messages are cut short (killed, or truncated)")
        }
        // r13 R13-5: such a file was refused here while `report` called the attempt not run; both now count it failed.
        for (attempt, started) in run.attempts where !run.finished.contains(attempt) && run.lastAttempt[started.caseId] == nil {
            run.lastAttempt[started.caseId] = attempt
            run.flakyFailures.insert(attempt) // fails whatever marks it (quarantine too), as a flaky failure does
        }
        return try failed(run, file: file)
    }

    /// The failed scenarios, in pickle order. A run that failed only in a BeforeAll/AfterAll hook (one that did not
    /// finish PASSED or SKIPPED, or never finished) has no failed scenario: every scenario that ran, as its rerun file
    /// lists them, so the rerun reproduces the run rather than running nothing (R10B-5).
    private static func failed(_ run: Run, file: String) throws(RerunFile.Problem) -> [RerunFile.Entry] {
        var failedPickles: Set<String> = []
        for (caseId, attempt) in run.lastAttempt
        where
            ((run.failedAttempts.contains(attempt) || stepsFail(run, caseId: caseId, attempt: attempt))
            && !run.quarantinedAttempts.contains(attempt))
            || run.flakyFailures.contains(attempt)
        {
            if let pickleId = run.testCases[caseId] { failedPickles.insert(pickleId) }
        }
        if failedPickles.isEmpty, run.runHookFailed || !run.runHooksStarted.subtracting(run.runHooksPassed).isEmpty {
            failedPickles = Set(run.lastAttempt.keys.compactMap { run.testCases[$0] })
        }
        var entries: [RerunFile.Entry] = []
        for pickleId in run.pickleOrder where failedPickles.contains(pickleId) {
            guard let pickle = run.pickles[pickleId] else { continue }
            entries.append(.location(path: pickle.uri, line: pickle.line, at: pickle.at, name: pickle.name, identity: pickle.identity))
            guard entries.count <= RerunFile.entryLimit else {
                throw RerunFile.Problem(file, pickle.at, "more than \(RerunFile.entryLimit) failed scenarios")
            }
        }
        return entries
    }

    /// The attempt's steps by ``MessagesVerdict``, as `report` reads them: any status but passed (a step without a
    /// result, or a FAILED among two results) makes it a scenario to rerun.
    private static func stepsFail(_ run: Run, caseId: String, attempt: String) -> Bool {
        let results = run.stepResults[attempt] ?? [:]
        return MessagesVerdict.status((run.caseSteps[caseId] ?? []).map { results[$0] }) != "passed"
    }

    /// The pickle as its identity (``RerunFile/Identity``): name, its row's cells (a row id no document holds: none),
    /// its steps; nil without a name or steps.
    private static func identity(_ pickle: JSONNode, rows: [String: [String]]) -> RerunFile.Identity? {
        guard let name = pickle["name"]?.string, let steps = pickle["steps"]?.elements else { return nil }
        let astIds = (pickle["astNodeIds"]?.elements ?? []).compactMap(\.string)
        let cells = astIds.count > 1 ? rows[astIds[1]] : nil
        let texts = steps.map { (step: JSONNode) -> String in
            let argument: JSONNode? = step["argument"]
            let doc: String? = argument?["docString"]?["content"]?.string
            var cells: [[String]]?
            if let rows = argument?["dataTable"]?["rows"]?.elements {
                cells = rows.map { (row: JSONNode) -> [String] in
                    (row["cells"]?.elements ?? []).map { (cell: JSONNode) -> String in cell["value"]?.string ?? "" }
                }
            }
            return RerunFile.Identity.stepIdentity(step["text"]?.string ?? "", doc: doc, cells: cells)
        }
        return RerunFile.Identity(name: name, cells: cells, steps: texts)
    }

    /// Every table row (an object with an `id` and `cells`) under a Gherkin document, by id.
    private static func collectRows(_ node: JSONNode, into rows: inout [String: [String]]) {
        switch node.value {
        case .object(let members):
            if let id = node["id"]?.string, let cells = node["cells"]?.elements {
                rows[id] = cells.map { $0["value"]?.string ?? "" }
            }
            for member in members { collectRows(member.value, into: &rows) }
        case .array(let elements):
            for element in elements { collectRows(element, into: &rows) }
        default: break
        }
    }

    /// Takes what one envelope says about pickles, test cases, attempts and their steps' results.
    private static func read(_ node: JSONNode, into run: inout Run, at line: Int, file: String) throws(RerunFile.Problem) {
        if let pickle = node["pickle"] {
            guard let id = pickle["id"]?.string, let uri = pickle["uri"]?.string,
                case .int(let number)? = pickle["location"]?["line"]?.value, NumericLimits.featureLine.contains(number)
            else {
                throw RerunFile.Problem(
                    file, line, "a pickle without an id, a uri or a location.line from 1 to \(NumericLimits.featureLine.upperBound)")
            }
            if run.pickles[id] == nil { run.pickleOrder.append(id) }
            run.pickles[id] = (uri, number, line, pickle["name"]?.string, identity(pickle, rows: run.rows))
            run.pickleSteps[id] = (pickle["steps"]?.elements ?? []).compactMap { $0["id"]?.string }
        } else if let document = node["gherkinDocument"] {
            collectRows(document, into: &run.rows)
        } else if let testCase = node["testCase"] {
            guard let id = testCase["id"]?.string, let pickleId = testCase["pickleId"]?.string, run.pickles[pickleId] != nil else {
                throw RerunFile.Problem(file, line, "a testCase without an id or a pickleId naming an earlier pickle")
            }
            // A pickle step left out of its test case has no result to read: the scenario is not "passed" on the
            // steps left (r15b R15B-5); refused as `report` refuses it.
            let covered = Set((testCase["testSteps"]?.elements ?? []).compactMap { $0["pickleStepId"]?.string })
            if let left = run.pickleSteps[pickleId]?.first(where: { !covered.contains($0) }) {
                throw RerunFile.Problem(
                    file, line,
                    "testCase \(String(id.prefix(80)).escapingControlCharacters()) holds no test step for its pickle's step \(String(left.prefix(80)).escapingControlCharacters()): a step left out cannot be reported"
                )
            }
            run.testCases[id] = pickleId
            run.caseSteps[id] = (testCase["testSteps"]?.elements ?? []).compactMap { $0["id"]?.string }
        } else if let started = node["testCaseStarted"] {
            guard let id = started["id"]?.string, let caseId = started["testCaseId"]?.string, run.testCases[caseId] != nil else {
                throw RerunFile.Problem(file, line, "a testCaseStarted without an id or a testCaseId naming an earlier testCase")
            }
            run.attempts[id] = (caseId, line)
        } else if let finished = node["testStepFinished"] {
            guard let attempt = finished["testCaseStartedId"]?.string, run.attempts[attempt] != nil,
                let status = finished["testStepResult"]?["status"]?.string
            else {
                throw RerunFile.Problem(file, line, "a testStepFinished without a status or a testCaseStartedId naming an attempt")
            }
            // A result for a step its test case does not hold: refused, as `report` refuses it (r12 R12-4).
            guard let step = finished["testStepId"]?.string, let caseId = run.attempts[attempt]?.0,
                run.caseSteps[caseId]?.contains(step) == true
            else { throw RerunFile.Problem(file, line, "a testStepFinished whose testStepId is not a step of its testCase") }
            if failing.contains(status) { run.failedAttempts.insert(attempt) }
            let earlier = run.stepResults[attempt]?[step]
            run.stepResults[attempt, default: [:]][step] = earlier.map { MessagesVerdict.worse($0, status) } ?? status
        } else if let attachment = node["attachment"], let attempt = attachment["testCaseStartedId"]?.string {
            switch attachment["mediaType"]?.string {
            case "application/vnd.sut-launch.quarantine": run.quarantinedAttempts.insert(attempt)
            case "application/vnd.sut-launch.fail-on-flaky": run.flakyFailures.insert(attempt)
            case "application/json" where attachment["fileName"]?.string == ReportRecord.resultFile:
                let status = attachment["body"]?.string.flatMap { try? JSONParser.parse($0) }?["status"]?.string
                // notRun: a scenario --fail-fast (or an interruption) never started failed the run, as the rerun file says.
                if status == "failed" || status == "error" || status == "notRun" { run.failedAttempts.insert(attempt) }
            default: break
            }
        } else if let finished = node["testCaseFinished"] {
            guard let attempt = finished["testCaseStartedId"]?.string, let started = run.attempts[attempt] else {
                throw RerunFile.Problem(file, line, "a testCaseFinished without a testCaseStartedId naming an attempt")
            }
            run.finished.insert(attempt)
            if finished["willBeRetried"]?.bool != true { run.lastAttempt[started.caseId] = attempt }
        } else if let started = node["testRunHookStarted"] {
            if let id = started["id"]?.string { run.runHooksStarted.insert(id) }
        } else if let finished = node["testRunHookFinished"] {
            let status = finished["result"]?["status"]?.string
            if let id = finished["testRunHookStartedId"]?.string, status == "PASSED" || status == "SKIPPED" {
                run.runHooksPassed.insert(id)
            } else {
                run.runHookFailed = true
            }
        } else if node["testRunFinished"] != nil {
            run.runFinished = true
        }
    }
}
