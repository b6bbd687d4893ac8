import Foundation
import Testing

/// `--retries`, `@retries=`, flaky scenarios, `--fail-on-flaky` and `@quarantine`/`--quarantine`, with the built
/// binary and real programs: a shell program that fails one time in three (its counter file outside the scenario's
/// directory, which each attempt gets anew), JUnit checked by xmllint against Maven Surefire's own schema, Messages
/// against Cucumber's.
@Suite struct RetriesEndToEndTests {
    /// A step that runs a program failing on runs 1, 4, 7... of the counter file `counter` (one time in three).
    static func oneInThree(_ counter: URL) -> String {
        "When I run \"sh -c 'n=$(cat \\\"$0\\\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \\\"$0\\\"; echo run $n; "
            + "[ $((n % 3)) -ne 1 ]' \(counter.path)\""
    }

    static let suite = """
        Feature: honest

          Scenario: flaky program
            STEP
            Then the exit code is 0

          Scenario: broken program
            When I run "sh -c 'echo broken >&2; exit 3'"
            Then the exit code is 0

        """

    /// Runs `test` in `directory` with every report; returns the result and the reports' paths.
    static func run(_ arguments: [String], in directory: URL) throws -> CLI.Result {
        let outputs = ["--junit", "j.xml", "--report", "r.json", "--messages", "m.ndjson", "--write-rerun", "rerun.txt"]
        return try CLI.run(["test"] + outputs + arguments, cwd: directory)
    }

