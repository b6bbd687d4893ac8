import Foundation
import Testing

/// `sut-launch report` and `test --rerun-failed` read one Messages file one way (the fifth attack): a step with two
/// results is the worse of them in both, a step with no result is not a pass in both, and an attempt without
/// `testCaseFinished` is never passed (an error in every report, the HTML page's too; rerun), with sut-launch's own
/// records or without them (another Cucumber tool's file).
@Suite struct ReportReadsOneWayEndToEndTests {
    typealias Envelope = [String: Any]

    /// `g.feature` run once: its Messages as envelopes, with and without sut-launch's attachments.
    static func messages(_ directory: URL) throws -> (own: [Envelope], stripped: [Envelope]) {
        _ = try CLI.write("Feature: G\n  Scenario: a\n    When I run \"true\"\n    Then the exit code is 0\n", "g.feature", in: directory)
        let ran = try CLI.run(["test", "-q", "--messages", "g.ndjson", "g.feature"], cwd: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let own = try ReportCompletenessEndToEndTests.envelopes(directory, "g.ndjson")
        let stripped = own.filter { ($0["attachment"] as? Envelope)?["fileName"] == nil }
        return (own, stripped)
    }

    /// The testStepFinished envelopes, in order.
    static func stepResults(_ envelopes: [Envelope]) -> [Int] {
        envelopes.indices.filter { envelopes[$0]["testStepFinished"] != nil }
    }

    /// Report's exit and whether --rerun-failed selects the scenario, for one file.
    static func verdicts(_ envelopes: [Envelope], _ name: String, in directory: URL) throws -> (
        report: Int32, rerun: Bool, rerunStatus: Int32
    ) {
        try ReportCompletenessEndToEndTests.write(envelopes, name, in: directory)
        let report = try CLI.run(
            ["report", "--json", "\(name).json", "--junit", "\(name).xml", "--html", "\(name).html", name], cwd: directory)
        let rerun = try CLI.run(["test", "--list", "--rerun-failed", name, "g.feature"], cwd: directory)
        return (report.status, rerun.stdout.contains("g.feature:2"), rerun.status)
    }

    @Test func aStepWithTwoResultsIsTheWorseInBoth() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (own, stripped) = try Self.messages(directory)
        for (name, file) in [("own2.ndjson", own), ("g2.ndjson", stripped)] {
            var edited = file
            let second = Self.stepResults(edited)[1]
            // The same step's result, FAILED, before its PASSED one.
            let failed = ReportCompletenessEndToEndTests.edit(edited[second], "testStepFinished") { finished in
                var result = finished["testStepResult"] as? Envelope ?? [:]
                result["status"] = "FAILED"
                result["message"] = "boom"
                finished["testStepResult"] = result
            }
            edited.insert(failed, at: second)
            let (report, rerun, _) = try Self.verdicts(edited, name, in: directory)
            #expect(report == 1, "\(name): report exit \(report)")
            #expect(rerun, "\(name): --rerun-failed did not select the scenario")
        }
    }

