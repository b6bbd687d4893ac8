import Foundation
import Testing

/// The runner's findings of attack r7b, each replayed against the built binary: a table or doc string under a step
/// that takes none (5), JSON numbers past 64 bits in a request's body (9).
@Suite struct RunnerR7bEndToEndTests {
    /// A table under `Then I see "hello"` and doc strings under steps that take none were never read: the scenario
    /// passed and `check` said ok. A load error naming the argument's line, the step and what it takes; a table
    /// where a doc string is expected (and the other way round) alike.
    @Test func aTableOrDocStringUnderAStepThatTakesNoneIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: D
              Scenario: s
                When I run "echo hello"
                Then I see "hello"
                  | goodbye |
                And the exit code is 0
                  \"\"\"
                  3
                  \"\"\"
                And the output is:
                  | hello |
                Given the feature flags:
                  \"\"\"
                  x
                  \"\"\"
            """, "t.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, feature])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "t.feature:5: a data table under the step \"Then I see \"hello\"\" (line 4), which takes no doc string or data table"),
                "\(result.stderr)")
            #expect(
                result.stderr.contains("t.feature:7: a doc string under the step \"And the exit code is 0\" (line 6)"), "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "t.feature:11: a data table under the step \"And the output is:\" (line 10), which takes a doc string"),
                "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "t.feature:13: a doc string under the step \"Given the feature flags:\" (line 12), which takes a data table"),
                "\(result.stderr)")
            #expect(!result.stdout.contains("passed"), "\(result.stdout)")
        }
        // The steps that take one still load; a route's body is optional.
        let good = try CLI.write(
            """
            Feature: G
              Scenario: g
                Given the route "GET /a" answers 200
                Given the route "GET /b" answers 200 with:
                  \"\"\"
                  hi
                  \"\"\"
                Given the feature flags:
                  | greeting | hi |
                Given a file "x.txt" with:
                  \"\"\"
                  x
                  \"\"\"
                When I run "cat x.txt"
                Then the output is:
                  \"\"\"
                  x
                  \"\"\"
            """, "g.feature", in: directory)
        let checked = try CLI.run(["check", good])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }

    /// `18446744073709551614` sent, `18446744073709551615` expected: both read as the same Double and the step passed.
    /// An expected number a Double cannot hold is a load error (`check` and `test`); a sent one is not read, as the
    /// stubs' matchers do, so it never includes an expected value; numbers within 64 bits still match exactly.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl")) func aJSONBodyNumberPast64BitsNeverEqualsItsNeighbour() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func feature(sent: String, expected: String) -> String {
            """
            Feature: K
              Scenario: k
                Given the route "POST /h" answers 200
                Given a file "b.json" with:
                  \"\"\"
                  {"hash": \(sent), "n": 1}
                  \"\"\"
                When I run "curl -s -o /dev/null -H content-type:application/json --data-binary @b.json ${SUT_MOCK_SERVER_URL}/h"
                Then the server received a request to "POST /h" with JSON body:
                  \"\"\"
                  \(expected)
                  \"\"\"

