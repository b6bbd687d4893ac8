import Foundation
import Testing

@Suite struct ScenarioEndToEndTests {
    static let features = CLI.packageRoot.appendingPathComponent("Fixtures/features").path
    static let failing = CLI.packageRoot.appendingPathComponent("Fixtures/features-failing").path

    private func test(_ arguments: [String], whileRunning: ((Process, URL) throws -> Void)? = nil) throws -> CLI.Result {
        try CLI.run(["test", "-D", "PROGRAM=\(CLI.myApp)"] + arguments, whileRunning: whileRunning)
    }

    /// Writes a feature file into a fresh directory.
    private func feature(_ text: String, in directory: URL, name: String = "t.feature") throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func theExampleSuitePasses() throws {
        let result = try test(["--jobs", "2", Self.features])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("") && result.stdout.contains("10 scenarios: 10 passed in "))
        #expect(result.stdout.contains("✓ Login: Greetings follow the feature flag (greeting = ciao)"))
    }

    @Test func failuresShowTheStepTheOutputAndUnexpectedRequests() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml")
        let report = directory.appendingPathComponent("report.json")
        let result = try test(["--junit", junit.path, "--report", report.path, Self.failing])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Failed: \(Self.failing)/failing.feature:7: Then I see \"goodbye, world\"\n    expected \"goodbye, world\" on stdout: the program exited with code 0 without printing it"
            ))
        #expect(result.stdout.contains("--- last 2 lines of stdout ---\n    MyAppCLI (under test: yes)\n    hello, world"))
        #expect(
            result.stdout.contains(
                "undefined step: Then I should see \"hello, world\"\n      closest catalog entries:\n        Then I do not see \"error\"\n        Then I see \"logged in as ada\""
            ))
        #expect(result.stdout.contains("Unexpected requests:\n    GET /image\n      Nearest stub: GET /message"))
        #expect(result.stdout.contains("3 scenarios: 0 passed, 2 failed, 1 could not run"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"Failures on purpose\" tests=\"3\" failures=\"2\" errors=\"1\""))
        #expect(xml.contains("<testcase classname=\"Failures on purpose\" name=\"The expected text never appears\""))
        // The whole reason in the message attribute (its lines as &#10;), and the output tail in the body too.
        #expect(
            xml.contains("<error message=\"undefined step: Then I should see &quot;hello, world&quot;&#10;  closest catalog entries:&#10;"))
        #expect(xml.contains("Unexpected requests:\nGET /image"))
        #expect(
            xml.contains(
                "--- last 2 lines of stdout ---\nMyAppCLI (under test: yes)\nhello, world\n--- last 0 lines of stderr ---\n</failure>"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["failed"] as? Int == 2)
        #expect(json["errors"] as? Int == 1)
    }

    @Test(.enabled(if: CLI.hasCommand("xmllint"), "needs xmllint (apt-get install libxml2-utils)"))
    func junitPassesASchemaCheck() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The default report against the schema with file/line; --junit-strict against the strict one.
        for (name, suite, strict) in [
            ("pass.xml", Self.features, false), ("fail.xml", Self.failing, false), ("strict.xml", Self.failing, true),
        ] {
            let junit = directory.appendingPathComponent(name)
            _ = try test(["--junit", junit.path] + (strict ? ["--junit-strict"] : []) + [suite])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.environment = CLI.localEnvironment
            let schema = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/\(strict ? "junit-strict" : "junit").xsd").path
            process.arguments = ["xmllint", "--noout", "--schema", schema, junit.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }
    }

    @Test func aReplyThatDiffersOrNeverComesFailsTheStepNamingTheMessage() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try feature(
            """
            Feature: control
              Scenario: wrong reply
                Given the route "GET /health" answers 200
                When I launch the program with "listen"
                Then I see "listening for control messages"
                And the program replies "pong" to the control message "ping"

              Scenario: nobody listens
                Given the route "GET /health" answers 200
                When I launch the program with "greet"
                Then the program acknowledges the control message "refresh"

              Scenario: a refusal is no acknowledgement
                Given the route "GET /health" answers 200
                When I launch the program with "listen"
                Then I see "listening for control messages"
                And the program acknowledges the control message "flag set =x"
            """, in: directory)
        let result = try test(["--step-timeout", "5s", path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        // r12 R12-7: the library's refusal (`error: …`) passed the step that says the message was acted on.
        #expect(result.stdout.contains(#"the program refused the control message "flag set =x": it replied "error: "#), "\(result.stdout)")
        #expect(result.stdout.contains("0 passed"), "\(result.stdout)")
        #expect(result.stdout.contains(#"the program replied "ok" to the control message "ping", not "pong""#), "\(result.stdout)")
        #expect(result.stdout.contains(#"the program exited with code 0 before it took the control message "refresh""#), "\(result.stdout)")
    }

    @Test func aProgramRunsInATerminalWithKeysAndTheScreen() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try feature(
            """
            Feature: terminal
              Scenario: a prompt on a terminal
                Given the program runs in a terminal of 60x10
                And the program "sh"
                When I launch the program with "-c 'trap \\"echo bye; exit 4\\" INT; stty size; printf \\"working...\\\\r\\\\033[Kname? \\"; read name; echo hi $name; while :; do sleep 0.05; done'"
                Then the screen shows "10 60"
                And the screen shows "name?"
                When I type "ada"
                Then the screen shows "hi ada"
                When I press Ctrl-C
                Then the screen shows "bye"
                And the exit code is 4

              Scenario: a screen that never shows
                Given the program runs in a terminal
                And the program "sh"
                When I launch the program with "-c 'printf \\"old\\\\r\\\\033[Knew\\"'"
                Then the screen shows "old" within 300ms
            """, in: directory)
        let result = try test([path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✓ terminal: a prompt on a terminal"), "\(result.stdout)")
        #expect(result.stdout.contains("expected the screen to show \"old\""), "\(result.stdout)")
        #expect(result.stdout.contains("    --- screen (80x24) ---\n    new\n"), "\(result.stdout)")
        let unknownKey = try feature(
            """
            Feature: keys
              Scenario: a key no terminal has
                Given the program runs in a terminal
                When I launch the program with "listen"
                And I press F13
            """, in: directory, name: "keys.feature")
        let check = try CLI.run(["check", unknownKey])
        #expect(check.status == 3, "\(check.stdout)\(check.stderr)")
        #expect((check.stdout + check.stderr).contains("unknown key \"F13\"; keys: enter, tab"), "\(check.stdout)\(check.stderr)")
    }

    /// --messages writes Cucumber Messages: documents, pickles and results from test; documents or parse
    /// errors from check, every file, undefined steps or not.
    @Test func cucumberMessagesForReportTools() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let messages = directory.appendingPathComponent("run.ndjson").path
        let result = try test(["--messages", messages, Self.features + "/login.feature"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let envelopes = try String(contentsOfFile: messages, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let kinds = envelopes.compactMap(\.keys.first)
        #expect(kinds.first == "meta" && kinds.last == "testRunFinished")
        #expect(kinds.filter { $0 == "pickle" }.count == 6 && kinds.filter { $0 == "testCase" }.count == 6)
        #expect(!kinds.contains("parseError"))
        #expect((envelopes.last?["testRunFinished"] as? [String: Any])?["success"] as? Bool == true)
        // The program's output is attached to the scenario's last step that ran.
        // (Besides sut-launch's records: each case's result and the run's, which `sut-launch report` renders from.)
        let attachments = envelopes.compactMap { $0["attachment"] as? [String: Any] }.filter { $0["mediaType"] as? String == "text/plain" }
        #expect(
            envelopes.compactMap { $0["attachment"] as? [String: Any] }.filter { $0["mediaType"] as? String == "application/json" }.count
                == 7)
        #expect(attachments.count == 6 && attachments.allSatisfy { ($0["body"] as? String)?.contains("--- last") == true })
        // Steps are timed one by one.
        let nanos = envelopes.compactMap {
            (($0["testStepFinished"] as? [String: Any])?["testStepResult"] as? [String: Any])?["duration"] as? [String: Any]
        }
        .map { ($0["seconds"] as? Int ?? 0) * 1_000_000_000 + ($0["nanos"] as? Int ?? 0) }
        #expect(nanos.count > 10 && nanos.contains { $0 > 0 })
        // Every test step names the step definition that matched it (the catalog's), and that definition exists.
        let definitions = Set(envelopes.compactMap { ($0["stepDefinition"] as? [String: Any])?["id"] as? String })
        let testSteps = envelopes.compactMap { ($0["testCase"] as? [String: Any])?["testSteps"] as? [[String: Any]] }.flatMap { $0 }
        // (The mock server's checks are a hook's test step: it names the hook.)
        let hooks = Set(envelopes.compactMap { ($0["hook"] as? [String: Any])?["id"] as? String })
        #expect(
            !testSteps.isEmpty
                && testSteps.allSatisfy { step in
                    if let hook = step["hookId"] as? String { return hooks.contains(hook) }
                    let ids = step["stepDefinitionIds"] as? [String] ?? []
                    return ids.count == 1 && definitions.contains(ids[0])
                })

        let broken = try feature("Feature: f\n  Scenario: s\n    Given a step\n  Scenaro: typo\n", in: directory, name: "broken.feature")
        let undefined = try feature("Feature: g\n  Scenario: s\n    Given nothing we know\n", in: directory, name: "undefined.feature")
        let checkMessages = directory.appendingPathComponent("check.ndjson").path
        let check = try CLI.run(["check", "--messages", checkMessages, broken, undefined])
        #expect(check.status == 3)
        let checked = try String(contentsOfFile: checkMessages, encoding: .utf8)
        #expect(checked.contains(#""parseError":{"source":{"uri":"\#(broken)","location":{"line":4}}"#), "\(checked)")
        #expect(checked.contains(#""text":"nothing we know""#), "the undefined step's file is still written: \(checked)")
    }

    static let hasMessagesSchema = (try? CLI.output(of: ["python3", "-c", "import cucumber_messages; print('yes')"])) == "yes\n"

    /// Every envelope of a passing run, a failing one (failed, undefined, skipped steps, attachments) and a check
    /// with a parse error, held against Cucumber's message schema (PyPI cucumber-messages): required fields, no
    /// unknown key, known enum values, JSON types.
    @Test(.enabled(if: hasMessagesSchema, "needs PyPI cucumber-messages (scripts/install-test-deps.sh installs it)"))
    func cucumberMessagesFollowTheSchema() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passing = directory.appendingPathComponent("passing.ndjson").path
        let failing = directory.appendingPathComponent("failing.ndjson").path
        let checked = directory.appendingPathComponent("check.ndjson").path
        #expect(try test(["--messages", passing, Self.features]).status == 0)
        #expect(try test(["--messages", failing, Self.failing]).status == 1)
        let broken = try feature("Feature: f\n  Scenario: s\n    Given a step\n  Scenaro: typo\n", in: directory, name: "broken.feature")
        #expect(try CLI.run(["check", "--messages", checked, broken, Self.features]).status == 3)
        let script = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/cucumber_messages_check.py").path
        let verdict = try CLI.output(of: ["python3", script, passing, failing, checked])
        #expect(verdict.hasPrefix("ok "), "\(verdict)")
        let text = try String(contentsOfFile: failing, encoding: .utf8)
        for status in ["\"FAILED\"", "\"SKIPPED\"", "\"UNDEFINED\"", "\"PASSED\""] {
            #expect(text.contains(status), "the failing run reports \(status)")
        }
    }

    @Test func tagsSelectAndListShowsTheSelection() throws {
        let smoke = try test(["--list", "--tags", "@smoke and not @backend", Self.features])
        #expect(smoke.status == 0)
        let lines = smoke.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("@smoke") })
        let run = try test(["--tags", "@backend", Self.features])
        #expect(run.stdout.contains("1 scenario: 1 passed (9 not selected)"))
        #expect(try test(["--tags", "@smoke and", Self.features]).status == 2)
    }

    @Test func shardsSplitTheSuiteWithoutOverlap() throws {
        var all: [Substring] = []
        for shard in 1...3 {
            let listed = try test(["--list", "--shard", "\(shard)/3", Self.features]).stdout.split(separator: "\n")
            #expect(!listed.isEmpty)
            all += listed
        }
        let everything = try test(["--list", Self.features]).stdout.split(separator: "\n")
        #expect(all.sorted() == everything.sorted())
        #expect(Set(all).count == all.count)
        #expect(try test(["--shard", "4/3", Self.features]).status == 2)
    }

    @Test func stepAndScenarioTimeoutsFire() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try feature(
            """
            Feature: Timeouts
              Scenario: A step waits at most the step timeout
                When I launch the program with "login"
                Then I see "never printed"

              @timeout=1s
              Scenario: A scenario stops at its timeout
                When I launch the program with "login"
                And I wait 5s
                Then the program is still running
            """, in: directory)
        let started = Date()
        let result = try CLI.run(["test", "--step-timeout", "300ms", "-D", "PROGRAM=\(CLI.myApp)", path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.stdout.contains("expected \"never printed\" on stdout: it did not appear within 300ms"))
        #expect(
            result.stdout.contains("the wait was cut short by the scenario's 1s timeout (raise its @timeout=1s tag; the step asked for 5s)")
        )
        // The time shown is measured (1s, or 1.1s on a loaded machine), the status is not.
        #expect(result.stdout.contains("s, timed out)"), "\(result.stdout)")
        #expect(elapsed < 10, "took \(elapsed) s") // 0.3 s + 1 s of timeouts, far from 2 s and 60 s defaults
    }

    @Test func parallelJobsGetTheirOwnPortsAndDirectories() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var scenarios = ""
        for index in 1...12 {
            scenarios += """

                  Scenario: Server \(index)
                    Given the route "GET /message" answers 200 with:
                      \"\"\"
                      from scenario \(index)
                      \"\"\"
                    And the route "GET /image" answers 200
                    When I launch the program with "fetch"
                    Then I see "message: 200 from scenario \(index)"
                    And the exit code is 0
                    And the server received 1 request to "GET /message"

                """
        }
        let path = try feature("Feature: Parallel\n" + scenarios, in: directory)
        let result = try test(["--jobs", "4", path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("12 scenarios: 12 passed"))
    }

    @Test func ctrlCStopsTheRunAndItsPrograms() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try feature(
            "Feature: hang\n  Scenario: waits\n    When I launch the program with \"login\"\n    And I wait 30s\n", in: directory)
        let started = Date()
        let result = try test([path]) { process, _ in
            usleep(700_000)
            process.interrupt()
        }
        #expect(result.status == 130)
        #expect(result.stderr.contains("sut-launch: interrupted by SIGINT; stopping the scenarios' programs"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func badFeatureFilesExit3AndCheckFindsUndefinedSteps() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = try feature(
            "Feature: x\n  Scenario: s\n    Given a\n    | a | b |\n    | c |\n", in: directory, name: "broken.feature")
        let result = try test([broken])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "sut-launch: error: \(broken):5: inconsistent cell count within the table: this row has 1 cells, the first has 2\n")
        let undefined = try feature("Feature: y\n  Scenario: s\n    When I lanch the program\n", in: directory, name: "undefined.feature")
        let check = try CLI.run(["check", undefined, Self.features + "/login.feature"])
        #expect(check.status == 3)
        #expect(
            check.stderr
                == "sut-launch: error: \(undefined):3: undefined step \"When I lanch the program\"; closest: When I launch the program with \"login --verbose\"; "
                + #"or in a *.steps.json: { "step": "I lanch the program", "run": ["./steps/i-lanch-the-program.sh"] }; "#
                + #"or in Swift: steps.step("I lanch the program") { (context: StepContext) in /* ... */ }"# + "\n")
        #expect(check.stdout == "ok: \(Self.features)/login.feature: 6 scenarios\n")
        #expect(try test([directory.appendingPathComponent("missing").path]).status == 2)
    }

    /// Removing a scenario's directory never follows a symbolic link the program left there.
    @Test func cleaningUpAScenarioDoesNotFollowSymlinksOut() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let precious = directory.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try "keep me".write(to: precious.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
        let path = try feature(
            """
            Feature: cleanup
              Scenario: a link out of the scenario directory
                Given the program "sh"
                When I launch the program with "-c 'ln -s \(precious.path) link && mkdir -p a/b/c && ln -s \(precious.path) a/b/c/deep'"
                Then the exit code is 0
            """, in: directory)
        let result = try CLI.run(["test", path])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: precious.appendingPathComponent("file.txt").path))
    }
}
