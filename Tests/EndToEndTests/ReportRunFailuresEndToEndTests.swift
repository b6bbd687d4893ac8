import Foundation
import Testing

/// The r15b attack on reports: a run that exits non-zero with no scenario that failed (coverage, an AfterAll hook,
/// another tool's `testRunFinished` saying it failed, scenarios that did not run) read green in JUnit and on the page;
/// a pickle step left out of its test case passed; names that are not UTF-8 opened or wrote other files.
@Suite struct ReportRunFailuresEndToEndTests {
    static let passing = """
        Feature: a
          Scenario: one
            When I run "true"

        """

    static func text(_ directory: URL, _ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// The page's verdict line, as Chromium renders it (nil without a browser).
    static func verdict(_ page: String, in directory: URL) throws -> String? {
        guard HTMLReportEndToEndTests.browser != nil else { return nil }
        let dom = try HTMLReportEndToEndTests.openInBrowser(
            directory.appendingPathComponent(page).path, directory: directory, screenshot: directory.appendingPathComponent("v.png").path
        ).dom
        return dom.firstMatch(of: #/<p id="verdict"[^>]*>([^<]*)/#).map { String($0.output.1) }
    }

    /// R15B-2: coverage not measured (exit 6) with every scenario passing: JUnit has an error entry, the JSON report
    /// an `error`, the page a failure (never "all passed"); `report` on the Messages writes the same bytes.
    @Test func aRunThatFailsOnCoverageAloneIsRedInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: c\n  Scenario: one\n    Given the program \"\(CLI.myApp)\"\n    When I launch the program with \"greet\"\n",
            "c.feature", in: directory)
        let run = try CLI.run(
            [
                "test", "-q", "--coverage", "cov", "--junit", "j.xml", "--report", "r.json", "--html", "h.html", "--messages", "m.ndjson",
                "c.feature",
            ],
            cwd: directory)
        #expect(run.status == 6, "\(run.stderr)")
        let junit = try Self.text(directory, "j.xml")
        #expect(junit.contains(#"errors="1""#) && junit.contains("coverage: "), "\(junit)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.text(directory, "r.json").utf8)) as? [String: Any])
        #expect((json["error"] as? String)?.contains("coverage: ") == true, "\(json)")
        #expect(try Self.text(directory, "h.html").contains(#""failure":"coverage: "#))
        let again = try CLI.run(["report", "--junit", "j2.xml", "--html", "h2.html", "m.ndjson"], cwd: directory)
        #expect(again.status != 0)
        #expect(try Self.text(directory, "j2.xml") == junit)
        #expect(try Self.text(directory, "h2.html") == Self.text(directory, "h.html"))
        if let verdict = try Self.verdict("h.html", in: directory) {
            #expect(verdict.contains("but the run failed: coverage") && !verdict.hasSuffix("all passed"), "\(verdict)")
        }
    }

