import Foundation
import Testing

/// A re-attack of round 4's fixes (findings C1, C4, and the first and ninth of its list), replayed against the built
/// binary: the program stopping its own mock server, a value that is wildcard syntax in an output pattern, a scenario
/// pointing its program at another server, and `test` whose reader went away.
@Suite struct ReattackEndToEndTests {
    /// The program sent `POST /__admin/shutdown` and then the request a scenario asserts it never sends: the request
    /// met a closed socket, so "0 requests" and "no unexpected requests" passed. A run's server is not the program's
    /// to stop: 403, unexpected (the scenario and a strict run fail); `serve` still stops on it.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theProgramCannotStopItsRunsServer() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S
              Scenario: stop the server, then delete
                Given the route "DELETE /kept" answers 204
                When I run "sh -c 'curl -s -X POST ${SUT_MOCK_SERVER_URL}/__admin/shutdown; sleep 0.3; curl -s -X DELETE ${SUT_MOCK_SERVER_URL}/users/7'"
                Then the server received 0 requests to "DELETE /users/{id}"
                And the server received no unexpected requests

            """, "s.feature", in: directory)
        let scenario = try CLI.run(["test", "s.feature"], cwd: directory)
        #expect(scenario.status == 1, "\(scenario.stdout)\(scenario.stderr)")
        #expect(scenario.stdout.contains("POST /__admin/shutdown"), "\(scenario.stdout)")
        let stubs = try CLI.write(#"{"routes": [{"method": "DELETE", "path": "/kept", "status": 204}]}"#, "st.json", in: directory)
        let script =
            "curl -s -o /dev/null -w '%{http_code} ' -X POST \"$SUT_MOCK_SERVER_URL/__admin/shutdown\"; sleep 0.3; "
            + "curl -s -o /dev/null -w '%{http_code}' -X DELETE \"$SUT_MOCK_SERVER_URL/kept\""
        let run = try CLI.run(["--strict", "--stub", stubs, "sh", "-c", script], cwd: directory)
        #expect(run.stdout == "403 204", "\(run.stdout)\(run.stderr)") // refused, and the server still answers
        #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("/__admin/shutdown"), "\(run.stderr)")
    }

    /// `-D V='[..]' -D L='...'` made `the output is:` and `the file … is:` match any text: what a value brings is text.
    /// A line that is a pattern of its own and gets a value holding `[..]` fails the step naming the value.
    @Test func aValueIsNeverWildcardSyntaxInAnOutputPattern() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: W
              Scenario: value with wildcard
                When I run "sh -c 'echo status: FAILED; echo ERROR; echo end'"
                Then the output is:
                  \"\"\"
                  status: ${V}
                  ${L}
                  end
                  \"\"\"
              Scenario: value in file is
                Given a file "a.txt" with:
                  \"\"\"
                  version: 9.9.9-evil
                  \"\"\"
                Then the file "a.txt" is:
                  \"\"\"
                  version: ${V}
                  \"\"\"
              Scenario: literal values still compare
                When I run "sh -c 'echo status: [..]; echo ...'"
                Then the output is:
                  \"\"\"
                  status: ${V}
                  ${L}
                  \"\"\"
              Scenario: a pattern line of its own
                When I run "sh -c 'echo a [..] b x'"
                Then the output is:
                  \"\"\"
                  a ${V} b [..]
                  \"\"\"

            """, "w.feature", in: directory)
        let result = try CLI.run(["test", "-D", "V=[..]", "-D", "L=...", "w.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 scenarios: 1 passed, 2 failed, 1 could not run"), "\(result.stdout)")
        #expect(result.stdout.contains("the value of ${V} holds [..]"), "\(result.stdout)")
    }

    /// `Given the automation flag "mockServerURL"` sent the program to another server (the command line refuses it);
    /// an empty flag key or entry point, and an entry point set by both steps, are refused, never sent or dropped.
    @Test func aScenarioCannotSendItsProgramAwayOrSetTheEntryPointTwice() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            ("Given the automation flag \"mockServerURL\" is \"http://evil\"", "would send the program away from the mock server"),
            ("Given the feature flag \"\" is \"1\"", "needs a name"),
            ("Given the entry point \"\"", "the entry point is empty"),
            ("Given the entry point \"a\"\n    Given the automation flag \"entryPoint\" is \"b\"", "the entry point is set twice"),
            ("Given the automation flag \"entryPoint\" is \"b\"\n    Given the entry point \"a\"", "the entry point is set twice"),
        ]
        for (steps, problem) in cases {
            _ = try CLI.write(
                """
                Feature: F
                  Scenario: s
                    Given the route "GET /x" answers 204
                    \(steps)
                    When I launch the program with "flags"

                """, "f.feature", in: directory)
            let result = try CLI.run(["test", "-D", "PROGRAM=\(CLI.myApp)", "f.feature"], cwd: directory)
            #expect(result.status == 1, "\(steps): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(problem), "\(steps): \(result.stdout)")
        }
    }

    /// `sut-launch test … | true` exited 0 with its results never delivered: as a program piped to a reader that
    /// left, 141; the same to `/dev/full` stays 74.
    @Test func aSubcommandWhoseReaderWentAwayIsNotZero() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: P\n  Scenario: a\n    When I run \"true\"\n  Scenario: b\n    When I run \"sleep 0.3\"\n", "p.feature", in: directory)
        // A pipe whose reader is gone before sut-launch starts: every write meets EPIPE (a reader that leaves later
        // races the writes, as with any program).
        func status(_ arguments: [String], stdout: Any) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.sutLaunch)
            process.arguments = arguments
            process.environment = CLI.localEnvironment
            process.currentDirectoryURL = directory
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        var statuses: [Int32] = []
        for arguments in [["test", "p.feature"], ["test", "--list", "p.feature"], ["check", "p.feature"]] {
            let gone = Pipe()
            try gone.fileHandleForReading.close()
            statuses.append(try status(arguments, stdout: gone))
        }
        statuses.append(try status(["test", "p.feature"], stdout: try #require(FileHandle(forWritingAtPath: "/dev/full"))))
        statuses.append(try status(["test", "p.feature"], stdout: FileHandle.nullDevice))
        #expect(statuses == [141, 141, 141, 74, 0])
    }

    /// `--artifacts` inside the features directory fed the next run: a failed scenario's copied files (a `.feature`, a
    /// step file with a BeforeAll hook) became part of the suite. Refused before anything runs; so is a report inside
    /// `--coverage DIR` (a JUnit at `cov/coverage.xml` was replaced by Cobertura, exit 0).
    @Test func outputsInsideTheFeaturesOrTheCoverageDirectoryAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: C\n  Scenario: c\n    When I run \"true\"\n    Then I see \"nope\"\n", "feat/c.feature", in: directory)
        for arguments in [["--artifacts", "feat/art"], ["--artifacts", "feat"], ["--artifacts", "./feat/a/b"]] {
            let result = try CLI.run(["test"] + arguments + ["feat"], cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("which the run reads features and step files from"), "\(result.stderr)")
        }
        let outside = try CLI.run(["test", "--artifacts", "art", "feat"], cwd: directory)
        #expect(outside.status == 1, "\(outside.stdout)\(outside.stderr)")
        try FileManager.default.createDirectory(atPath: directory.path + "/cov/sub", withIntermediateDirectories: true)
        for arguments in [["--junit", "cov/coverage.xml"], ["--report", "cov/summary.txt"], ["--messages", "cov/sub/m.ndjson"]] {
            let result = try CLI.run(["test", "--coverage", "cov"] + arguments + ["feat"], cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("is inside --coverage cov"), "\(result.stderr)")
        }
    }
}
