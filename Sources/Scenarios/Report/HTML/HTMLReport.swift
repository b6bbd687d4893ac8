import AutomationSupport
import ProcessEngine

/// The HTML report (`--html`): one self-contained page (inline CSS and JS, a Content-Security-Policy that allows no
/// request at all) rendered from a ``ReportRun``, so `test` and `report` write the same bytes from the same
/// Messages. The run's data sits in a `<script type="application/json">` block, with `<`, `>`, `&`, U+2028 and
/// U+2029 written as `\u003c`-style escapes: nothing a program printed, nor a name or step text, can end the block
/// or start markup. The page's script builds the DOM from it with `textContent` only (never markup from data), in
/// chunks as the list scrolls, so 20,000 scenarios open at once.
package enum HTMLReport {
    /// Any one text (output, message, attachment) is cut to this many characters in the page.
    static let textCap = 1 << 20

    package static func render(_ run: ReportRun) -> String { String(decoding: renderBytes(run), as: UTF8.self) }

    /// The page's bytes.
    package static func renderBytes(_ run: ReportRun) -> [UInt8] {
        var page = PageData(capacity: HTMLPage.head.utf8.count + HTMLPage.tail.utf8.count + run.scenarios.count * 700)
        page.raw(HTMLPage.head)
        page.raw("{\"run\":")
        header(run, &page)
        page.raw(",\"scenarios\":[")
        for (offset, scenario) in run.scenarios.enumerated() {
            if offset > 0 { page.raw(",\n") }
            self.scenario(scenario, &page)
        }
        page.raw("]}")
        page.raw(HTMLPage.tail)
        return page.bytes
    }

    /// The run's header: counts come from the scenarios in the page's script.
    private static func header(_ run: ReportRun, _ page: inout PageData) {
        let commandLines = run.records.map(\.run.commandLine).filter { !$0.isEmpty }
        page.raw("{\"shards\":\(run.shards),\"seconds\":" + JSONWriter.number((run.seconds * 1000).rounded() / 1000))
        page.raw(",\"exitCode\":\(run.exitCode),\"runIds\":")
        page.quoted(run.runIds.map { $0.escapingControlCharacters() }) // read back from files: shown escaped, as on the console
        page.raw(",\"commandLines\":")
        page.quoted(unique(commandLines))
        if let error = run.error {
            page.raw(",\"error\":")
            page.quoted(error)
        }
        // What failed the run beside its scenarios (hooks, feature files that did not load), and a failure no result
        // names (coverage, the file's own word): the verdict never reads "all passed" for them (r15b).
        page.raw(",\"runErrors\":")
        page.quoted(run.runResults.map { "\($0.pickle.name): \($0.message ?? $0.status.rawValue)" })
        if let failure = run.unattributedFailure {
            page.raw(",\"failure\":")
            page.quoted(failure)
        }
        // Why the run is not whole, for the verdict line (a file cut short, a shard missing...): one verdict everywhere.
        if let reason = run.incompleteness.first {
            let shown = run.incomplete.isEmpty ? reason : "cut short"
            page.raw(",\"incomplete\":")
            page.quoted(String(shown.prefix(300)) + (run.incompleteness.count > 1 ? "; …" : ""))
        }
        page.raw("}")
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    private static func scenario(_ scenario: ReportRun.Scenario, _ page: inout PageData) {
        let results = scenario.attempts.map { checked($0, of: scenario) }
        let statuses = zip(scenario.attempts, results).map { status($0, $1) }
        let flaky = statuses.count > 1 && statuses.last == "passed" && statuses.dropLast().contains { $0 != "passed" }
        // --fail-on-flaky: the flaky pass failed the run, and the page says so as every other report does.
        let failsTheRun = flaky && scenario.attempts.last?.result?.result.flakyFailsTheRun == true
        page.raw("{\"id\":")
        page.quoted(scenario.location)
        page.raw(",\"f\":")
        page.quoted(scenario.feature)
        page.raw(",\"n\":")
        page.quoted(scenario.name)
        page.raw(",\"t\":")
        page.quoted(scenario.tags)
        // A quarantined scenario whose outcome did not decide the run (`@quarantine`, `--quarantine`): its own status,
        // counted and filtered apart, as the console's ◌, JUnit's <skipped> and JSON's "quarantined" say (r6b-3).
        let quarantined = scenario.attempts.last?.result?.result.quarantined == true
        let excused = quarantined && results.last?.failsTheRun == false && statuses.last != "passed" && statuses.last != "notRun"
        page.raw(",\"s\":\"")
        page.raw(failsTheRun ? "failed" : excused ? "quarantined" : statuses.last ?? "unknown")
        page.raw("\"")
        if flaky { page.raw(",\"flaky\":true") }
        if quarantined { page.raw(",\"q\":true") }
        page.raw(",\"d\":")
        page.number(scenario.attempts.last.map(milliseconds) ?? 0)
        page.raw(",\"a\":[")
        for (offset, attempt) in scenario.attempts.enumerated() {
            if offset > 0 { page.raw(",") }
            self.attempt(attempt, status: statuses[offset], &page)
        }
        page.raw("]}")
    }

    /// An attempt's result as JUnit and JSON have it: the worse of its record and its steps, an attempt that never
    /// finished an error (r14 R14-5: the page took the record alone, and showed such attempts passed).
    private static func checked(_ attempt: ReportRun.Attempt, of scenario: ReportRun.Scenario) -> ScenarioResult {
        attempt.result.map { ReportRun.checked($0.result, scenario, attempt) } ?? ReportRun.derived(scenario, attempt)
    }

    /// An attempt's status on the page: its checked result's, `undefined` for one that did not pass over an undefined step.
    private static func status(_ attempt: ReportRun.Attempt, _ result: ScenarioResult) -> String {
        let status = result.status.rawValue
        return status != "passed" && attempt.steps.contains(where: { $0.status == "UNDEFINED" }) ? "undefined" : status
    }

    /// An attempt's duration: its record's, else its steps' added.
    private static func milliseconds(_ attempt: ReportRun.Attempt) -> Int {
        let stepNanos = attempt.steps.reduce(0) { min($0 + $1.nanos, Int.max / 2) }
        return attempt.result.map { Int($0.result.duration.seconds * 1000) } ?? stepNanos / 1_000_000
    }

    /// One attempt as JSON (`status`: ``status(_:)`` of it). Written piece by piece: an interpolated String per
    /// attempt and step cost more than the bytes it held.
    private static func attempt(_ attempt: ReportRun.Attempt, status: String, _ page: inout PageData) {
        let recorded = attempt.result?.result
        page.raw("{\"n\":")
        page.number(attempt.number)
        page.raw(",\"s\":\"")
        page.raw(status)
        page.raw("\",\"d\":")
        page.number(milliseconds(attempt))
        if attempt.willBeRetried { page.raw(",\"retried\":true") }
        if !attempt.finished { page.raw(",\"unfinished\":true") }
        page.raw(",\"steps\":[")
        for (offset, step) in attempt.steps.enumerated() {
            page.raw(offset > 0 ? ",[" : "[")
            page.quoted(step.text)
            page.raw(",\"")
            page.raw(step.status)
            page.raw("\",")
            page.number(step.nanos / 1_000_000)
            if let message = step.message {
                page.raw(",")
                page.quoted(message)
            } else if step.argument != nil {
                page.raw(",null")
            }
            if let argument = step.argument { // its doc string or table, cut at textCap as every text
                page.raw(",")
                page.quoted(argument)
            }
            page.raw("]")
        }
        page.raw("]")
        if let recorded {
            if let step = recorded.failedStep { member("fs", step, &page) }
            if let message = recorded.message { member("m", message, &page) }
            if !recorded.outputTail.isEmpty { member("out", recorded.outputTail, &page) }
            if !recorded.unexpectedRequests.isEmpty {
                page.raw(",\"req\":")
                page.quoted(recorded.unexpectedRequests)
            }
            if let artifacts = recorded.artifacts { member("art", artifacts, &page) }
            if recorded.timedOut { page.raw(",\"timedOut\":true") }
        }
        // sut-launch's own output attachment repeats its record; other tools' attachments are shown as they are.
        let attachments = attempt.attachments.filter { recorded == nil || $0.name != "output.txt" }
        if !attachments.isEmpty {
            page.raw(",\"att\":[")
            for (offset, attachment) in attachments.enumerated() {
                if offset > 0 { page.raw(",") }
                page.quoted([attachment.name, attachment.mediaType, attachment.body])
            }
            page.raw("]")
        }
        page.raw("}")
    }

    /// `,"name":"text"`.
    private static func member(_ name: String, _ text: String, _ page: inout PageData) {
        page.raw(",\"")
        page.raw(name)
        page.raw("\":")
        page.quoted(text)
    }
}