    static func json(_ directory: URL) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any])
    }

    /// xmllint's verdict on each `<testsuite>` of a `--junit-strict` report against surefire-test-report-3.0.xsd
    /// (its root is one testsuite, and it has no file/line attributes).
    static func surefireVerdicts(_ junit: URL, in directory: URL) throws -> [String] {
        let xml = try String(contentsOf: junit, encoding: .utf8)
        let schema = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/surefire-test-report-3.0.xsd").path
        var verdicts: [String] = []
        var rest = Substring(xml)
        var index = 0
        while let start = rest.range(of: "<testsuite "), let end = rest.range(of: "</testsuite>") {
            let suite = directory.appendingPathComponent("suite\(index).xml")
            try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + rest[start.lowerBound..<end.upperBound]).write(
                to: suite, atomically: true, encoding: .utf8)
            verdicts.append(try CLI.output(of: ["sh", "-c", "xmllint --noout --schema \"$0\" \"$1\" 2>&1", schema, suite.path]))
            rest = rest[end.upperBound...]
            index += 1
        }
        return verdicts
    }

    @Test func aProgramThatFailsOneTimeInThreeIsFlakyAndPassesTheRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = directory.appendingPathComponent("counter")
        let feature = Self.suite.replacingOccurrences(of: "STEP", with: Self.oneInThree(counter))
        _ = try CLI.write(
            feature.replacingOccurrences(of: "  Scenario: broken program\n", with: "  @skip\n  Scenario: broken program\n"),
            "honest.feature", in: directory)
        let result = try Self.run(["--retries", "2", "--tags", "not @skip", "--junit-strict", "honest.feature"], in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 scenario: 1 passed, 1 flaky"), "\(result.stdout)")
        #expect(result.stdout.contains("attempt 1 of 3 failed (expected exit code 0, the program exited with code 1)"), "\(result.stdout)")
        #expect(try String(contentsOf: counter, encoding: .utf8) == "2\n", "it ran exactly twice")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.components(separatedBy: "<flakyFailure ").count == 2)
        #expect(xml.contains("<stackTrace>") && xml.contains("run 1"), "the failed attempt's output is kept")
        #expect(!xml.contains("<failure"))
        if CLI.hasCommand("xmllint") {
            for verdict in try Self.surefireVerdicts(directory.appendingPathComponent("j.xml"), in: directory) {
                #expect(verdict.contains("validates"), "\(verdict)")
            }
        }
        let json = try Self.json(directory)
        #expect(json["flaky"] as? Int == 1)
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results[0]["flaky"] as? Bool == true)
        let attempts = try #require(results[0]["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["status"] as? String } == ["failed", "passed"])
        let messages = directory.appendingPathComponent("m.ndjson").path
        let envelopes = try ReportTrustEndToEndTests.envelopes(messages)
        let started = envelopes.compactMap { $0["testCaseStarted"] as? [String: Any] }
        #expect(started.map { $0["attempt"] as? Int } == [0, 1])
        #expect(Set(started.compactMap { $0["testCaseId"] as? String }).count == 1, "one test case, two attempts")
        let finished = envelopes.compactMap { $0["testCaseFinished"] as? [String: Any] }
        #expect(finished.map { $0["willBeRetried"] as? Bool } == [true, false])
        #expect(InterruptedReportsEndToEndTests.orderProblems(envelopes).isEmpty)
        if CLI.hasCommand("python3") {
            let verdict = try ReportTrustEndToEndTests.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "", "a flaky pass is no failure")
    }

    @Test func failOnFlakyFailsTheRunThatAFlakyScenarioPassed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = directory.appendingPathComponent("counter")
        _ = try CLI.write(
            "Feature: f\n  Scenario: s\n    \(Self.oneInThree(counter))\n    Then the exit code is 0\n", "f.feature", in: directory)
        let result = try Self.run(["--retries", "1", "--fail-on-flaky", "--junit-strict", "f.feature"], in: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--fail-on-flaky: 1 scenario passed only on a retry (exit 1)"), "\(result.stderr)")
        // It failed the run, so every report says so and `--rerun-failed` selects it from each: `test … || test
        // --rerun-failed … --allow-empty` must not turn red green.
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "f.feature:2\n")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.contains("failures=\"1\"") && xml.contains("<failure message=\"flaky: passed only on a retry (--fail-on-flaky)\""))
        if CLI.hasCommand("xmllint") {
            for verdict in try Self.surefireVerdicts(directory.appendingPathComponent("j.xml"), in: directory) {
                #expect(verdict.contains("validates"), "\(verdict)")
            }
        }
        for file in ["rerun.txt", "j.xml", "m.ndjson"] {
            let again = try CLI.run(["test", "--rerun-failed", file, "--allow-empty", "--list", "f.feature"], cwd: directory)
            #expect(again.status == 0 && again.stdout.contains("f.feature:2"), "\(file): \(again.stdout)\(again.stderr)")
        }
        // Quarantined, a flaky pass never fails the run, as the docs say of every quarantined outcome.
        try "f.feature:2\n".write(to: directory.appendingPathComponent("q.txt"), atomically: true, encoding: .utf8)
        try "0".write(to: counter, atomically: true, encoding: .utf8)
        let quarantined = try Self.run(["--retries", "1", "--fail-on-flaky", "--quarantine", "q.txt", "f.feature"], in: directory)
        #expect(quarantined.status == 0, "\(quarantined.stdout)\(quarantined.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "")
    }

    @Test func everyAttemptFailedIsAFailureWithItsRerunsAndTheRerunFileNamesIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = directory.appendingPathComponent("counter")
        _ = try CLI.write(Self.suite.replacingOccurrences(of: "STEP", with: Self.oneInThree(counter)), "honest.feature", in: directory)
        // The tag beats the option: the broken scenario gets 2 retries, the flaky one 1.
        let tagged = try String(contentsOf: directory.appendingPathComponent("honest.feature"), encoding: .utf8)
            .replacingOccurrences(of: "  Scenario: broken program", with: "  @retries=2\n  Scenario: broken program")
        try tagged.write(to: directory.appendingPathComponent("honest.feature"), atomically: true, encoding: .utf8)
        let result = try Self.run(["--retries", "1", "--junit-strict", "honest.feature"], in: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("all 3 attempts failed"), "\(result.stdout)")
        #expect(result.stdout.contains("2 scenarios: 1 passed, 1 failed, 1 flaky"), "\(result.stdout)")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.components(separatedBy: "<failure ").count == 2)
        #expect(xml.components(separatedBy: "<rerunFailure ").count == 3)
        #expect(xml.contains("<system-err>--- last 0 lines of stdout ---\n--- last 1 line of stderr ---\nbroken"), "\(xml)")
        if CLI.hasCommand("xmllint") {
            for verdict in try Self.surefireVerdicts(directory.appendingPathComponent("j.xml"), in: directory) {
                #expect(verdict.contains("validates"), "\(verdict)")
            }
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "honest.feature:8\n")
        let finished = try ReportTrustEndToEndTests.envelopes(directory.appendingPathComponent("m.ndjson").path)
            .compactMap { $0["testCaseFinished"] as? [String: Any] }.map { $0["willBeRetried"] as? Bool }
        #expect(finished == [true, false, true, true, false])
    }

    @Test func undefinedStepsAreNeverRetriedAndRetriesHaveALimit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: f\n  Scenario: s\n    When I dance the polka\n", "f.feature", in: directory)
        let result = try Self.run(["--retries", "3", "f.feature"], in: directory)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("↻"), "\(result.stdout)")
        #expect(!(try Self.json(directory)["results"] as? [[String: Any]] ?? []).contains { $0["attempts"] != nil })
        for value in ["11", "-1", "1e300", "9223372036854775808", "", "0x10"] {
            let refused = try CLI.run(["test", "--retries", value, "f.feature"], cwd: directory)
            #expect(refused.status == 2, "--retries \(value): \(refused.stderr)")
            #expect(refused.stderr.contains("--retries"), "\(refused.stderr)")
        }
        _ = try CLI.write("Feature: g\n  @retries=11\n  Scenario: s\n    When I run \"true\"\n", "g.feature", in: directory)
        let tag = try CLI.run(["test", "g.feature"], cwd: directory)
        #expect(tag.status == 3, "\(tag.stderr)")
        #expect(
            tag.stderr.contains("g.feature:3: tag @retries=11: the number of retries '11' is not a whole number from 0 to 10 (bare digits"),
            "\(tag.stderr)")
        // A Feature's tag and the scenario's own both reach the scenario: neither wins silently (as @timeout=).
        _ = try CLI.write("@retries=1\nFeature: h\n  @retries=3\n  Scenario: s\n    When I run \"true\"\n", "h.feature", in: directory)
        for command in ["check", "test"] {
            let two = try CLI.run([command, "h.feature"], cwd: directory)
            let said = two.stdout + two.stderr
            #expect(two.status == 3, "\(command): \(said)")
            #expect(said.contains("h.feature:4: 2 retries tags on one scenario (@retries=1, @retries=3"), "\(command): \(said)")
        }
    }

    @Test func failFastStopsAfterTheLastAttemptOfTheFirstFailure() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: f\n  Scenario: a\n    When I run \"false\"\n    Then the exit code is 0\n  Scenario: b\n    When I run \"true\"\n",
            "f.feature", in: directory)
        let result = try Self.run(["--retries", "2", "--fail-fast", "f.feature"], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: "↻").count == 3, "both retries ran: \(result.stdout)")
        #expect(result.stderr.contains("--fail-fast: 1 scenario not run"), "\(result.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "f.feature:2:5\n")
    }

    @Test func ctrlCDuringARetryStopsItAndWritesEveryAttempt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("up")
        let counter = directory.appendingPathComponent("counter")
        // The first attempt fails at once; the second writes the marker and sleeps until the signal.
        let step =
            "When I run \"sh -c 'n=$(cat \\\"$0\\\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \\\"$0\\\"; "
            + "[ $n -eq 1 ] && exit 1; echo up > \(marker.path); exec sleep 30' \(counter.path)\""
        _ = try CLI.write("Feature: f\n  Scenario: s\n    \(step)\n    Then the exit code is 0\n", "f.feature", in: directory)
        let result = try InterruptedReportsEndToEndTests.interrupt(
            ["--retries", "3", "--write-rerun", "rerun.txt", "f.feature"], in: directory, markers: [marker], signal: SIGINT)
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOf: counter, encoding: .utf8) == "2\n", "no third attempt after the signal")
        let reports = try InterruptedReportsEndToEndTests.reports(in: directory)
        let results = try #require(reports.json["results"] as? [[String: Any]])
        let attempts = try #require(results.first?["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["status"] as? String } == ["failed", "error"])
        #expect((attempts.last?["message"] as? String)?.contains("interrupted by SIGINT") == true)
        let started = reports.envelopes.compactMap { $0["testCaseStarted"] as? [String: Any] }.map { $0["attempt"] as? Int }
        #expect(started == [0, 1])
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "f.feature:2\n")
    }

    @Test func quarantinedScenariosRunApartAndNeverFailTheRunUnlessTheyCannotRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: q
              @quarantine
              Scenario: tagged
                When I run "sh -c 'exit 4'"
                Then the exit code is 0
              Scenario: listed by line
                When I run "false"
                Then the exit code is 0
              Scenario: listed by name
                When I run "true"
              Scenario: plain
                When I run "true"

            """, "q.feature", in: directory)
        _ = try CLI.write("# flaky since Tuesday\nq.feature:6\n\nlisted by name\r\n", "quarantine.txt", in: directory)
        let result = try Self.run(["--quarantine", "quarantine.txt", "q.feature"], in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 scenarios: 2 passed, 3 quarantined (2 of them failed)"), "\(result.stdout)")
        let xml = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(xml.contains("<skipped message=\"quarantined: failed: expected exit code 0, the program exited with code 4\"/>"), "\(xml)")
        #expect(xml.contains("<skipped message=\"quarantined: passed\"/>"))
        #expect(xml.contains("failures=\"0\" errors=\"0\" skipped=\"3\""), "\(xml)")
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "")
        let marks = try ReportTrustEndToEndTests.envelopes(directory.appendingPathComponent("m.ndjson").path)
            .compactMap { $0["attachment"] as? [String: Any] }.filter {
                $0["mediaType"] as? String == "application/vnd.sut-launch.quarantine"
            }
        #expect(marks.count == 3)
        let json = try Self.json(directory)
        #expect(json["quarantined"] as? Int == 3)
        // A quarantined scenario that cannot run (an undefined step) still fails the run: that is the suite's fault.
        _ = try CLI.write("Feature: u\n  @quarantine\n  Scenario: u\n    When I dance the polka\n", "u.feature", in: directory)
        let undefined = try Self.run(["u.feature"], in: directory)
        #expect(undefined.status == 1, "\(undefined.stdout)")
        // Entries that name no scenario are refused, with the file and line.
        for (text, problem) in [
            ("q.feature:3\nq.feature:4\n", "quarantine.txt:2: q.feature:4: no scenario or Examples row starts at line 4"),
            ("no such scenario\n", "quarantine.txt:1: no scenario of this run is named \"no such scenario\"; write a scenario's exact"),
            ("q.feature:9:16\n", "quarantine.txt:1: q.feature:16: no scenario or Examples row starts at line 16"),
            ("/etc/passwd.feature:1\n", "quarantine.txt:1: /etc/passwd.feature is not one of the feature files of this run"),
        ] {
            _ = try CLI.write(text, "quarantine.txt", in: directory)
            let refused = try CLI.run(["test", "--quarantine", "quarantine.txt", "q.feature"], cwd: directory)
            #expect(refused.status == 2 && refused.stderr.contains(problem), "\(refused.stderr)")
        }
        // Cucumber's rerun line (a file, its lines) is taken as it is.
        _ = try CLI.write("q.feature:6:9\n", "quarantine.txt", in: directory)
        let both = try Self.run(["--quarantine", "quarantine.txt", "q.feature"], in: directory)
        #expect(both.stdout.contains("3 quarantined (2 of them failed)"), "\(both.stdout)")
    }

    @Test func githubAnnotationsWarnOfQuarantinedFailuresAndFlakyPasses() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = directory.appendingPathComponent("counter")
        _ = try CLI.write(
            "Feature: g\n  Scenario: flaky\n    \(Self.oneInThree(counter))\n    Then the exit code is 0\n"
                + "  @quarantine\n  Scenario: parked\n    When I run \"false\"\n    Then the exit code is 0\n", "g.feature", in: directory)
        let result = try CLI.run(["test", "--retries", "1", "--format", "github", "g.feature"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("::warning file=g.feature,line=2,title=g%3A flaky::flaky: passed on attempt 2"), "\(result.stdout)")
        #expect(result.stdout.contains("::warning file=g.feature,line=8,title=g%3A parked::quarantined: "), "\(result.stdout)")
        #expect(!result.stdout.contains("::error"), "nothing that passes the run is an error")
    }
}