    /// r12 R12-4: a FAILED result for a step its test case does not list (another tool's file, a test case cut) was
    /// dropped by `report` (exit 0, green JUnit) while `--rerun-failed` counted it: both refuse the file by name now.
    @Test func aResultForAStepItsTestCaseDoesNotHoldIsRefusedByBoth() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (own, stripped) = try Self.messages(directory)
        for (name, file) in [("own3.ndjson", own), ("g3.ndjson", stripped)] {
            let second = Self.stepResults(file)[1]
            let edited = file.indices.map { index in
                index != second
                    ? file[index]
                    : ReportCompletenessEndToEndTests.edit(file[index], "testStepFinished") { finished in
                        finished["testStepId"] = "not-a-step"
                        finished["testStepResult"] = ["status": "FAILED", "message": "boom", "duration": ["seconds": 0, "nanos": 0]]
                    }
            }
            try ReportCompletenessEndToEndTests.write(edited, name, in: directory)
            let report = try CLI.run(["report", "--junit", "\(name).xml", name], cwd: directory)
            #expect(report.status == 3 && report.stderr.contains("not a step of its testCase"), "\(name): \(report.stderr)")
            let rerun = try CLI.run(["test", "--list", "--rerun-failed", name, "g.feature"], cwd: directory)
            #expect(rerun.status != 0 && rerun.stderr.contains("not a step of its testCase"), "\(name): \(rerun.stderr)")
        }
    }

    @Test func aStepWithNoResultIsNotAPassInBoth() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, stripped) = try Self.messages(directory)
        var withoutResult = stripped
        withoutResult.remove(at: Self.stepResults(stripped)[1])
        let (report, rerun, _) = try Self.verdicts(withoutResult, "g1.ndjson", in: directory)
        #expect(report == 1 && rerun, "report \(report), rerun selects: \(rerun)")
        // Its testStepStarted gone too.
        let started = withoutResult.lastIndex { $0["testStepStarted"] != nil }
        if let started { withoutResult.remove(at: started) }
        let (report3, rerun3, _) = try Self.verdicts(withoutResult, "g3.ndjson", in: directory)
        #expect(report3 == 1 && rerun3, "report \(report3), rerun selects: \(rerun3)")
    }

    /// r13 R13-5: an attempt without its `testCaseFinished` (a FAILED step in it or not) was "not run" to `report`, a
    /// JUnit of no failure and no error, while `--rerun-failed` refused the file. One rule: an error in every report,
    /// and a scenario to rerun.
    @Test func anAttemptThatNeverFinishedIsAnErrorAndRerun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (own, stripped) = try Self.messages(directory)
        for (name, file) in [("own6.ndjson", own), ("v6.ndjson", stripped)] {
            let unfinished = file.filter { $0["testCaseFinished"] == nil }
            let (report, rerun, rerunStatus) = try Self.verdicts(unfinished, name, in: directory)
            #expect(report == 1, "\(name): report exit \(report)")
            #expect(rerun && rerunStatus == 0, "\(name): --rerun-failed did not select it (exit \(rerunStatus))")
            let json = try ReportGapsEndToEndTests.text(directory, "\(name).json")
            #expect(json.contains("never finished") && !json.contains("\"notRun\":1"), "\(json)")
            let junit = try ReportGapsEndToEndTests.text(directory, "\(name).xml")
            #expect(junit.contains("<error") && !junit.contains("errors=\"0\"") && !junit.contains("<skipped"), "\(junit)")
            // r14 R14-5: the page took the record alone: "all passed" beside this error.
            let page = try ReportGapsEndToEndTests.text(directory, "\(name).html")
            #expect(page.contains(#""s":"error""#) && !page.contains(#""s":"passed""#), "\(name)")
        }
    }

    /// r14 R14-5, the wider shape: sut-launch's record saying passed over a FAILED step is failed on the page too, as in
    /// JUnit and JSON (the page showed the record's "passed").
    @Test func thePageShowsTheWorseOfRecordAndSteps() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var (own, _) = try Self.messages(directory)
        let last = try #require(Self.stepResults(own).last)
        own[last] = ReportCompletenessEndToEndTests.edit(own[last], "testStepFinished") { finished in
            finished["testStepResult"] = ["status": "FAILED", "message": "boom", "duration": ["seconds": 0, "nanos": 1]]
        }
        let (report, rerun, _) = try Self.verdicts(own, "f7.ndjson", in: directory)
        #expect(report == 1 && rerun)
        let page = try ReportGapsEndToEndTests.text(directory, "f7.ndjson.html")
        #expect(page.contains(#""s":"failed""#) && !page.contains(#""s":"passed""#))
    }

    /// r14 R14-4: a quarantined scenario whose attempt failed and never finished was a quarantined skip to `report`
    /// (exit 0) while `--rerun-failed` reran it: a quarantine excuses a failure, not a run cut short.
    @Test func aQuarantinedAttemptThatNeverFinishedIsAnErrorToo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: G\n  @quarantine\n  Scenario: q\n    When I run \"false\"\n    Then the exit code is 0\n", "g.feature", in: directory)
        let ran = try CLI.run(["test", "-q", "--messages", "q.ndjson", "g.feature"], cwd: directory)
        #expect(ran.status == 0, "a quarantined failure: \(ran.stderr)")
        let unfinished = try ReportCompletenessEndToEndTests.envelopes(directory, "q.ndjson").filter { $0["testCaseFinished"] == nil }
        try ReportCompletenessEndToEndTests.write(unfinished, "qu.ndjson", in: directory)
        let report = try CLI.run(["report", "--junit", "qu.xml", "--html", "qu.html", "qu.ndjson"], cwd: directory)
        #expect(report.status == 1, "\(report.stderr)")
        let junit = try ReportGapsEndToEndTests.text(directory, "qu.xml")
        #expect(junit.contains("<error") && !junit.contains("<skipped"), "\(junit)")
        let page = try ReportGapsEndToEndTests.text(directory, "qu.html")
        #expect(page.contains(#""s":"error""#) && !page.contains(#""s":"quarantined""#))
        let rerun = try CLI.run(["test", "--list", "--rerun-failed", "qu.ndjson", "g.feature"], cwd: directory)
        #expect(rerun.status == 0 && rerun.stdout.contains("g.feature:3"), "\(rerun.stdout)\(rerun.stderr)")
    }
}
