import Foundation
import Testing

/// A re-attack of the Gherkin runner (findings C16, C14, C15, C6, C9, m1, m2), replayed against the built binary: a
/// request count whose watch the step timeout cut while the program ran, an empty `within ${T}`, JSON bodies that
/// check nothing, the summary after `--fail-fast`, a trust variable a step sets under HTTPS, and messages that named
/// the wrong reason.
@Suite struct ReattackRunnerEndToEndTests {
    /// C16, class 2 "a wait cut short by another deadline that then reports success": `received 0 requests` passed at
    /// the step timeout, then the program sent exactly that request; `received 1 request` passed for a run that sent
    /// two. A count or absence whose watch ended with a program running stays open and is judged again when the
    /// programs have ended (at a later step, or at the scenario's end), failing its own step; one that still holds
    /// passes (a program stopped by a signal after the count).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aCountCutByTheStepTimeoutIsJudgedWhenTheProgramsEnd() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "${SUT_MOCK_SERVER_URL}"
        _ = try CLI.write(
            """
            Feature: Open
              Background:
                Given the program "/bin/sh"
                And the route "GET /x" answers 204
                And the route "DELETE /users/{id}" answers 204

              Scenario: absence, the request after the watch
                When I launch the program with "-c 'sleep 1.3; curl -s -X DELETE \(url)/users/7; sleep 0.2'"
                Then the server received 0 requests to "DELETE /users/{id}"
                And the program finishes within 10s
                And the exit code is 0

              Scenario: one, the second after the watch, judged at the end
                When I launch the program with "-c 'curl -s \(url)/x; sleep 1.3; curl -s \(url)/x; sleep 30'"
                Then the server received 1 request to "GET /x"
                When I wait 2500ms

              Scenario: one, and it stays one until the program is stopped
                When I launch the program with "-c 'curl -s \(url)/x; exec sleep 30'"
                Then the server received 1 request to "GET /x"
                When I send the signal "TERM"
                Then the exit code is 143

              Scenario: no unexpected requests, one after the watch
                Given unexpected requests are allowed
                When I launch the program with "-c 'sleep 1.3; curl -s \(url)/nope; sleep 0.2'"
                Then the server received no unexpected requests
                And the program finishes within 10s

              Scenario: a request with a header waits for it
                When I launch the program with "-c 'sleep 0.4; curl -s -H x-a:1 \(url)/x'"
                Then the server received a request to "GET /x" with header "x-a" "1"

            """, "open.feature", in: directory)
        let result = try CLI.run(["test", "--step-timeout", "1s", "--jobs", "5", "--report", "r.json", "open.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("5 scenarios: 2 passed, 3 failed"), "\(result.stdout)")
        // Each fails on the count's own line, saying why it was judged again.
        for line in [
            "open.feature:9: Then the server received 0 requests", "open.feature:15: Then the server received 1 request",
            "open.feature:27: Then the server received no unexpected requests",
        ] {
            #expect(result.stdout.contains("Failed: \(line)"), "\(line)\n\(result.stdout)")
        }
        #expect(result.stdout.contains("expected 0 requests to DELETE /users/{id}, the server received 1"), "\(result.stdout)")
        #expect(result.stdout.contains("expected 1 request to GET /x, the server received 2"), "\(result.stdout)")
        #expect(result.stdout.contains("the server received unexpected requests:"), "\(result.stdout)")
        #expect(
            result.stdout.components(separatedBy: "judged again once the programs had ended: when this step's watch ended at 1s").count
                == 4,
            "\(result.stdout)")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains("\"failed\":3") || report.contains("\"failed\" : 3"), "\(report)")
    }

    /// C14: `within ${T}` with `-D T=` was no `within` at all (the step waited 3 s and passed); it fails the step naming
    /// `${T}`, as a bad duration does, on every step that takes one.
    @Test func anEmptyWithinValueFailsTheStepNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: W
              Scenario: run within
                When I run "sleep 3" within ${T}
              Scenario: see within
                When I run "echo hi"
                Then I see "hi" within ${T}
              Scenario: wait
                When I wait ${T}

            """, "w.feature", in: directory)
        let started = Date()
        let result = try CLI.run(["test", "-D", "T=", "w.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 0 passed, 3 could not run"), "\(result.stdout)")
        #expect(
            result.stdout.components(separatedBy: "\"${T}\": ${T} is empty, so this step names no duration").count == 4, "\(result.stdout)")
        #expect(Date().timeIntervalSince(started) < 2.9, "the sleep ran: \(result.stdout)")
    }

    /// C15: `with JSON body:` + `{}` passed on any JSON body and `{"items": []}` on `"items":[3,4]`: an expected value
    /// that names no value is a load error naming the line (`check` and `test`), as an empty expected text is.
    @Test func aJSONBodyThatNamesNoValueIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func body(_ json: String) -> String {
            "    Then the server received a request to \"POST /x\" with JSON body:\n      \"\"\"\n      \(json)\n      \"\"\"\n"
        }
        _ = try CLI.write(
            "Feature: JS\n  Scenario: s\n    Given the route \"POST /x\" answers 204\n" + body("{}") + body("[]") + body(#"{"items": []}"#)
                + body(#"{"a": {"b": {}}}"#) + body(#"{"items": [3]}"#) + body(#"{"a": "${HOME}"}"#),
            "js.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, "js.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.components(separatedBy: "names no value").count == 5, "\(command): \(result.stderr)")
            for line in [4, 8, 12, 16] {
                #expect(result.stderr.contains("js.feature:\(line): the expected JSON body"), "\(command) \(line): \(result.stderr)")
            }
        }
    }

    /// C6: after `--fail-fast` the console's summary counted only the scenarios that ran ("3 scenarios: 2 passed, 1
    /// failed" where the JSON report said 6, 3 not run); it counts every selected scenario, as the reports do.
    @Test func theSummaryAfterFailFastCountsTheScenariosNotRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var feature = "Feature: J\n  Scenario: fails fast\n    When I run \"false\"\n    Then the exit code is 0\n"
        for index in 1...5 { feature += "  Scenario: slow \(index)\n    When I run \"sleep 0.3\"\n    Then the exit code is 0\n" }
        _ = try CLI.write(feature, "j.feature", in: directory)
        let result = try CLI.run(["test", "--jobs", "3", "--fail-fast", "--report", "r.json", "j.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any])
        let (passed, failed, notRun) = (json["passed"] as? Int ?? -1, json["failed"] as? Int ?? -1, json["notRun"] as? Int ?? -1)
        #expect(json["scenarios"] as? Int == 6 && notRun > 0, "\(json)")
        #expect(result.stdout.contains("6 scenarios: \(passed) passed, \(failed) failed, \(notRun) not run"), "\(result.stdout)\(json)")
    }

    /// C9: under HTTPS a step's `SSL_CERT_FILE` silently won while `CURL_CA_BUNDLE` and the others stayed the run's;
    /// every trust variable the run sets for a launch fails that launch naming it, as the proxy and coverage ones do.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl and libssl3 (scripts/install-test-deps.sh)"))
    func aTrustVariableAStepSetsUnderHTTPSFailsTheLaunchNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var feature = "Feature: SSL\n"
        for name in ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"] {
            feature += """
                  Scenario: \(name)
                    Given the mock server speaks HTTPS
                    And the route "GET /x" answers 204
                    And the environment variable "\(name)" is "/my/own/ca.pem"
                    When I run "sh -c 'echo got=$\(name)'"
                    Then I see "got="

                """
        }
        feature += """
              Scenario: plain HTTP keeps it
                Given the route "GET /x" answers 204
                And the environment variable "SSL_CERT_FILE" is "/my/own/ca.pem"
                When I run "sh -c 'echo got=$SSL_CERT_FILE'"
                Then I see "got=/my/own/ca.pem"

            """
        _ = try CLI.write(feature, "ssl.feature", in: directory)
        let result = try CLI.run(["test", "ssl.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 scenarios: 1 passed, 3 could not run"), "\(result.stdout)")
        for name in ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"] {
            #expect(
                result.stdout.contains("the environment variable \(name) a step set is one sut-launch sets for this launch"),
                "\(name): \(result.stdout)")
        }
        #expect(!result.stdout.contains("got=/my/own/ca.pem\n    ✓"), "\(result.stdout)")
    }

    /// m1: a snapshot name `..` from `${N}` said "a snapshot needs a name", and an empty `${D}` in `Given the files
    /// from` / `Given the stubs` said "no such directory" / "cannot read the file": each names the real reason.
    @Test func emptyAndDotNamesFromValuesSayWhy() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: N
              Scenario: dot dot
                When I run "echo a"
                Then the output matches the snapshot "${N}"
              Scenario: empty snapshot name
                When I run "echo a"
                Then the output matches the snapshot "${E}"
              Scenario: files from
                Given the files from "${E}"
              Scenario: stubs
                Given the stubs "${E}"
              Scenario: program
                Given the program "${E}"

            """, "n.feature", in: directory)
        let result = try CLI.run(["test", "-D", "N=..", "-D", "E=", "n.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("snapshot name \"..\" names a directory, not a file"), "\(result.stdout)")
        for what in ["snapshot", "fixture directory", "stub file", "program"] {
            #expect(result.stdout.contains("\"${E}\": ${E} is empty, so this step names no \(what);"), "\(what): \(result.stdout)")
        }
    }

    /// m2: a feature file whose name is not UTF-8, found by walking a directory, was "cannot read the file (no such
    /// file)"; it says the name is not UTF-8. A directory whose name is not UTF-8 is never skipped silently.
    @Test func aFeatureFileWhoseNameIsNotUTF8SaysSo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let features = directory.appendingPathComponent("f")
        try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
        let text = "Feature: F\n  Scenario: s\n    When I run \"true\"\n"
        _ = try CLI.write(text, "ok.feature", in: features)
        // Foundation cannot spell a name that is not UTF-8: a shell makes it.
        try Self.shell("mv f/ok.feature \"$(printf 'f/x\\377.feature')\"", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, "f"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("cannot read the file (the name is not UTF-8; rename the file)"), "\(command): \(result.stderr)")
        }
        try FileManager.default.removeItem(at: features)
        try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
        _ = try CLI.write(text, "ok.feature", in: features)
        try Self.shell("mkdir \"$(printf 'f/d\\377')\" && cp f/ok.feature \"$(printf 'f/d\\377')/\"", in: directory)
        let walked = try CLI.run(["test", "f"], cwd: directory)
        #expect(walked.status == 2, "\(walked.stdout)\(walked.stderr)")
        #expect(walked.stderr.contains("a directory whose name is not UTF-8, so its files cannot be named"), "\(walked.stderr)")
    }

    private static func shell(_ script: String, in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(script)")
    }
}
