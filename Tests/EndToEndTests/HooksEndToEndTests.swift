import Foundation
import Testing

/// Hooks in step files, run by the built binary: order, tag filters, `SCENARIO_STATUS` after a failure and a
/// timeout, a failing hook that fails its scenario by file:line, a hook that outlives its deadline, BeforeAll that
/// stops the run, AfterAll on Ctrl-C before the reports, Messages' hook envelopes against Cucumber's schema, and
/// hostile hook definitions refused at load.
@Suite struct HooksEndToEndTests {
    static func stepFile(_ log: URL, extra: String = "") -> String {
        """
        {"hooks": [
          {"hook": "Before", "order": 2, "run": ["sh", "-c", "echo before-$SCENARIO_NAME >> \(log.path)"]},
          {"hook": "Before", "order": 1, "tags": "@db", "run": ["sh", "-c", "echo reset-db >> \(log.path)"]},
          {"hook": "After", "run": ["sh", "-c", "echo after-$SCENARIO_STATUS >> \(log.path)"]},
          {"hook": "BeforeAll", "run": ["sh", "-c", "echo before-all >> \(log.path)"]},
          {"hook": "AfterAll", "run": ["sh", "-c", "echo after-all-$SUT_RUN_STATUS >> \(log.path)"]}\(extra)
        ]}
        """
    }

