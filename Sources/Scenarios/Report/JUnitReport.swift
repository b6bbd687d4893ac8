import AutomationSupport
package import Coverage
import ProcessEngine

/// JUnit XML that GitHub Actions, GitLab and Jenkins read: a testsuite per feature, a testcase per scenario
/// (`classname` = feature, `name` = scenario, `time` in seconds), `<failure>` for assertions, `<error>` for
/// scenarios that could not run, and `<system-out>` with the step trail, the output tail and unexpected requests.
package enum JUnitReport {
    /// Captured text per test case is capped at this many characters.
    static let outputCap = 64 * 1024

    /// - Parameter strict: leave out the `file` and `line` attributes, so the report validates against the
    ///   strict Jenkins/Ant schema (`--junit-strict`).
    package static func render(_ results: [ScenarioResult], totalSeconds: Double, strict: Bool = false) -> String {
        var features: [(String, [ScenarioResult])] = []
        for result in results {
            if let index = features.firstIndex(where: { $0.0 == result.pickle.featureName }) {
                features[index].1.append(result)
            } else {
                features.append((result.pickle.featureName, [result]))
            }
        }
        let failures = results.filter(isFailure).count
        let errors = results.filter { $0.failsTheRun && $0.status == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"sut-launch\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(totalSeconds))\">\n"
        for (feature, cases) in features {
            let suiteTime = cases.reduce(0) { $0 + $1.duration.seconds }
            let skipped = cases.filter { $0.status == .notRun || ($0.quarantined && !$0.failsTheRun) }.count
            xml +=
                "  <testsuite name=\"\(escape(feature, inAttribute: true))\" tests=\"\(cases.count)\" failures=\"\(cases.filter(isFailure).count)\""
            xml +=
                " errors=\"\(cases.filter { $0.failsTheRun && $0.status == .error }.count)\" skipped=\"\(skipped)\" time=\"\(seconds(suiteTime))\">\n"
            for result in cases {
                let pickle = result.pickle
                let location = strict ? "" : " file=\"\(escape(pickle.uri, inAttribute: true))\" line=\"\(pickle.line)\""
                xml +=
                    "    <testcase classname=\"\(escape(feature, inAttribute: true))\" name=\"\(escape(pickle.name, inAttribute: true))\"\(location) time=\"\(seconds(result.duration.seconds))\">\n"
                xml += outcome(result)
                xml += "      <system-out>\(escape(cap(systemOut(result))))</system-out>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    static func systemOut(_ result: ScenarioResult) -> String {
        var text = "Scenario: \(result.pickle.name) (\(result.pickle.location))\n" + result.trail.joined(separator: "\n") + "\n"
        if let failedStep = result.failedStep, let message = result.message { text += "\nFailed: \(failedStep)\n\(message)\n" }
        if !result.unexpectedRequests.isEmpty {
            text += "\nUnexpected requests:\n" + result.unexpectedRequests.joined(separator: "\n") + "\n"
        }
        if let artifacts = result.artifacts { text += "\nArtefacts: \(artifacts)\n" }
        if result.status != .passed, !result.outputTail.isEmpty { text += "\n" + result.outputTail }
        return text
    }

    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    static func cap(_ text: String) -> String {
        text.count <= outputCap ? text : String(text.prefix(outputCap)) + "\n[… output truncated]"
    }

    /// XML-escapes text after dropping every terminal escape sequence with its payload (SGR colours, OSC titles and
    /// hyperlinks, their C1 forms) and every C0/C1 control character but TAB, LF and CR
    /// (``Swift/String/strippingTerminalSequences()``); also the non-characters XML 1.0 forbids.
    /// In an attribute (`inAttribute`), TAB, LF and CR are character references: XML's attribute-value normalisation
    /// turns them, written raw, into spaces (a feature path `a\nb.feature` read as `a b.feature`).
    static func escape(_ text: String, inAttribute: Bool = false) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.strippingTerminalSequences().unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            case "\r" where inAttribute: output += "&#13;"
            case "\u{FFFE}", "\u{FFFF}": continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

/// The `--report` JSON of `sut-launch test`.
package enum ScenarioJSONReport {
    /// - Parameters:
    ///   - exitCode: sut-launch's exit code for the run.
    ///   - error: why the run ended early (usage error, invalid file, signal), if it did.
    ///   - coverage: `--coverage`'s summary, as JSON, if it ran.
    package static func render(
        _ results: [ScenarioResult], totalSeconds: Double, exitCode: Int32, error: String? = nil, coverage: String? = nil
    ) -> String {
        // The console's and `report`'s counts (a quarantined failure is quarantined, not failed): one function.
        let counts = ScenarioCounts(results)
        var json = "{\"exitCode\":\(exitCode),"
        if let error { json += "\"error\":" + JSONWriter.quoted(error) + "," }
        json += "\"scenarios\":\(results.count),\"passed\":\(counts.passed),\"failed\":\(counts.failed),\"errors\":\(counts.errors)"
        json += ",\"notRun\":\(counts.notRun),\"flaky\":\(counts.flaky)"
        json += ",\"quarantined\":\(counts.quarantined),\"quarantinedFailed\":\(counts.quarantinedFailed)"
        json += ",\"durationMs\":\(Int(totalSeconds * 1000)),\"results\":["
        json += results.map { result in
            var item = "{\"feature\":" + JSONWriter.quoted(result.pickle.featureName) + ",\"name\":" + JSONWriter.quoted(result.pickle.name)
            item +=
                ",\"location\":" + JSONWriter.quoted(result.pickle.location) + ",\"tags\":["
                + result.pickle.tags.map(JSONWriter.quoted).joined(separator: ",") + "]"
            item += ",\"status\":\"\(result.shownStatus.rawValue)\",\"durationMs\":\(Int(result.duration.seconds * 1000))"
            if result.timedOut { item += ",\"timedOut\":true" }
            item += ",\"steps\":[" + result.trail.map(JSONWriter.quoted).joined(separator: ",") + "]"
            if let step = result.failedStep { item += ",\"failedStep\":" + JSONWriter.quoted(step) }
            if let message = result.message { item += ",\"message\":" + JSONWriter.quoted(message) }
            if !result.unexpectedRequests.isEmpty {
                item += ",\"unexpectedRequests\":[" + result.unexpectedRequests.map(JSONWriter.quoted).joined(separator: ",") + "]"
            }
            if let artifacts = result.artifacts { item += ",\"artifacts\":" + JSONWriter.quoted(artifacts) }
            if let reach = result.coverage { item += ",\"coverage\":" + ScenarioJSONReport.coverage(reach) }
            if result.flaky { item += ",\"flaky\":true" }
            if result.flakyFailsTheRun { item += ",\"flakyFailsTheRun\":true" }
            if result.quarantined { item += ",\"quarantined\":true" }
            if !result.earlierAttempts.isEmpty {
                // Every attempt, oldest first; the last is the result above.
                item += ",\"attempts\":[" + (result.earlierAttempts + [result]).map(attempt).joined(separator: ",") + "]"
            }
            return item + "}"
        }.joined(separator: ",\n")
        return json + "]" + (coverage.map { ",\"coverage\":" + $0 } ?? "") + "}\n"
    }

    /// What a scenario reached: `{"files":[...],"functions":[...]}` (the Messages attachment's body too).
    package static func coverage(_ reach: ScenarioReach) -> String {
        "{\"files\":[" + reach.files.map(JSONWriter.quoted).joined(separator: ",") + "],\"functions\":["
            + reach.functions.map(JSONWriter.quoted).joined(separator: ",") + "]}"
    }

    /// One attempt of a retried scenario: how it ended, when, its steps, and why it failed.
    private static func attempt(_ result: ScenarioResult) -> String {
        var item = "{\"status\":\"\(result.status.rawValue)\",\"durationMs\":\(Int(result.duration.seconds * 1000))"
        if result.timedOut { item += ",\"timedOut\":true" }
        item += ",\"steps\":[" + result.trail.map(JSONWriter.quoted).joined(separator: ",") + "]"
        if let step = result.failedStep { item += ",\"failedStep\":" + JSONWriter.quoted(step) }
        if let message = result.message { item += ",\"message\":" + JSONWriter.quoted(message) }
        if let artifacts = result.artifacts { item += ",\"artifacts\":" + JSONWriter.quoted(artifacts) }
        return item + "}"
    }
}
