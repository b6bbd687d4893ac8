import Foundation
import Testing

/// Issue 24 on the reports of `sut-launch test`: every report says what the console says, for scenarios failed by
/// the mock server's end-of-scenario checks, scenarios `--fail-fast` did not run, and a run stopped by SIGTERM.
@Suite struct ReportTrustEndToEndTests {
    /// The Messages envelopes of a file, parsed.
    static func envelopes(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The statuses of each test case's steps, by pickle name, in order (hook steps included, as `hook:STATUS`).
    static func caseStatuses(_ envelopes: [[String: Any]]) -> [String: [String]] {
        var pickleNames: [String: String] = [:]
        var caseOfPickle: [String: String] = [:]
        var caseOfStart: [String: String] = [:]
        var hookSteps: Set<String> = []
        var statuses: [String: [String]] = [:]
        for envelope in envelopes {
            if let pickle = envelope["pickle"] as? [String: Any] { pickleNames[pickle["id"] as! String] = pickle["name"] as? String }
            if let testCase = envelope["testCase"] as? [String: Any] {
                caseOfPickle[testCase["id"] as! String] = pickleNames[testCase["pickleId"] as! String]
                for step in testCase["testSteps"] as! [[String: Any]] where step["hookId"] != nil {
                    hookSteps.insert(step["id"] as! String)
                }
            }
            if let started = envelope["testCaseStarted"] as? [String: Any] {
                caseOfStart[started["id"] as! String] = caseOfPickle[started["testCaseId"] as! String]
            }
            if let finished = envelope["testStepFinished"] as? [String: Any],
                let name = caseOfStart[finished["testCaseStartedId"] as! String]
            {
                let result = finished["testStepResult"] as! [String: Any]
                let status = result["status"] as! String
                statuses[name, default: []].append(hookSteps.contains(finished["testStepId"] as! String) ? "hook:" + status : status)
            }
        }
        return statuses
    }

    static func schemaVerdict(_ paths: [String]) throws -> String {
        let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/cucumber_messages_check.py").path
        return try CLI.output(of: ["python3", script] + paths)
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl"))
    func mockServerChecksFailAHookStepInTheMessages() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"routes": [{"method": "GET", "path": "/once", "body": "x", "expect": {"times": 1}}]}"#
            .write(toFile: directory.appendingPathComponent("stubs.json").path, atomically: true, encoding: .utf8)
        let feature = try CLI.write(
            """
            Feature: checks
              Scenario: unexpected request
                Given the route "GET /ok" answers 200 with:
                  \"\"\"
                  ok
                  \"\"\"
                When I run "curl -s ${SUT_MOCK_SERVER_URL}/nope"
                Then the exit code is 0

              Scenario: unmet expectation
                Given the stubs "stubs.json"
                When I run "true ${SUT_MOCK_SERVER_URL}"
                Then the exit code is 0

              Scenario: all met
                Given the stubs "stubs.json"
                When I run "curl -s ${SUT_MOCK_SERVER_URL}/once"
                Then the exit code is 0

              Scenario: no server
                When I run "true"
                Then the exit code is 0

            """, "checks.feature", in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let junit = directory.appendingPathComponent("j.xml").path
        let report = directory.appendingPathComponent("r.json").path
        let result = try CLI.run(["test", "--messages", messages, "--junit", junit, "--report", report, feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let envelopes = try Self.envelopes(messages)
        let statuses = Self.caseStatuses(envelopes)
        #expect(statuses["unexpected request"] == ["PASSED", "PASSED", "PASSED", "hook:FAILED"], "\(statuses)")
        #expect(statuses["unmet expectation"] == ["PASSED", "PASSED", "PASSED", "hook:FAILED"], "\(statuses)")
        #expect(statuses["all met"] == ["PASSED", "PASSED", "PASSED", "hook:PASSED"], "\(statuses)")
        #expect(statuses["no server"] == ["PASSED", "PASSED"], "\(statuses)")
        let hooks = envelopes.compactMap { $0["hook"] as? [String: Any] }
        #expect(hooks.count == 1 && hooks.first?["type"] as? String == "AFTER_TEST_CASE", "\(hooks)")
        let failedMessages = envelopes.compactMap { ($0["testStepFinished"] as? [String: Any])?["testStepResult"] as? [String: Any] }
            .filter { $0["status"] as? String == "FAILED" }.compactMap { $0["message"] as? String }
        #expect(failedMessages.contains { $0.contains("/nope") }, "\(failedMessages)")
        #expect(failedMessages.contains { $0.contains("/once") }, "\(failedMessages)")
        // JUnit and JSON agree: two failed, two passed.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"4\" failures=\"2\""), "\(xml)")
        let json = try String(contentsOfFile: report, encoding: .utf8)
        #expect(json.contains("\"passed\":2,\"failed\":2"), "\(json)")
        if CLI.hasCommand("python3") {
            let verdict = try Self.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
    }

    @Test func failFastReportsTheScenariosNotRunInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: ff
              Scenario: first passes
                When I run "true"
              Scenario: second fails
                When I run "false"
                Then the exit code is 0
              Scenario: third
                When I run "true"
              Scenario: fourth
                When I run "true"

            """, "ff.feature", in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let junit = directory.appendingPathComponent("j.xml").path
        let report = directory.appendingPathComponent("r.json").path
        let result = try CLI.run(["test", "--fail-fast", "--messages", messages, "--junit", junit, "--report", report, feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("2 scenarios not run after the first failure"), "\(result.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"sut-launch\" tests=\"4\" failures=\"1\" errors=\"0\""), "\(xml)")
        #expect(xml.contains("<testsuite name=\"ff\" tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"2\""), "\(xml)")
        if CLI.hasCommand("xmllint") {
            let schema = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/junit.xsd").path
            let lint = try CLI.output(of: ["sh", "-c", "xmllint --noout --schema \"$0\" \"$1\" 2>&1", schema, junit])
            #expect(lint.contains("validates"), "\(lint)")
        }
        #expect(xml.components(separatedBy: "<skipped message=\"not run: --fail-fast stopped the run\"/>").count == 3, "\(xml)")
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(json["scenarios"] as? Int == 4 && json["notRun"] as? Int == 2, "\(json)")
        let results = json["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["status"] as? String ?? "" } == ["passed", "failed", "notRun", "notRun"], "\(results)")
        let statuses = Self.caseStatuses(try Self.envelopes(messages))
        #expect(statuses["third"] == ["SKIPPED"] && statuses["fourth"] == ["SKIPPED"], "\(statuses)")
        #expect(statuses.count == 4, "\(statuses)")
        if CLI.hasCommand("python3") {
            let verdict = try Self.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
    }

    @Test func sigtermWritesEveryReportAndTheSummary() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: term
              Scenario: quick
                When I run "true"
              Scenario: slow one
                When I run "sleep 30"
              Scenario: slow two
                When I run "sleep 30"

            """, "term.feature", in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let junit = directory.appendingPathComponent("j.xml").path
        let report = directory.appendingPathComponent("r.json").path
        let result = try CLI.run(["test", "-j", "2", "--junit", junit, "--report", report, "--messages", messages, feature]) { process, _ in
            Thread.sleep(forTimeInterval: 1.5)
            process.terminate()
        }
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: junit) && FileManager.default.fileExists(atPath: report))
        let envelopes = try Self.envelopes(messages)
        let statuses = Self.caseStatuses(envelopes)
        #expect(statuses["quick"] == ["PASSED"], "\(statuses)")
        #expect(statuses["slow one"] == ["FAILED"] || statuses["slow two"] == ["FAILED"], "\(statuses)")
        let failed = envelopes.compactMap { ($0["testStepFinished"] as? [String: Any])?["testStepResult"] as? [String: Any] }
            .filter { $0["status"] as? String == "FAILED" }
        #expect(!failed.isEmpty && failed.allSatisfy { $0["message"] as? String == "interrupted by SIGTERM" }, "\(failed)")
        let finished = envelopes.compactMap { $0["testRunFinished"] as? [String: Any] }
        #expect(finished.count == 1 && finished.first?["success"] as? Bool == false)
        #expect(result.stdout.contains("✗ term: slow one"), "\(result.stdout)")
        #expect(result.stdout.contains("interrupted by SIGTERM"), "\(result.stdout)")
        #expect(result.stdout.contains("3 scenarios: 1 passed"), "\(result.stdout)")
        if CLI.hasCommand("python3") {
            let verdict = try Self.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
    }

    /// Every step that reads a file of the scenario refuses a FIFO by name at once (it blocked in open(2) past every
    /// timeout); the fixture copy refuses one; a file written over a FIFO replaces it.
    @Test func fifosInTheScenarioDirectoryAreRefusedByNameNotWaitedOn() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = directory.appendingPathComponent("fx")
        try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
        #expect(mkfifo(fixture.appendingPathComponent("pipe").path, 0o644) == 0)
        let feature = try CLI.write(
            """
            Feature: fifo
              Scenario: contains
                When I run "mkfifo f"
                Then the file "f" contains "x"
              Scenario: is
                When I run "mkfifo f"
                Then the file "f" is:
                  \"\"\"
                  x
                  \"\"\"
              Scenario: snapshot
                When I run "mkfifo f"
                Then the file "f" matches the snapshot "fifo"
              Scenario: written over
                When I run "mkfifo f"
                Given a file "f" with:
                  \"\"\"
                  x
                  \"\"\"
                Then the file "f" contains "x"
              Scenario: fixture
                Given the files from "fx"

            """, "fifo.feature", in: directory)
        let report = directory.appendingPathComponent("r.json").path
        let started = Date()
        let result = try CLI.run(["test", "--scenario-timeout", "20s", "--report", report, feature])
        #expect(Date().timeIntervalSince(started) < 15, "a FIFO was waited on")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("5 scenarios: 1 passed, 3 failed, 1 could not run"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "f is a FIFO, not a file").count == 4, "\(result.stdout)")
        #expect(result.stdout.contains("fx/pipe: a FIFO, not copied"), "\(result.stdout)")
    }

    /// A snapshot name two scenarios (or two rows of an outline) share: the last to update it wins and the other
    /// fails on the next run. Refused when the file loads, by `check` and `test`, naming both lines.
    @Test func aSnapshotNameSharedByTwoScenariosIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = try CLI.write(
            """
            Feature: shared
              Scenario: one
                When I run "echo one"
                Then the output matches the snapshot "same"
              Scenario: two
                When I run "echo two"
                Then the output matches the snapshot "same"

            """, "scenarios.feature", in: directory)
        let outline = try CLI.write(
            """
            Feature: rows
              Scenario Outline: row
                When I run "echo <v>"
                Then the output matches the snapshot "same"
                Examples:
                  | v |
                  | a |
                  | b |

            """, "outline.feature", in: directory)
        let placeholder = try CLI.write(
            """
            Feature: rows
              Scenario Outline: row
                When I run "echo <v>"
                Then the output matches the snapshot "out-<v>"
                Examples:
                  | v |
                  | a |
                  | b |

            """, "placeholder.feature", in: directory)
        for command in ["check", "test"] {
            let shared = try CLI.run([command, "--update-snapshots", scenarios].filter { command == "test" || $0 != "--update-snapshots" })
            #expect(shared.status == 3, "\(command): \(shared.stdout)\(shared.stderr)")
            #expect(shared.stderr.contains("scenarios.feature:4") && shared.stderr.contains("scenarios.feature:7"), "\(shared.stderr)")
            #expect(shared.stderr.contains("\"same-<v>\""), "\(shared.stderr)")
            let rows = try CLI.run([command, outline])
            #expect(rows.status == 3, "\(command): \(rows.stdout)\(rows.stderr)")
            #expect(rows.stderr.contains("row at line 7") && rows.stderr.contains("row at line 8"), "\(rows.stderr)")
        }
        #expect(try CLI.run(["check", placeholder]).status == 0)
        let updated = try CLI.run(
            ["test", "--update-snapshots", placeholder], environment: CLI.localEnvironment.filter { $0.key != "CI" })
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        #expect(try CLI.run(["test", placeholder]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("__snapshots__/scenarios.feature/same.txt").path))
    }

