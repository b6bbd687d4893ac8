import Foundation
import Testing

/// Round 4b's assertions that could not fail (findings H, T, W, Q), replayed against the built binary: a request
/// target the server never compares, an absence judged before the program sent what it was about to, a stderr step
/// in a terminal, a snapshot name used twice in one scenario.
@Suite struct AssertionsAttackEndToEndTests {
    /// H: `0 requests to "GET /x?a=1"` passed after the program sent exactly that (the step compared the whole text with
    /// the path). A target the server never compares is a load error naming the line, in every request step and the
    /// route step; `ANY` counts any method, as in stub files.
    @Test func aRequestTargetThatCanNeverMatchIsRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let targets = [
            ("GET /x?a=1", "holds a query string"), ("GET http://127.0.0.1/x", "is a URL"), ("GET /x#frag", "#fragment"),
            ("GET /a/../x", ". or .. segment"), ("GET x", "must start with /"),
        ]
        let steps = [
            "Then the server received 0 requests to \"%@\"", "Then the server received a request to \"%@\" with header \"a\" \"b\"",
            "Then the server received a request to \"%@\" with query \"a\" \"1\"", "Given the route \"%@\" answers 204",
        ]
        for (target, problem) in targets {
            for step in steps {
                _ = try CLI.write(
                    """
                    Feature: RQ
                      Scenario: s
                        Given unexpected requests are allowed
                        Given the route "GET /x" answers 204
                        When I run "true"
                        \(step.replacingOccurrences(of: "%@", with: target))

                    """, "c.feature", in: directory)
                for command in ["test", "check"] {
                    let result = try CLI.run([command, "c.feature"], cwd: directory)
                    #expect(result.status == 3, "\(command) \(step) \(target): \(result.stdout)\(result.stderr)")
                    #expect(
                        result.stderr.contains("c.feature:6: ") && result.stderr.contains(problem), "\(step) \(target): \(result.stderr)")
                }
            }
        }
        guard CLI.hasCommand("curl") else { return }
        _ = try CLI.write(
            """
            Feature: ANY
              Scenario: none to ANY after a DELETE
                Given unexpected requests are allowed
                Given the route "GET /x" answers 204
                When I run "curl -s -X DELETE ${SUT_MOCK_SERVER_URL}/x"
                Then the server received 0 requests to "ANY /x"
              Scenario: one to ANY after a DELETE
                Given unexpected requests are allowed
                Given the route "GET /x" answers 204
                When I run "curl -s -X DELETE ${SUT_MOCK_SERVER_URL}/x"
                Then the server received 1 request to "ANY /x"

            """, "any.feature", in: directory)
        let result = try CLI.run(["test", "any.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("expected 0 requests to ANY /x, the server received 1"), "\(result.stdout)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
    }

    /// T: `no unexpected requests` passed at once while the program was about to send one, and an exact count of 2
    /// passed before the third request came. Both are judged over the program's whole run now.
    @Test func requestAbsencesAndExactCountsWatchTheWholeRun() throws {
        guard CLI.hasCommand("curl") else { return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: LN
              Scenario: no unexpected requests before the program sends one
                Given unexpected requests are allowed
                Given the route "GET /x" answers 204
                Given the program "/bin/sh"
                When I launch the program with "-c 'sleep 0.5; curl -s $SUT_MOCK_SERVER_URL/nope; echo done'"
                Then the server received no unexpected requests
                And I see "done" within 3s
              Scenario: exactly 2 while a third is on its way
                Given the route "GET /x" answers 204
                Given the program "/bin/sh"
                When I launch the program with "-c 'curl -s $SUT_MOCK_SERVER_URL/x; curl -s $SUT_MOCK_SERVER_URL/x; sleep 0.4; curl -s $SUT_MOCK_SERVER_URL/x; echo done'"
                Then the server received 2 requests to "GET /x"
                And I see "done" within 3s
              Scenario: exactly 3, all of them
                Given the route "GET /x" answers 204
                Given the program "/bin/sh"
                When I launch the program with "-c 'curl -s $SUT_MOCK_SERVER_URL/x; curl -s $SUT_MOCK_SERVER_URL/x; sleep 0.4; curl -s $SUT_MOCK_SERVER_URL/x; echo done'"
                Then the server received 3 requests to "GET /x"
                And the server received no unexpected requests

            """, "ln.feature", in: directory)
        let result = try CLI.run(["test", "--step-timeout", "5s", "ln.feature"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the server received unexpected requests:"), "\(result.stdout)")
        #expect(result.stdout.contains("expected 2 requests to GET /x, the server received 3"), "\(result.stdout)")
        #expect(result.stdout.contains("3 scenarios: 1 passed, 2 failed"), "\(result.stdout)")
    }

    /// W: in a terminal the program's stderr is the terminal, and `I do not see "…" on stderr` or an empty `error output
    /// is:` passed after the program wrote exactly that. Every stderr step after the terminal step is a load error; one
    /// before it (a command on pipes) is not.
    @Test func stderrStepsAfterATerminalAreRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: PT
              Scenario: terminal, stderr
                When I run "sh -c 'echo before >&2'"
                Then I see "before" on stderr
                Given the program "/bin/sh"
                Given the program runs in a terminal
                When I launch the program with "-c 'echo fatal-error >&2; echo out'"
                Then I see "out"
                And I do not see "fatal-error" on stderr
                And I see "x" on stderr
                And I see a line matching "x+" on stderr
                And the error output is:
                  \"\"\"
                  \"\"\"
                And the error output matches the snapshot "e"
                And I see "stderr"

            """, "pt.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, "pt.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            let named = result.stderr.split(separator: "\n").filter { $0.contains("the program runs in a terminal (line 6)") }
            let lines = named.compactMap { line in line.range(of: "pt.feature:").map { String(line[$0.upperBound...].prefix { $0 != ":" }) }
            }
            #expect(lines == ["9", "10", "11", "12", "15"], "\(command): \(result.stderr)")
        }
    }

    /// Q: one snapshot name twice in one scenario: `--update-snapshots` passed (the second write replaced the first) and
    /// the next run failed. It is a load error naming both lines, output and file snapshots alike.
    @Test func aSnapshotNameUsedTwiceInOneScenarioIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S2
              Scenario: one name twice
                When I run "echo one"
                Then the output matches the snapshot "x"
                When I run "echo two"
                Then the output matches the snapshot "x"
              Scenario: file and output share a name
                Given a file "f" with:
                  \"\"\"
                  file-content
                  \"\"\"
                When I run "echo out"
                Then the output matches the snapshot "y"
                And the file "f" matches the snapshot "y"

            """, "s.feature", in: directory)
        for arguments in [["check", "s.feature"], ["test", "--update-snapshots", "s.feature"]] {
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 3, "\(arguments): \(result.stdout)\(result.stderr)")
            let named = [("6", "x", "4 and 6"), ("14", "y", "13 and 14")].map { line, name, lines in
                "s.feature:\(line): the snapshot \"\(name)\" is used twice in one scenario, at lines \(lines)"
            }
            for message in named { #expect(result.stderr.contains(message), "\(result.stderr)") }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("__snapshots__").path))
    }
}