    /// R15B-9: a failing AfterAll hook is on the page (a run-level error in the verdict and its message), as in JUnit.
    @Test func aFailingAfterAllHookIsOnThePage() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.passing, "a.feature", in: directory)
        _ = try CLI.write(
            #"{ "steps": [], "hooks": [ { "hook": "AfterAll", "run": ["sh", "-c", "echo teardown failed >&2; exit 3"] } ] }"#,
            "h.steps.json", in: directory)
        let run = try CLI.run(["test", "-q", "--html", "h.html", "--junit", "j.xml", "."], cwd: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let page = try Self.text(directory, "h.html")
        #expect(page.contains(#""runErrors":["AfterAll hooks: "#) && page.contains("teardown failed"), "\(page.suffix(600))")
        if let verdict = try Self.verdict("h.html", in: directory) {
            #expect(verdict.contains("1 run-level error") && !verdict.contains("all passed"), "\(verdict)")
        }
    }

    /// R15B-4: scenarios that did not run are said in the verdict (`--fail-fast`: "1 not passed, 2 not run").
    @Test func scenariosThatDidNotRunAreInTheVerdict() throws {
        guard HTMLReportEndToEndTests.browser != nil else { return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: ff\n  Scenario: a\n    When I run \"false\"\n    Then the exit code is 0\n  Scenario: b\n    When I run \"true\"\n  Scenario: c\n    When I run \"true\"\n",
            "f.feature", in: directory)
        let run = try CLI.run(["test", "-q", "--fail-fast", "--html", "h.html", "f.feature"], cwd: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let verdict = try #require(try Self.verdict("h.html", in: directory))
        #expect(verdict.hasPrefix("3 scenarios, 1 not passed, 2 not run"), "\(verdict)")
    }

    /// Another tool's file (no sut-launch records): `testRunFinished` saying it failed with an exception, or steps all
    /// SKIPPED, is an error entry in JUnit and its reason in the JSON report, never a green JUnit with exit 1.
    @Test(arguments: ["exception", "skipped"])
    func anotherToolsFailedRunIsRedInJUnit(_ shape: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.passing, "a.feature", in: directory)
        #expect(try CLI.run(["test", "-q", "--messages", "m.ndjson", "a.feature"], cwd: directory).status == 0)
        var lines: [String] = []
        for line in try Self.text(directory, "m.ndjson").split(separator: "\n").map(String.init) {
            var envelope = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let attachment = envelope["attachment"] as? [String: Any],
                (attachment["fileName"] as? String)?.hasPrefix("sut-launch") == true
            {
                continue
            }
            if shape == "exception", var finished = envelope["testRunFinished"] as? [String: Any] {
                finished["success"] = false
                finished["exception"] = ["type": "Error", "message": "boom in AfterAll"]
                envelope["testRunFinished"] = finished
            }
            if shape == "skipped", var step = envelope["testStepFinished"] as? [String: Any] {
                step["testStepResult"] = ["status": "SKIPPED", "duration": ["seconds": 0, "nanos": 0]]
                envelope["testStepFinished"] = step
            }
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self))
        }
        _ = try CLI.write(lines.joined(separator: "\n") + "\n", "other.ndjson", in: directory)
        let report = try CLI.run(["report", "--junit", "o.xml", "--json", "o.json", "other.ndjson"], cwd: directory)
        #expect(report.status == 1, "\(report.stderr)")
        let junit = try Self.text(directory, "o.xml")
        #expect(junit.contains(#"errors="1""#) && junit.contains(#"name="run failed""#), "\(junit)")
        let reason = shape == "exception" ? "Error: boom in AfterAll" : "1 scenario did not run"
        #expect(junit.contains(reason), "\(junit)")
        if shape == "exception" { #expect(try Self.text(directory, "o.json").contains(reason)) }
    }

    /// R15B-5: a test case that holds no test step for one of its pickle's steps is refused by `report` and by
    /// `--rerun-failed` (it passed on the steps left).
    @Test func aPickleStepLeftOutOfItsTestCaseIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: a\n  Scenario: s\n    When I run \"true\"\n    Then I see \"never\"\n", "a.feature", in: directory)
        #expect(try CLI.run(["test", "-q", "--messages", "m.ndjson", "a.feature"], cwd: directory).status == 1)
        var envelopes = try Self.text(directory, "m.ndjson").split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let failed = try #require(
            envelopes.compactMap { $0["testStepFinished"] as? [String: Any] }
                .first { ($0["testStepResult"] as? [String: Any])?["status"] as? String == "FAILED" }?["testStepId"] as? String)
        envelopes = envelopes.compactMap { envelope in
            if var testCase = envelope["testCase"] as? [String: Any] {
                testCase["testSteps"] = (testCase["testSteps"] as? [[String: Any]] ?? []).filter { $0["id"] as? String != failed }
                return ["testCase": testCase]
            }
            for key in ["testStepStarted", "testStepFinished"] where (envelope[key] as? [String: Any])?["testStepId"] as? String == failed {
                return nil
            }
            if let attachment = envelope["attachment"] as? [String: Any],
                attachment["testStepId"] as? String == failed || (attachment["fileName"] as? String)?.hasPrefix("sut-launch") == true
            {
                return nil
            }
            if var finished = envelope["testRunFinished"] as? [String: Any] {
                finished["success"] = true
                return ["testRunFinished": finished]
            }
            return envelope
        }
        let edited = try envelopes.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        _ = try CLI.write(edited.joined(separator: "\n") + "\n", "edited.ndjson", in: directory)
        let report = try CLI.run(["report", "--junit", "j.xml", "edited.ndjson"], cwd: directory)
        #expect(report.status == 3 && report.stderr.contains("holds no test step for its pickle's step"), "\(report.stderr)")
        let rerun = try CLI.run(["test", "--rerun-failed", "edited.ndjson", "a.feature"], cwd: directory)
        #expect(rerun.status == 2 && rerun.stderr.contains("holds no test step for its pickle's step"), "\(rerun.stderr)")
    }

    /// R15B-1: a Messages file named with bytes that are not UTF-8, and the environment's output paths (Bazel's
    /// `XML_OUTPUT_FILE` and `TEST_SHARD_STATUS_FILE`, `GITHUB_STEP_SUMMARY`), are refused: read or written under
    /// their U+FFFD spelling they named other files.
    @Test func namesThatAreNotUTF8AreRefusedWhereverTheyComeFrom() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.passing, "a.feature", in: directory)
        let dir = directory.path
        let script = """
            cd "$1" && "$0" test -q --messages m.ndjson a.feature >/dev/null 2>&1
            cp m.ndjson "$(printf 'x\\377.ndjson')"; cp m.ndjson "$(printf 'x\\357\\277\\275.ndjson')"
            "$0" report --junit j.xml "$(printf 'x\\377.ndjson')" 2>&1; echo "rc=$?"
            env TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=1 TEST_SHARD_STATUS_FILE="$(printf 'st\\377')" XML_OUTPUT_FILE=x.xml "$0" test -q --shard auto a.feature 2>&1; echo "rc=$?"
            env TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=1 XML_OUTPUT_FILE="$(printf 'x\\376.xml')" "$0" test -q --shard auto a.feature 2>&1; echo "rc=$?"
            env GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$(printf 'sum\\377.md')" "$0" test -q --format github a.feature 2>&1; echo "rc=$?"
            ls
            """
        let output = try CLI.output(of: ["sh", "-c", script, CLI.sutLaunch, dir])
        #expect(output.contains(#"the Messages file 'x\xff.ndjson' is not UTF-8"#), "\(output)")
        #expect(output.contains(#"TEST_SHARD_STATUS_FILE 'st\xff' is not UTF-8"#), "\(output)")
        #expect(output.contains(#"XML_OUTPUT_FILE 'x\xfe.xml' is not UTF-8"#), "\(output)")
        #expect(output.contains(#"GITHUB_STEP_SUMMARY 'sum\xff.md' is not UTF-8"#), "\(output)")
        #expect(output.components(separatedBy: "rc=2").count == 5, "\(output)")
        #expect(!output.contains("x.xml") && !output.contains("st\u{FFFD}") && !output.contains("sum\u{FFFD}"), "\(output)")
    }
}