    @Test func hooksRunInOrderAroundEveryScenarioAndSeeItsStatus() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log")
        _ = try CLI.write(Self.stepFile(log), "features/hooks.steps.json", in: directory)
        _ = try CLI.write(
            """
            Feature: h
              @db
              Scenario: one
                When I run "true"
              Scenario: two
                When I run "false"
                Then the exit code is 0
              @timeout=300ms
              Scenario: three
                When I run "sleep 5"

            """, "features/h.feature", in: directory)
        let result = try CLI.run(["test", "--messages", "m.ndjson", "features/"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(
            lines == [
                "before-all", "reset-db", "before-one", "after-passed", "before-two", "after-failed", "before-three", "after-timed-out",
                "after-all-failed",
            ], "\(lines)")
        let messages = directory.appendingPathComponent("m.ndjson").path
        let envelopes = try ReportTrustEndToEndTests.envelopes(messages)
        let hooks = envelopes.compactMap { $0["hook"] as? [String: Any] }.compactMap { $0["type"] as? String }
        #expect(
            hooks.sorted() == [
                "AFTER_TEST_CASE", "AFTER_TEST_CASE", "AFTER_TEST_RUN", "BEFORE_TEST_CASE", "BEFORE_TEST_CASE", "BEFORE_TEST_RUN",
            ])
        let runHooks = envelopes.compactMap { $0["testRunHookFinished"] as? [String: Any] }.compactMap {
            ($0["result"] as? [String: Any])?["status"] as? String
        }
        #expect(runHooks == ["PASSED", "PASSED"], "BeforeAll and AfterAll as testRunHookFinished: \(runHooks)")
        let firstCase = try #require(envelopes.compactMap { $0["testCase"] as? [String: Any] }.first?["testSteps"] as? [[String: Any]])
        #expect(firstCase.prefix(2).allSatisfy { $0["hookId"] != nil }, "the Before hooks come first: \(firstCase)")
        if CLI.hasCommand("python3") {
            let verdict = try ReportTrustEndToEndTests.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
    }

    @Test func aFailingOrLateHookFailsItsScenarioNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            {"hooks": [
              {"hook": "Before", "tags": "@broken", "run": ["sh", "-c", "echo no database >&2; exit 7"]},
              {"hook": "After", "tags": "@slow", "timeout": "300ms", "run": ["sleep", "30"]}
            ]}
            """, "hooks.steps.json", in: directory)
        _ = try CLI.write(
            "Feature: f\n  @broken\n  Scenario: a\n    When I run \"true\"\n  @slow\n  Scenario: b\n    When I run \"true\"\n", "f.feature",
            in: directory)
        let started = Date()
        let result = try CLI.run(["test", "--report", "r.json", "f.feature"], cwd: directory)
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(started) < 20, "the late hook was stopped")
        #expect(
            result.stdout.contains("Before hook (./hooks.steps.json:2) failed: sh -c echo no database >&2; exit 7 exited with code 7"),
            "\(result.stdout)")
        #expect(result.stdout.contains("no database"))
        #expect(result.stdout.contains("- When I run \"true\""), "the steps were skipped")
        #expect(
            result.stdout.contains("After hook (./hooks.steps.json:3) was still running after its 300ms timeout and was stopped"),
            "\(result.stdout)")
    }

    @Test func aFailingBeforeAllRunsNoScenarioAndAfterAllStillRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log")
        _ = try CLI.write(
            """
            {"hooks": [
              {"hook": "BeforeAll", "run": ["false"]},
              {"hook": "AfterAll", "run": ["sh", "-c", "echo after-all-$SUT_RUN_STATUS >> \(log.path)"]}
            ]}
            """, "hooks.steps.json", in: directory)
        _ = try CLI.write("Feature: f\n  Scenario: a\n    When I run \"true\"\n", "f.feature", in: directory)
        let result = try CLI.run(["test", "--junit", "j.xml", "f.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("BeforeAll hook (./hooks.steps.json:2) failed"), "\(result.stderr)")
        #expect(!result.stderr.contains("\\n"), "its output tail on lines of their own, not \\n escapes: \(result.stderr)")
        #expect(try String(contentsOf: log, encoding: .utf8) == "after-all-failed\n")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.contains("<error message=\"not run: BeforeAll hook"), "\(xml)")
    }

    @Test func ctrlCRunsTheAfterHooksAndAfterAllBeforeTheReports() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log")
        let marker = directory.appendingPathComponent("up")
        _ = try CLI.write(Self.stepFile(log), "hooks.steps.json", in: directory)
        _ = try CLI.write(
            "Feature: f\n  Scenario: long\n    When I run \"sh -c 'echo up > \(marker.path); exec sleep 30'\"\n", "f.feature", in: directory
        )
        let result = try InterruptedReportsEndToEndTests.interrupt(["f.feature"], in: directory, markers: [marker], signal: SIGINT)
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["before-all", "before-long", "after-interrupted", "after-all-interrupted"], "\(lines)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("j.xml").path))
    }

    @Test func hostileHookDefinitionsAreRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: f\n  Scenario: a\n    When I run \"true\"\n", "f.feature", in: directory)
        for (entry, problem) in [
            ("{\"hook\": \"Befor\", \"run\": [\"true\"]}", "a hook needs \"hook\": \"Before\""),
            ("{\"hook\": \"Before\"}", "a hook needs \"run\""),
            ("{\"hook\": \"Before\", \"run\": [\"\"]}", "a hook needs \"run\""),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"timeout\": \"2h\"}", "\"timeout\" must be a duration from 1ms up to 1h"),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"timeout\": \"-1s\"}", "\"timeout\" must be a duration from 1ms up to 1h"),
            // Attack 2, m4: 0s failed every scenario the hook ran for.
            ("{\"hook\": \"After\", \"run\": [\"true\"], \"timeout\": \"0s\"}", "\"timeout\" must be a duration from 1ms up to 1h"),
            // Round 4b, M: a timeout that rounds to 0 ms passed the "above 0" check and failed every scenario.
            ("{\"hook\": \"After\", \"run\": [\"true\"], \"timeout\": \"0.0000000001s\"}", "\"timeout\" must be a duration from 1ms"),
            ("{\"hook\": \"After\", \"run\": [\"true\"], \"timeout\": \"999us\"}", "\"timeout\" must be a duration from 1ms"),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"order\": 1e300}", "\"order\" must be a whole number"),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"order\": 9223372036854775808}", "\"order\" must be a whole number"),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"tags\": \"@a and (\"}", "hook tags \"@a and (\""),
            ("{\"hook\": \"BeforeAll\", \"run\": [\"true\"], \"tags\": \"@a\"}", "for Before and After hooks only"),
            ("{\"hook\": \"Before\", \"run\": [\"true\"], \"tag\": \"@a\"}", "unknown key \"tag\""),
        ] {
            _ = try CLI.write("{\"hooks\": [\n\(entry)\n]}", "h.steps.json", in: directory)
            let result = try CLI.run(["test", "f.feature"], cwd: directory)
            #expect(result.status == 3, "\(entry): \(result.stderr)")
            #expect(result.stderr.contains("h.steps.json:2: ") && result.stderr.contains(problem), "\(entry): \(result.stderr)")
            let check = try CLI.run(["check", "f.feature"], cwd: directory)
            #expect(check.status == 3 && check.stderr.contains(problem), "check agrees with test: \(check.stderr)")
            // Round 4b, M: check printed "ok: f.feature: 1 scenario" for the file set it refused (exit 3).
            #expect(!check.stdout.contains("ok"), "no ok for a refused file set: \(check.stdout)")
        }
    }
}
