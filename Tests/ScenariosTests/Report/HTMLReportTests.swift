import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// The HTML report and `report`'s reading of Messages: hostile text stays text, retries show every attempt, bad
/// input is one error naming file:line, shards merge into one run and files of different runs are refused.
@Suite struct HTMLReportTests {
    /// Hand-written Messages of one scenario run twice (attempt 0 failed and retried, attempt 1 passed), as a
    /// runner with retries writes them; `hostile` goes into names, step text, messages and attachments.
    static func retried(runId: String = "ci:1", hostile: String = "</script><script>alert(1)</script>", finished: Bool = true) -> String {
        let h = String(data: try! JSONSerialization.data(withJSONObject: [hostile], options: []), encoding: .utf8)!.dropFirst(2).dropLast(2)
        var lines = [
            #"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"x"},"runtime":{"name":"x"},"os":{"name":"x"},"cpu":{"name":"x"}}}"#,
            #"{"gherkinDocument":{"uri":"a.feature","feature":{"name":"F \#(h)","children":[{"scenario":{"id":"s","steps":[{"id":"st1","keyword":"When ","text":"x"}]}}]}}}"#,
            #"{"pickle":{"id":"p1","uri":"a.feature","location":{"line":3},"name":"flaky \#(h)","steps":[{"id":"ps1","text":"I do \#(h)","astNodeIds":["st1"]}],"tags":[{"name":"@t\#(h)"}]}}"#,
            #"{"testRunStarted":{"id":"\#(runId)","timestamp":{"seconds":10,"nanos":0}}}"#,
            #"{"testCase":{"id":"tc1","pickleId":"p1","testSteps":[{"id":"ts1","pickleStepId":"ps1"}]}}"#,
            #"{"testCaseStarted":{"id":"a0","testCaseId":"tc1","attempt":0,"timestamp":{"seconds":10,"nanos":0}}}"#,
            #"{"testStepFinished":{"testCaseStartedId":"a0","testStepId":"ts1","testStepResult":{"status":"FAILED","duration":{"seconds":0,"nanos":5000000},"message":"boom \#(h)"},"timestamp":{"seconds":10,"nanos":5}}}"#,
            #"{"attachment":{"testCaseStartedId":"a0","testStepId":"ts1","body":"out \u001b[31mred\u001b[0m \#(h)","mediaType":"text/plain","contentEncoding":"IDENTITY","fileName":"log.txt"}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"a0","willBeRetried":true,"timestamp":{"seconds":10,"nanos":6}}}"#,
            #"{"testCaseStarted":{"id":"a1","testCaseId":"tc1","attempt":1,"timestamp":{"seconds":11,"nanos":0}}}"#,
            #"{"testStepFinished":{"testCaseStartedId":"a1","testStepId":"ts1","testStepResult":{"status":"PASSED","duration":{"seconds":0,"nanos":1000000}},"timestamp":{"seconds":11,"nanos":1}}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"a1","willBeRetried":false,"timestamp":{"seconds":11,"nanos":2}}}"#,
        ]
        if finished { lines.append(#"{"testRunFinished":{"success":true,"timestamp":{"seconds":12,"nanos":0}}}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func read(_ texts: String..., mergeAny: Bool = false) throws(MessagesReader.Problem) -> ReportRun {
        try MessagesReader.read(texts.enumerated().map { ("f\($0.offset).ndjson", Array($0.element.utf8)) }, mergeAny: mergeAny)
    }

    /// The JSON in the page's data block, parsed back.
    static func data(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try #require(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    @Test func everyAttemptOfARetriedScenarioIsInThePage() throws {
        let run = try Self.read(Self.retried())
        #expect(run.scenarios.count == 1)
        #expect(run.scenarios[0].attempts.map(\.number) == [0, 1])
        #expect(run.scenarios[0].attempts[0].willBeRetried)
        let scenarios = try #require(try Self.data(HTMLReport.render(run))["scenarios"] as? [[String: Any]])
        let attempts = try #require(scenarios[0]["a"] as? [[String: Any]])
        #expect(attempts.map { $0["s"] as? String } == ["failed", "passed"])
        #expect(scenarios[0]["s"] as? String == "passed" && scenarios[0]["flaky"] as? Bool == true)
        #expect(run.results.map(\.status) == [.passed]) // JUnit shows the last attempt
    }

    @Test(arguments: [
        "</script><script>alert(1)</script>", "</style><img src=x onerror=alert(1)>", "\"'><!--", "\u{2028}\u{2029}&amp;",
        "\u{1B}]8;;http://evil/\u{07}link\u{1B}]8;;\u{07}", "<!--<script>",
    ])
    func hostileTextCannotLeaveTheDataBlock(_ hostile: String) throws {
        let html = HTMLReport.render(try Self.read(Self.retried(hostile: hostile)))
        // The page's own markup only: two scripts, one style, no tag or entity the data could open.
        #expect(html.components(separatedBy: "<script").count == 3)
        #expect(html.components(separatedBy: "</script").count == 3)
        #expect(html.components(separatedBy: "</style").count == 2)
        #expect(html.components(separatedBy: "<!--").count == 1)
        #expect(!html.contains("\u{2028}") && !html.contains("\u{2029}"))
        #expect(!html.contains("<img") && html.range(of: #"(src|href)\s*=\s*["']?\s*(https?:|//)"#, options: .regularExpression) == nil)
        // And the data still says exactly what the Messages said.
        let scenarios = try #require(try Self.data(html)["scenarios"] as? [[String: Any]])
        #expect((scenarios[0]["n"] as? String) == "flaky " + hostile)
    }

    @Test func pageDataEscapesWhatEndsOrOpensMarkup() {
        var page = PageData(capacity: 0)
        page.quoted("</script>&\u{2028}")
        #expect(String(decoding: page.bytes, as: UTF8.self) == #""\u003c/script\u003e\u0026\u2028""#)
    }

    @Test(arguments: [
        ("{\"meta\":{}}\nnot json\n", "f0.ndjson:2:1: not JSON"),
        ("{\"meta\":{}}\n{\"meta\":{\"protocolVersion\":", "f0.ndjson:2:28: not JSON"),
        ("{\"meta\":{}}\n{\"meta\":{\"x\":1,\"x\":2}}\n", "f0.ndjson:2:16: not JSON: duplicate key \"x\" (first at column 10)"),
        ("{\"meta\":{}}\n{\"bogus\":{}}\n", "f0.ndjson:2: unknown envelope \"bogus\""),
        ("[1,2]\n", "f0.ndjson:1: not a Cucumber Messages envelope"),
        ("{\"testCase\":{\"id\":\"1\",\"pickleId\":\"nope\"}}\n", "f0.ndjson:1: a testCase whose pickle"),
    ])
    func badInputIsOneErrorNamingFileAndLine(_ input: String, _ expected: String) throws {
        do {
            _ = try Self.read(input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// The attack's finds: a file's own success flag over a failed step, ids given twice, a second run in one file, a
    /// status Cucumber does not have, a second key on a skipped envelope, a test case never started.
    @Test(arguments: [
        ("duplicate pickle", "pickle\":{\"id\":\"p1\"", "a second pickle with id p1"),
        ("duplicate case", "testCase\":{\"id\":\"tc1\"", "a second testCase with id tc1"),
        ("second run", "testRunStarted", "a second testRunStarted"),
    ])
    func envelopesGivenTwiceAreRefused(_ name: String, _ marker: String, _ expected: String) throws {
        var lines = Self.retried().split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(marker) }, "\(name)")
        lines.insert(lines[index], at: index + 1)
        do {
            _ = try Self.read(lines.joined(separator: "\n") + "\n")
            Issue.record("accepted \(name)")
        } catch { #expect(error.description.contains(expected), "\(error)") }
    }

    @Test func aFileCannotTalkAFailureIntoAPass() throws {
        // The last attempt failed, yet the file says success: the run failed all the same.
        let failed = Self.retried().replacingOccurrences(of: #""status":"PASSED""#, with: #""status":"FAILED""#)
        #expect(try Self.read(failed).exitCode == 1)
        for status in ["PASSED_X", "passed", ""] {
            let odd = Self.retried().replacingOccurrences(of: #""status":"PASSED""#, with: #""status":"\#(status)""#)
            #expect(throws: MessagesReader.Problem.self, "\(status)") { try Self.read(odd) }
        }
        let twoKeys = Self.retried().replacingOccurrences(
            of: #"{"meta":{"protocolVersion""#, with: #"{"source":{},"meta":{"protocolVersion""#)
        #expect(throws: MessagesReader.Problem.self) { try Self.read(twoKeys) }
        // A test case announced and never started did not run.
        let unstarted = Self.retried().replacingOccurrences(
            of: #"{"testCaseStarted":{"id":"a0""#,
            with: #"{"testCase":{"id":"tc2","pickleId":"p1","testSteps":[{"id":"tc2s1","pickleStepId":"ps1"}]}}"# + "\n"
                + #"{"testCaseStarted":{"id":"a0""#)
        let run = try Self.read(unstarted)
        #expect(run.exitCode == 1 && run.error?.contains("1 test case that never started") == true, "\(run.error ?? "")")
        #expect(try Self.read(Self.retried()).exitCode == 0)
    }

    /// Another tool's Messages (no sut-launch records) keep their retries: the failed attempt is an earlier one.
    @Test func retriesInAnotherToolsMessagesStayFlaky() throws {
        let results = try Self.read(Self.retried()).results
        #expect(results.count == 1 && results[0].flaky && results[0].earlierAttempts.first?.status == .failed)
        #expect(RunReports.junit(try Self.read(Self.retried()), strict: false).contains("<flakyFailure"))
    }

    @Test func aLineOverTheLimitIsRefusedByName() throws {
        let huge = "{\"meta\":{}}\n{\"meta\":{\"x\":\"" + String(repeating: "a", count: 1000) + "\"}}\n"
        #expect(throws: MessagesReader.Problem.self) { try MessagesReader.read([("f0.ndjson", Array(huge.utf8))], lineLimit: 1000) }
        do { _ = try MessagesReader.read([("f0.ndjson", Array(huge.utf8))], lineLimit: 1000) } catch {
            #expect(error.description.hasPrefix("f0.ndjson:2: a line of 1017 bytes (the limit is 1000)"))
        }
    }

    @Test func aRunCutShortIsRenderedAndSaysSo() throws {
        let run = try Self.read(Self.retried(finished: false))
        #expect(run.incomplete == ["f0.ndjson"])
        #expect(run.exitCode == 1)
        #expect(run.error?.contains("no testRunFinished") == true)
        // The verdict line says why the run is not whole ("cut short"; a missing shard names the shard).
        #expect(try Self.data(HTMLReport.render(run))["run"].flatMap { ($0 as? [String: Any])?["incomplete"] as? String } == "cut short")
    }

    @Test func filesOfDifferentRunsAreRefusedUnlessMergeAny() throws {
        do {
            _ = try Self.read(
                Self.retried(runId: "ci:1"), Self.retried(runId: "ci:2").replacingOccurrences(of: "a.feature", with: "b.feature"))
            Issue.record("merged two runs")
        } catch {
            #expect(error.differentRuns && error.description.contains("--merge-any"))
        }
        let merged = try Self.read(
            Self.retried(runId: "ci:1"), Self.retried(runId: "ci:2").replacingOccurrences(of: "a.feature", with: "b.feature"),
            mergeAny: true)
        #expect(merged.scenarios.count == 2)
        // One shard given twice: the same scenario in both.
        #expect(throws: MessagesReader.Problem.self) { try Self.read(Self.retried(), Self.retried()) }
    }

    @Test func mergedMessagesReadAsTheShardsRead() throws {
        let first = Self.retried(runId: "ci:7")
        let second = Self.retried(runId: "ci:7").replacingOccurrences(of: "a.feature", with: "b.feature")
        let shards = try Self.read(first, second)
        let merged = MessagesMerge.merge([Array(first.utf8), Array(second.utf8)])
        let again = try MessagesReader.read([("merged", merged)])
        #expect(again.scenarios.map(\.location) == shards.scenarios.map(\.location))
        #expect(again.scenarios.map { $0.attempts.count } == [2, 2])
        #expect(again.runIds == ["ci:7"] && again.incomplete.isEmpty)
        #expect(String(decoding: merged, as: UTF8.self).components(separatedBy: "\"testRunFinished\"").count == 2)
    }

    /// HOSTILE 1: numbers at the edges in durations, timestamps, attempts, indexes and lines are clamped, never a trap.
    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "1e300", "-1", "0"])
    func numbersAtTheEdgesAreClampedNotATrap(_ number: String) throws {
        let hostile = Self.retried()
            .replacingOccurrences(of: #""seconds":0,"#, with: #""seconds":\#(number),"#)
            .replacingOccurrences(of: #""seconds":10,"#, with: #""seconds":\#(number),"#)
            .replacingOccurrences(of: #""attempt":1"#, with: #""attempt":\#(number)"#)
            .replacingOccurrences(of: #""line":3"#, with: #""line":\#(number)"#)
        let run = try Self.read(hostile)
        let record = ReportRecord.attachment(
            #"{"index":\#(number),"uri":"a","line":\#(number),"status":"failed","duration":[\#(number),\#(number)]}"#,
            fileName: ReportRecord.resultFile, testCaseStartedId: "a1")
        var runs = [run]
        do {
            runs.append(
                try Self.read(
                    hostile.replacingOccurrences(
                        of: #"{"testCaseFinished":{"testCaseStartedId":"a1""#,
                        with: record + "\n" + #"{"testCaseFinished":{"testCaseStartedId":"a1""#)))
        } catch {
            #expect(number == "1e300" && error.description.hasPrefix("f0.ndjson:12: sut-launch-result.json lacks"), "\(error)")
        }
        for run in runs {
            _ = HTMLReport.render(run)
            _ = RunReports.junit(run, strict: false)
            _ = RunReports.json(run)
        }
        _ = MessagesMerge.merge([Array(hostile.utf8), Array(hostile.replacingOccurrences(of: "a.feature", with: "b.feature").utf8)])
    }

    /// HOSTILE 7: CRLF line endings, a byte order mark and no final newline read as the plain file does; invalid
    /// UTF-8 in a string is one error naming the line, or read with U+FFFD, never a crash.
    @Test func lineEndingsAndByteOrderMarkReadTheSame() throws {
        let plain = try Self.read(Self.retried())
        // ("\r\n" is one Character: dropLast(1) drops the final line ending.)
        let crlf = try Self.read("\u{FEFF}" + Self.retried().replacingOccurrences(of: "\n", with: "\r\n").dropLast(1))
        #expect(HTMLReport.render(plain) == HTMLReport.render(crlf))
        var bytes = Array(Self.retried().utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "F")))
        bytes[at] = 0xFF
        do {
            let run = try MessagesReader.read([("bad.ndjson", bytes)])
            _ = HTMLReport.render(run)
        } catch {
            #expect(error.description.hasPrefix("bad.ndjson:2:") && !error.description.contains("\n"))
        }
    }
}
