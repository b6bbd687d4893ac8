import Foundation
import Testing

/// Round 4b's findings on what output is compared with (Z, V, X, S), replayed against the built binary.
@Suite struct SnapshotsLiteralEndToEndTests {
    /// Z: `--update-snapshots` wrote a program's `...` and `[..]` lines as they came, and the next run read them as
    /// wildcards: a snapshot of `start / ... / status: [..] / end` passed `start / ERROR: kaboom / … / status: FAILED`.
    /// Written escaped, they compare as text, for output and file snapshots alike.
    @Test func aSnapshotWrittenFromOutputMatchesOnlyThatOutput() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: W
              Scenario: output that prints ... and [..]
                Given the files from "fx"
                When I run "cat out.txt"
                Then the output matches the snapshot "out"
              Scenario: a file with a ... line
                Given the files from "fx"
                Then the file "report.txt" matches the snapshot "report"

            """, "w.feature", in: directory)
        _ = try CLI.write("start\n...\nstatus: [..]\n\\...\nend\n", "fx/out.txt", in: directory)
        _ = try CLI.write("total: 3\n...\nstatus: ok\n", "fx/report.txt", in: directory)
        let update = try CLI.run(["test", "--update-snapshots", "w.feature"], cwd: directory)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("__snapshots__/w.feature/out.txt"), encoding: .utf8)
        #expect(written == "start\n\\...\n\\status: [..]\n\\\\...\nend\n", "\(written)")
        let same = try CLI.run(["test", "w.feature"], cwd: directory)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        _ = try CLI.write("start\nERROR: kaboom\nFATAL: disk gone\nstatus: FAILED\n\\...\nend\n", "fx/out.txt", in: directory)
        _ = try CLI.write("total: 3\nFAILED test_login\nFAILED test_search\nstatus: ok\n", "fx/report.txt", in: directory)
        let changed = try CLI.run(["test", "w.feature"], cwd: directory)
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains("2 scenarios: 0 passed, 2 failed"), "\(changed.stdout)")
    }

    /// V: `Then I see a line matching ""` (and `x*`, `error: .*|`) passed on any output: a load error naming the line.
    @Test func aLinePatternThatMatchesEmptyTextIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: R9
              Scenario: empty-matching patterns
                When I run "echo hello"
                Then I see a line matching "error: .*|"
                Then I see a line matching ""
                Then I see a line matching "(zzz)?" on stderr
                Then I see a line matching "^$|^hello$"
                Then I see a line matching "^$"

            """, "r9.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, "r9.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            for line in [4, 5, 6] {
                #expect(result.stderr.contains("r9.feature:\(line): the pattern /"), "\(line): \(result.stderr)")
            }
            #expect(!result.stderr.contains("r9.feature:7:") && !result.stderr.contains("r9.feature:8:"), "\(result.stderr)")
        }
    }

    /// X: a redaction's step budget (seconds of work on a long output) went on past the scenario's `@timeout=`: a 3s
    /// scenario ran 6.6 s. The redaction stops at the deadline, naming it.
    @Test func aRedactionStopsAtTheScenariosDeadline() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: BUD
              @timeout=1s
              Scenario: a costly redaction
                When I run "sh -c 'head -c 1000000 /dev/zero | tr \\\\\\\\0 a; echo b'"
                Then the output matches the snapshot "s0"
                Then the output is:
                  \"\"\"
                  [X1]
                  \"\"\"

            """, "b.feature", in: directory)
        _ = try CLI.write("[X1]\n", "__snapshots__/b.feature/s0.txt", in: directory)
        let started = Date()
        let result = try CLI.run(["test", "--redact", "X1=(a|aa)*b", "b.feature"], cwd: directory)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "redaction X1 (--redact) was still working on 1000002 characters of output at the scenario's 1s timeout"),
            "\(result.stdout)")
        #expect(took < 30, "took \(took)s")
    }

    /// S: an `And` first in a scenario after a Background was typed Unknown and warned "Cucumber gives it no type";
    /// an Examples value holding a later column's placeholder was left unfilled. Both now as Cucumber's compiler.
    @Test func picklesAreCucumbersForOddOutlinesAndBackgrounds() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: T\n  Scenario Outline: s <x>\n    When I run \"echo <x>\"\n    Examples:\n      | x | y |\n      | <y> | Z |\n",
            "m4.feature",
            in: directory)
        _ = try CLI.write(
            "Feature: T\n  Background:\n    Given I run \"true\"\n  Scenario: s\n    And I run \"true\"\n", "m1.feature", in: directory)
        let result = try CLI.run(["check", "--messages", "o.ndjson", "m4.feature", "m1.feature"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let messages = try String(contentsOf: directory.appendingPathComponent("o.ndjson"), encoding: .utf8)
        #expect(messages.contains(#""name":"s Z""#) && messages.contains(#""text":"I run \"echo Z\"""#), "\(messages)")
        #expect(!messages.contains(#""type":"Unknown""#), "\(messages)")
        let run = try CLI.run(["test", "m4.feature"], cwd: directory)
        #expect(run.status == 0 && run.stdout.contains("✓ T: s Z"), "\(run.stdout)\(run.stderr)")
    }

    /// R9B-3: two scenarios reaching one snapshot through `${NAME}` (`-D A=out -D B=out`, or `Out` and `out`): under
    /// `--update-snapshots` one file was written for both (exit 0) and every later run failed. The second scenario's
    /// step fails (could not run), naming the first; nothing is written over the first's snapshot.
    @Test(arguments: [("out", "out"), ("Out", "out")])
    func aSnapshotTwoScenariosReachThroughDefinesIsRefused(first: String, second: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S
              Scenario: a
                When I run "echo one"
                Then the output matches the snapshot "${A}"
              Scenario: b
                When I run "echo two"
                Then the output matches the snapshot "${B}"

            """, "c.feature", in: directory)
        let result = try CLI.run(
            ["test", "--update-snapshots", "-D", "A=\(first)", "-D", "B=\(second)", "c.feature"], environment: CLI.localEnvironment,
            cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "the snapshot \"\(second)\" (or one that differs from it only by case) is compared by another scenario of this run too, c.feature:2"
            ),
            "\(result.stdout)")
        let written = try String(contentsOf: directory.appendingPathComponent("__snapshots__/c.feature/\(first).txt"), encoding: .utf8)
        #expect(written == "one\n")
    }
}