            """
        }
        _ = try CLI.write(feature(sent: "18446744073709551614", expected: #"{"hash": 18446744073709551615}"#), "big.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, "big.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("big.feature:9: the expected JSON body cannot be compared exactly"), "\(result.stderr)")
        }
        _ = try CLI.write(feature(sent: "18446744073709551614", expected: #"{"n": 1}"#), "sent.feature", in: directory)
        let sent = try CLI.run(["test", "sent.feature"], cwd: directory)
        #expect(sent.status == 1, "\(sent.stdout)\(sent.stderr)")
        _ = try CLI.write(feature(sent: "9223372036854775807", expected: #"{"hash": 9223372036854775807}"#), "fits.feature", in: directory)
        let fits = try CLI.run(["test", "fits.feature"], cwd: directory)
        #expect(fits.status == 0, "\(fits.stdout)\(fits.stderr)")
    }

    /// `--messages /dev/full`: exit 74, but the JSON report and the HTML page written after it said exit code 0.
    /// Every report written after the one that failed says 74 and names it; the JSON report is written last.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func reportsWrittenAfterOneThatFailedSayExit74() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: P\n  Scenario: p\n    When I run \"true\"\n", "p.feature", in: directory)
        for option in ["--messages", "--junit", "--html"] {
            let html = option == "--html" ? [] : ["--html", "h.html"]
            let result = try CLI.run(["test", option, "/dev/full", "--report", "r.json"] + html + ["p.feature"], cwd: directory)
            #expect(result.status == 74, "\(option): \(result.stderr)")
            let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
            #expect(report.contains("\"exitCode\":74") || report.contains("\"exitCode\": 74"), "\(option): \(report.prefix(400))")
            #expect(report.contains("\(option) /dev/full: cannot write"), "\(option): \(report.prefix(600))")
            if option != "--html" {
                let page = try String(contentsOf: directory.appendingPathComponent("h.html"), encoding: .utf8)
                #expect(page.contains("/dev/full: cannot write"), "\(option): the HTML does not name the failure")
            }
        }
    }

    /// R10B-10: the JUnit written after a report that failed stayed green with no entry, and a step summary that could not
    /// be appended at the end left the JSON report and the HTML saying 74 with no reason. Each is said in every report.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func anOutputThatFailedAtTheEndIsNamedInJUnitAndTheSummaryInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: P\n  Scenario: p\n    When I run \"true\"\n", "p.feature", in: directory)
        let messages = try CLI.run(["test", "--messages", "/dev/full", "--junit", "j.xml", "p.feature"], cwd: directory)
        #expect(messages.status == 74, "\(messages.stderr)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(junit.contains("name=\"write the run&apos;s outputs\"") || junit.contains("name=\"write the run's outputs\""), "\(junit)")
        #expect(junit.contains("--messages /dev/full: cannot write"), "\(junit)")
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = "/dev/full"
        let summary = try CLI.run(
            ["test", "--format", "github", "--report", "r.json", "--html", "h.html", "--junit", "s.xml", "p.feature"],
            environment: environment,
            cwd: directory)
        #expect(summary.status == 74, "\(summary.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        #expect(report?["exitCode"] as? Int == 74, "\(String(describing: report))")
        #expect(
            (report?["error"] as? String)?.contains("GITHUB_STEP_SUMMARY /dev/full: cannot append the summary") == true,
            "\(String(describing: report))")
        let page = try String(contentsOf: directory.appendingPathComponent("h.html"), encoding: .utf8)
        #expect(page.contains("GITHUB_STEP_SUMMARY /dev/full"), "the HTML does not name the summary")
        let steps = try String(contentsOf: directory.appendingPathComponent("s.xml"), encoding: .utf8)
        #expect(steps.contains("GITHUB_STEP_SUMMARY /dev/full: cannot append the summary"), "\(steps)")
    }

    /// A feature path with a line break was written raw in JUnit's `file` attribute, which every XML reader turns
    /// into a space (`f/a b.feature`, a file that does not exist). TAB, LF and CR are character references there.
    @Test func aLineBreakInAFeaturePathSurvivesJUnitsAttributes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("f"), withIntermediateDirectories: true)
        _ = try CLI.write(
            "Feature: F\n  Scenario: s\n    When I run \"false\"\n    Then the exit code is 0\n", "f/a\nb\tc.feature", in: directory)
        let result = try CLI.run(["test", "--junit", "j.xml", "f"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.contains("file=\"f/a&#10;b&#9;c.feature\""), "\(xml.prefix(800))")
        guard CLI.hasCommand("python3") else { return }
        let read = try CLI.output(
            of: ["python3", "-c", "import xml.etree.ElementTree as E; print(repr(E.parse('j.xml').find('.//testcase').get('file')))"],
            in: directory)
        #expect(read.contains("'f/a\\nb\\tc.feature'"), "\(read)")
    }

    /// `--rerun-failed j.xml|m.ndjson` after the scenarios were reordered ran "ok", now at the line where "bad" failed,
    /// and passed. The JUnit names the scenario: another name at that line is exit 2 naming both. The Messages identify
    /// it (name, row values, steps: r8b R8B-1): "bad" is rerun where it now is, and fails again. A plain rerun file has
    /// lines only and still selects by line, as Cucumber's.
    @Test func aRerunByJUnitOrMessagesRefusesAnotherScenarioAtTheRecordedLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ok = "  Scenario: ok\n    When I run \"true\"\n    Then the exit code is 0\n"
        let bad = "  Scenario: bad\n    When I run \"false\"\n    Then the exit code is 0\n"
        _ = try CLI.write("Feature: F\n" + ok + "\n" + bad, "f.feature", in: directory)
        let first = try CLI.run(
            ["test", "--junit", "j.xml", "--messages", "m.ndjson", "--write-rerun", "rr.txt", "f.feature"], cwd: directory)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        let same = try CLI.run(["test", "--rerun-failed", "j.xml", "f.feature"], cwd: directory)
        #expect(same.status == 1 && same.stdout.contains("F: bad"), "\(same.stdout)\(same.stderr)")
        _ = try CLI.write("Feature: F\n" + bad + "\n" + ok, "f.feature", in: directory)
        let result = try CLI.run(["test", "--rerun-failed", "j.xml", "f.feature"], cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("f.feature:6: this file says \"bad\" failed there, but the scenario at line 6 is now \"ok\""),
            "\(result.stderr)")
        #expect(result.stderr.contains("j.xml"), "\(result.stderr)")
        let moved = try CLI.run(["test", "--rerun-failed", "m.ndjson", "f.feature"], cwd: directory)
        #expect(moved.status == 1 && moved.stdout.contains("F: bad") && !moved.stdout.contains("F: ok"), "\(moved.stdout)\(moved.stderr)")
        let plain = try CLI.run(["test", "--rerun-failed", "rr.txt", "f.feature"], cwd: directory)
        #expect(plain.status == 0 && plain.stdout.contains("F: ok"), "\(plain.stdout)\(plain.stderr)")
    }

    /// GitHub's "Re-run failed jobs": shard 1 passed in attempt 1, shard 2 was re-run as attempt 2. The attempt was
    /// part of the run's id, so the merge refused them as two runs (exit 2; 1 with --merge-any, each missing a shard).
    /// One GITHUB_RUN_ID is one run: they merge green.
    @Test func shardsOfTwoAttemptsOfOneGitHubRunMergeAsOneRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: S\n  Scenario: a\n    When I run \"true\"\n  Scenario: b\n    When I run \"true\"\n", "s.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_RUN_ID"] = "77"
        for shard in [1, 2] {
            environment["GITHUB_RUN_ATTEMPT"] = "\(shard)"
            let result = try CLI.run(
                ["test", "--shard", "\(shard)/2", "--messages", "g\(shard).ndjson", "s.feature"], environment: environment, cwd: directory)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        let merged = try CLI.run(["report", "--junit", "j.xml", "g1.ndjson", "g2.ndjson"], cwd: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("2 scenarios"), "\(merged.stderr)")
    }
}