    /// `$GITHUB_STEP_SUMMARY` is Markdown that GitHub renders as HTML: a scenario's name is text in it, never
    /// markup. Read back as a Markdown table: one row per scenario, three cells, each decoding to the text as named.
    @Test func theStepSummaryShowsScenarioNamesAsText() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = ["<img src=x onerror=alert(1)> & </td>", "<!-- hidden", "`code` and ``two`` | pipe \\| [x](javascript:alert(1)) ]]"]
        let feature = try CLI.write(
            "Feature: f <b>\n"
                + names.enumerated().map { index, name in
                    "  Scenario: \(name)\n    When I run \"\(index == 1 ? "false" : "true")\"\n    Then the exit code is 0\n"
                }.joined(), "summary.feature", in: directory)
        let summary = directory.appendingPathComponent("summary.md").path
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = summary
        let result = try CLI.run(["test", "--format", "github", feature], environment: environment)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }.dropFirst(2)
        #expect(rows.count == names.count, "\(markdown)")
        // What did not pass is listed first (the summary is capped under GitHub's 1 MiB), then the passed ones in order.
        for (row, name) in zip(rows, [names[1], names[0], names[2]]) {
            // Cells split at a | no backslash escapes; the cell holds no character Markdown or HTML reads as syntax.
            var cells: [String] = []
            var cell = ""
            var escaped = false
            for character in row {
                if character == "|" && !escaped {
                    cells.append(cell)
                    cell = ""
                } else {
                    cell.append(character)
                }
                escaped = character == "\\" && !escaped
            }
            #expect(cells.count == 4 && cell.isEmpty, "\(row)")
            guard cells.count == 4 else { continue }
            let text = cells[2].trimmingCharacters(in: .whitespaces)
            #expect(!text.contains { "<>`[]|".contains($0) }, "\(text)")
            var decoded = text
            for (entity, character) in [
                ("&lt;", "<"), ("&gt;", ">"), ("&#96;", "`"), ("&#124;", "|"), ("&#91;", "["), ("&#93;", "]"), ("&#92;", "\\"),
                ("&amp;", "&"),
            ] {
                decoded = decoded.replacingOccurrences(of: entity, with: character)
            }
            #expect(decoded == "f <b>: " + name, "\(text)")
        }
    }
}
