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

    package static func render(_ run: ReportRun) -> String {
        var data = ""
        data.reserveCapacity(run.scenarios.count * 600)
        data += "{\"run\":" + header(run) + ",\"scenarios\":["
        var first = true
        for scenario in run.scenarios {
            if !first { data += ",\n" }
            first = false
            data += self.scenario(scenario)
        }
        data += "]}"
        return HTMLPage.head + scriptSafe(data) + HTMLPage.tail
    }

    /// The run's header: counts come from the scenarios in the page's script.
    private static func header(_ run: ReportRun) -> String {
        let commandLines = run.records.map(\.run.commandLine).filter { !$0.isEmpty }
        var json = "{\"shards\":\(run.shards),\"seconds\":" + JSONWriter.number((run.seconds * 1000).rounded() / 1000)
        json += ",\"exitCode\":\(run.exitCode),\"runIds\":[" + run.runIds.map(quoted).joined(separator: ",") + "]"
        json += ",\"commandLines\":[" + unique(commandLines).map(quoted).joined(separator: ",") + "]"
        if let error = run.error { json += ",\"error\":" + quoted(error) }
        // Why the run is not whole, for the verdict line (a file cut short, a shard missing...): one verdict everywhere.
        if let reason = run.incompleteness.first {
            let shown = run.incomplete.isEmpty ? reason : "cut short"
            json += ",\"incomplete\":" + quoted(String(shown.prefix(300)) + (run.incompleteness.count > 1 ? "; …" : ""))
        }
        return json + "}"
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    private static func scenario(_ scenario: ReportRun.Scenario) -> String {
        let attempts = scenario.attempts.map(attempt)
        let statuses = attempts.map(\.status)
        let flaky = statuses.count > 1 && statuses.last == "passed" && statuses.dropLast().contains { $0 != "passed" }
        // --fail-on-flaky: the flaky pass failed the run, and the page says so as every other report does.
        let failsTheRun = flaky && scenario.attempts.last?.result?.result.flakyFailsTheRun == true
        var json = "{\"id\":" + quoted(scenario.location) + ",\"f\":" + quoted(scenario.feature) + ",\"n\":" + quoted(scenario.name)
        json +=
            ",\"t\":[" + scenario.tags.map(quoted).joined(separator: ",") + "],\"s\":\""
            + (failsTheRun ? "failed" : statuses.last ?? "unknown") + "\""
        if flaky { json += ",\"flaky\":true" }
        json += ",\"d\":\(attempts.last?.milliseconds ?? 0),\"a\":[" + attempts.map(\.json).joined(separator: ",") + "]}"
        return json
    }

    /// One attempt as JSON, with its status and duration.
    private static func attempt(_ attempt: ReportRun.Attempt) -> (json: String, status: String, milliseconds: Int) {
        let recorded = attempt.result?.result
        let stepStatuses = attempt.steps.map(\.status)
        var status = recorded.map { $0.status.rawValue } ?? ReportRun.status(stepStatuses)
        if status != "passed", stepStatuses.contains("UNDEFINED") { status = "undefined" }
        let stepNanos = attempt.steps.reduce(0) { min($0 + $1.nanos, Int.max / 2) }
        let milliseconds = recorded.map { Int($0.duration.seconds * 1000) } ?? stepNanos / 1_000_000
        var json = "{\"n\":\(attempt.number),\"s\":\"\(status)\",\"d\":\(milliseconds)"
        if attempt.willBeRetried { json += ",\"retried\":true" }
        if !attempt.finished { json += ",\"unfinished\":true" }
        json +=
            ",\"steps\":["
            + attempt.steps.map { step in
                "[" + quoted(step.text) + ",\"" + step.status + "\",\(step.nanos / 1_000_000)"
                    + (step.message.map { "," + quoted($0) } ?? "")
                    + "]"
            }.joined(separator: ",") + "]"
        if let recorded {
            if let step = recorded.failedStep { json += ",\"fs\":" + quoted(step) }
            if let message = recorded.message { json += ",\"m\":" + quoted(message) }
            if !recorded.outputTail.isEmpty { json += ",\"out\":" + quoted(recorded.outputTail) }
            if !recorded.unexpectedRequests.isEmpty {
                json += ",\"req\":[" + recorded.unexpectedRequests.map(quoted).joined(separator: ",") + "]"
            }
            if let artifacts = recorded.artifacts { json += ",\"art\":" + quoted(artifacts) }
            if recorded.timedOut { json += ",\"timedOut\":true" }
        }
        // sut-launch's own output attachment repeats its record; other tools' attachments are shown as they are.
        let attachments = attempt.attachments.filter { recorded == nil || $0.name != "output.txt" }
        if !attachments.isEmpty {
            json +=
                ",\"att\":["
                + attachments.map { "[" + quoted($0.name) + "," + quoted($0.mediaType) + "," + quoted($0.body) + "]" }
                .joined(separator: ",") + "]"
        }
        return (json + "}", status, milliseconds)
    }

    private static func quoted(_ text: String) -> String {
        JSONWriter.quoted(text.utf8.count > textCap ? String(text.prefix(textCap)) + "\n[… cut at \(textCap) characters]" : text)
    }

    /// JSON made safe inside `<script>`: `<`, `>`, `&`, U+2028, U+2029 (only ever inside strings) as `\u` escapes.
    /// Byte by byte (the page of 20,000 scenarios is 6 MB: scalar by scalar, that was a tenth of its time).
    static func scriptSafe(_ json: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(json.utf8.count + json.utf8.count / 16)
        var json = json
        json.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "<"): output += "\\u003c".utf8
                case UInt8(ascii: ">"): output += "\\u003e".utf8
                case UInt8(ascii: "&"): output += "\\u0026".utf8
                // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
                case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80 && bytes[index + 1] & 0xFE == 0xA8:
                    output += (bytes[index + 1] == 0xA8 ? "\\u2028" : "\\u2029").utf8
                    index += 2
                default: output.append(byte)
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
