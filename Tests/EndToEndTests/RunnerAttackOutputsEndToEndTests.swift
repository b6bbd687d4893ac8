import Foundation
import Testing

/// An outside attacker's findings on `sut-launch test` (the real binary): outputs written over the run's own
/// inputs, a request count of 0 that did not watch, paths that broke console lines and annotations, AfterAll.
@Suite struct RunnerAttackOutputsEndToEndTests {
    /// Class 3 (writes over a file it did not create): each output option on each kind of file the run reads is
    /// exit 2 naming both, and the file is left as it was.
    @Test func anOutputOnAFileTheRunReadsIsRefusedAndLeavesItAlone() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("data\n", "fx/a.txt", in: directory)
        _ = try CLI.write("x\n", "__snapshots__/s.feature/one.txt", in: directory)
        _ = try CLI.write("[]\n", "s.steps.json", in: directory)
        _ = try CLI.write("[]\n", "stubs/st.json", in: directory)
        _ = try CLI.write("#!/bin/sh\n", "prog", in: directory)
        _ = try CLI.write("Feature: B\n  Scenario: b\n    When I run \"true\"\n", "d/b.feature", in: directory)
        _ = try CLI.write(
            "Feature: S\n  Scenario: s\n    Given the files from \"fx\"\n    And the stubs \"stubs/st.json\"\n    When I run \"echo x\"\n"
                + "    Then the output matches the snapshot \"one\"\n", "s.feature", in: directory)
        let cases: [([String], String)] = [
            (["--junit", "s.steps.json", "s.feature"], "s.steps.json"),
            (["--messages", "./s.steps.json", "s.feature"], "s.steps.json"),
            (["--report", "__snapshots__/s.feature/one.txt", "s.feature"], "__snapshots__/s.feature/one.txt"),
            (["--html", "fx/a.txt", "s.feature"], "fx/a.txt"),
            (["--write-rerun", "stubs/st.json", "s.feature"], "stubs/st.json"),
            (["--junit", "prog", "-D", "PROGRAM=./prog", "s.feature"], "prog"),
            (["--junit", "d/b.feature", "d"], "d/b.feature"),
        ]
        for (arguments, target) in cases {
            let before = try Data(contentsOf: directory.appendingPathComponent(target))
            let result = try CLI.run(["test"] + arguments, cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("would overwrite"), "\(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent(target)) == before, "\(arguments) wrote over \(target)")
        }
        // A hard link to an input is the same file; a report beside the features is not an input.
        try FileManager.default.linkItem(
            atPath: directory.appendingPathComponent("fx/a.txt").path, toPath: directory.appendingPathComponent("hard").path)
        #expect(try CLI.run(["test", "--junit", "hard", "s.feature"], cwd: directory).status == 2)
        let again = try CLI.run(["test", "--junit", "d/junit.xml", "d"], cwd: directory)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try CLI.run(["test", "--junit", "d/junit.xml", "d"], cwd: directory).status == 0)
    }

    /// Class 2: `received 0 requests` passed at once while the program was about to send the request.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl"))
    func aCountOfZeroRequestsWatchesUntilTheProgramEnds() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: Req
              Scenario: zero while a request is on its way
                Given the route "GET /x" answers 200 with:
                  \"\"\"
                  ok
                  \"\"\"
                Given the program "/bin/sh"
                When I launch the program with "-c 'sleep 0.3; curl -s $SUT_MOCK_SERVER_URL/x; echo done'"
                Then the server received 0 requests to "GET /x"

            """, "req.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("expected 0 requests to GET /x, the server received 1"), "\(result.stdout)")
    }

    /// Class 4 / 3: a LF in a feature file's name started a console line; a `:` moved the annotation's line.
    @Test func featurePathsAreEscapedInTheConsoleAndAColonKeepsTheAnnotationsLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "Feature: G\n  Scenario: s\n    When I run \"false\"\n    Then the exit code is 0\n"
        _ = try CLI.write(text, "e/n\nl.feature", in: directory)
        _ = try CLI.write(text, "c/x:7.feature", in: directory)
        let result = try CLI.run(["test", "e"], cwd: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("e/n\\nl.feature:4"), "\(result.stdout)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("    l.feature") }, "\(result.stdout)")
        var environment = CLI.localEnvironment
        environment["GITHUB_ACTIONS"] = "true"
        let github = try CLI.run(["test", "--format", "github", "c"], environment: environment, cwd: directory)
        #expect(github.stdout.contains("::error file=c/x%3A7.feature,line=4,"), "\(github.stdout)")
    }

    /// Class 4: an AfterAll failure's location was cut at a colon; its rerun file was empty (then exit 5).
    @Test func anAfterAllFailureIsLocatedAtItsHookAndItsRerunFileRerunsTheRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "{\"steps\":[],\"hooks\":[{\"hook\":\"AfterAll\",\"run\":[\"sh\",\"-c\",\"exit 9\"]}]}\n", "h.steps.json", in: directory)
        _ = try CLI.write("Feature: P\n  Scenario: p\n    When I run \"true\"\n", "p.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = directory.appendingPathComponent("sum.md").path
        let result = try CLI.run(
            ["test", "--format", "github", "--write-rerun", "rr.txt", "./p.feature"], environment: environment, cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("::error file=./h.steps.json,line=1,"), "\(result.stdout)")
        let rerun = try String(contentsOf: directory.appendingPathComponent("rr.txt"), encoding: .utf8)
        #expect(rerun == "./p.feature:2\n", "\(rerun)")
        let again = try CLI.run(["test", "--rerun-failed", "rr.txt", "--write-rerun", "rr.txt", "./p.feature"], cwd: directory)
        #expect(again.status == 1 && again.stdout.contains("2 scenarios: 1 passed, 1 could not run"), "\(again.stdout)\(again.stderr)")
    }
}
