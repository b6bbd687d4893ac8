import AutomationSupport

/// The scenarios that did not pass in a Cucumber Messages NDJSON file: per test case, its last attempt (the
/// `testCaseStarted` whose `testCaseFinished` is not `willBeRetried`) had a step FAILED, UNDEFINED, AMBIGUOUS or
/// PENDING, and is not marked quarantined. Named by its pickle's `uri` and `location.line`.
enum RerunMessages {
    /// The longest envelope read (an attachment of a program's output is capped well below).
    static let lineLimit = 16 << 20
    private static let failing: Set<String> = ["FAILED", "UNDEFINED", "AMBIGUOUS", "PENDING"]

    private struct Run {
        var pickles: [String: (uri: String, line: Int)] = [:]
        var pickleOrder: [String] = []
        var testCases: [String: String] = [:]
        var attempts: [String: String] = [:]
        var failedAttempts: Set<String> = []
        var quarantinedAttempts: Set<String> = []
        /// Per test case, its last finished attempt that will not be retried.
        var lastAttempt: [String: String] = [:]
    }

    static func entries(_ bytes: [UInt8], file: String) throws(RerunFile.Problem) -> [RerunFile.Entry] {
        var run = Run()
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            guard line.count <= lineLimit else { throw RerunFile.Problem(file, lineNumber, "an envelope over \(lineLimit >> 20) MiB") }
            let node: JSONNode
            do { node = try JSONParser.parse(Array(line)) } catch {
                throw RerunFile.Problem(file, lineNumber, "not a Messages envelope: \(error.message)")
            }
            read(node, into: &run)
        }
        var pickleLine: [String: Int] = [:]
        var entries: [RerunFile.Entry] = []
        for (caseId, attempt) in run.lastAttempt
        where run.failedAttempts.contains(attempt) && !run.quarantinedAttempts.contains(attempt) {
            guard let pickleId = run.testCases[caseId], let pickle = run.pickles[pickleId] else { continue }
            pickleLine[pickleId] = pickle.line
        }
        for pickleId in run.pickleOrder {
            guard pickleLine[pickleId] != nil, let pickle = run.pickles[pickleId] else { continue }
            entries.append(.location(path: pickle.uri, line: pickle.line, at: 1))
            guard entries.count <= RerunFile.entryLimit else {
                throw RerunFile.Problem(file, 1, "more than \(RerunFile.entryLimit) failed scenarios")
            }
        }
        return entries
    }

    /// Takes what one envelope says about pickles, test cases, attempts and their steps' results.
    private static func read(_ node: JSONNode, into run: inout Run) {
        if let pickle = node["pickle"], let id = pickle["id"]?.string, let uri = pickle["uri"]?.string,
            case .int(let line)? = pickle["location"]?["line"]?.value
        {
            if run.pickles[id] == nil { run.pickleOrder.append(id) }
            run.pickles[id] = (uri, line)
        } else if let testCase = node["testCase"], let id = testCase["id"]?.string, let pickleId = testCase["pickleId"]?.string {
            run.testCases[id] = pickleId
        } else if let started = node["testCaseStarted"], let id = started["id"]?.string, let caseId = started["testCaseId"]?.string {
            run.attempts[id] = caseId
        } else if let finished = node["testStepFinished"], let attempt = finished["testCaseStartedId"]?.string,
            let status = finished["testStepResult"]?["status"]?.string, failing.contains(status)
        {
            run.failedAttempts.insert(attempt)
        } else if let attachment = node["attachment"], attachment["mediaType"]?.string == "application/vnd.sut-launch.quarantine",
            let attempt = attachment["testCaseStartedId"]?.string
        {
            run.quarantinedAttempts.insert(attempt)
        } else if let finished = node["testCaseFinished"], let attempt = finished["testCaseStartedId"]?.string,
            finished["willBeRetried"]?.bool != true, let caseId = run.attempts[attempt]
        {
            run.lastAttempt[caseId] = attempt
        }
    }
}
