import Foundation
import Testing

/// Small findings of the outside attacks on `sut-launch test` and `report`, replayed against the built binary: old
/// coverage reports left looking current by a run killed while loading (1), keys typed into a terminal whose program
/// had exited (2), a typed line past the terminal's line limit (3), a report on the console's stderr (4), an empty
/// `--artifacts` (5), a dry run's Messages saying success (6), and `report`'s summary counting a quarantined failure
/// as a failure (7).
@Suite struct TestMinorsEndToEndTests {
    static func bash(_ script: String) throws -> String {
        let (output, directory) = try KilledRunOutputsEndToEndTests.bash(
            KilledRunOutputsEndToEndTests.killOncePlaceholder + "\n" + script)
        try? FileManager.default.removeItem(at: directory)
        return output
    }

    static let passing = "Feature: P\n  Scenario: p\n    When I run \"true\"\n"

    /// 1: the reports an earlier `--coverage DIR` run left are removed before the features load, as the other outputs
    /// get their placeholders: a run killed while loading no longer leaves them looking like its own.
    @Test func aRunKilledWhileLoadingLeavesNoEarlierCoverageReport() throws {
        let output = try Self.bash(
            KilledWhileLoadingEndToEndTests.slowFeatures + "\n" + #"""
                mkdir cov; for f in lcov.info coverage.xml summary.txt merged.profdata; do echo old > cov/$f; done
                "$1" test --coverage cov --junit j.xml f.feature k.feature >/dev/null 2>&1 & P=$!
                killonce j.xml; echo "killed $?"; ls cov | wc -l
                for f in lcov.info coverage.xml; do echo old > cov/$f; done
                "$1" test --coverage cov --dry-run f.feature k.feature >/dev/null 2>&1; echo "dry $?"; ls cov | wc -l
                """#)
        // A dry run launches nothing: DIR is left as it is.
        #expect(output == "killed 137\n0\ndry 3\n2\n", "\(output)")
    }

    /// 2: `When I type` and `When I press` in a terminal whose program had exited (seen by `finishes within`, which
    /// leaves the terminal open) wrote to a terminal nobody read, and passed: each fails naming the exit.
    @Test func keysForATerminalWhoseProgramExitedFailTheStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exited = """
                Given the program runs in a terminal
                Given the program "/bin/sh"
                When I launch the program with "-c 'exit 3'"
                Then the program finishes within 10s
            """
        let feature = try CLI.write(
            """
            Feature: keys
              Scenario: typed
            \(exited)
                When I type "hello"
              Scenario: pressed
            \(exited)
                When I press Enter
              Scenario: still running
                Given the program runs in a terminal
                Given the program "/bin/sh"
                When I launch the program with "-c 'read l; echo got-$l'"
                When I type "hello"
                Then the screen shows "got-hello"
            """, "keys.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 1 passed, 2 failed"), "\(result.stdout)")
        for said in ["cannot type into the program", "cannot press Enter"] {
            #expect(result.stdout.contains("\(said): the program had exited with code 3"), "\(result.stdout)")
        }
    }

    /// 3: a line past the terminal's canonical-mode limit (4095 bytes on Linux) reached the program cut, and the step
    /// passed: it fails naming the limit; at the limit it passes, and a program in raw mode reads any length.
    @Test func aTypedLinePastTheTerminalsLineLimitFailsTheStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func scenario(_ name: String, _ raw: Bool, _ count: Int) -> String {
            """
              Scenario: \(name)
                Given the program runs in a terminal
                Given the program "/bin/sh"
                When I launch the program with "-c '\(raw ? "stty -icanon; " : "")echo ready; head -c \(count + 1) | wc -c'"
                Then the screen shows "ready"
                When I type "\(String(repeating: "x", count: count))"
                Then the screen shows "\(count + 1)"
            """
        }
        let feature = try CLI.write(
            "Feature: long\n" + scenario("at the limit", false, 4095) + "\n" + scenario("past it", false, 4096) + "\n"
                + scenario("raw", true, 5000) + "\n", "long.feature", in: directory)
        let result = try CLI.run(["test", "--step-timeout", "5s", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 2 passed, 1 failed"), "\(result.stdout)")
        #expect(
            result.stdout.contains("a line of 4096 bytes is longer than the terminal's line limit of 4095 bytes"), "\(result.stdout)")
        #expect(result.stdout.contains("stty -icanon") && result.stdout.contains("without a terminal"), "\(result.stdout)")
    }

    /// 4: a report on the console's stderr (`--junit j.xml 2>j.xml`) was written over what the console said; `test` and
    /// `report` refuse it as `test` refuses stdout (exit 2). `report` says nothing on stdout: a report may go there.
    @Test func aReportOnTheConsolesStderrIsRefused() throws {
        let output = try Self.bash(
            #"""
            printf 'Feature: P\n  Scenario: p\n    When I run "true"\n' > p.feature
            "$1" test --messages m.ndjson p.feature >/dev/null 2>&1; echo "first $?"
            for o in --junit --report --html --write-rerun --messages; do
              "$1" test $o out p.feature >/dev/null 2>out; echo "$o $?"; grep -c -- "$o out is where the console writes (stderr)" out
            done
            for o in --junit --json --html --messages; do
              "$1" report $o out m.ndjson >/dev/null 2>out; echo "report $o $?"; grep -c -- "$o out is where the console writes (stderr)" out
            done
            "$1" report --junit /dev/stdout m.ndjson 2>/dev/null | cat > jout; echo "report stdout ${PIPESTATUS[0]}"; head -c 5 jout; echo
            "$1" test -q --junit /dev/null p.feature >/dev/null 2>/dev/null; echo "null $?"
            """#)
        let test = ["--junit", "--report", "--html", "--write-rerun", "--messages"].map { "\($0) 2\n1\n" }.joined()
        let report = ["--junit", "--json", "--html", "--messages"].map { "report \($0) 2\n1\n" }.joined()
        #expect(output == "first 0\n" + test + report + "report stdout 0\n<?xml\nnull 0\n", "\(output)")
    }

    /// 5: `--artifacts ''` was taken; a usage error naming the option, as `-C ''` is, and so for every option naming a file.
    @Test func anEmptyArtifactsDirectoryIsAUsageError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.passing, "p.feature", in: directory)
        // The other options that name a file said "--steps : no such step file": the same usage error now.
        let named = ["--artifacts", "--steps", "--quarantine", "--rerun-failed", "--shard-timings"]
        for arguments in [["--artifacts="]] + named.map({ [$0, ""] }) {
            let result = try CLI.run(["test"] + arguments + [feature], cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            let option = arguments[0].hasSuffix("=") ? String(arguments[0].dropLast()) : arguments[0]
            #expect(result.stderr.contains("\(option) needs a name"), "\(result.stderr)")
        }
    }

    /// 6: a dry run's JSON, JUnit and HTML say nothing ran (exit 5) but its Messages said `success: true`; they say
    /// not a success now, and `report` on them writes what `test` wrote.
    @Test func aDryRunsMessagesAreNoSuccessAndReportRendersWhatTestWrote() throws {
        let output = try Self.bash(
            #"""
            printf 'Feature: P\n  Scenario: p\n    When I run "true"\n' > p.feature
            "$1" test --dry-run --run-id dry --messages m.ndjson --report r.json --junit j.xml p.feature >/dev/null 2>&1; echo "dry $?"
            grep -c '"testRunFinished":{"success":false' m.ndjson; grep -c '"exitCode":5' r.json
            "$1" report --json r2.json --junit j2.xml m.ndjson >/dev/null 2>&1; echo "report $?"
            cmp r.json r2.json && cmp j.xml j2.xml && echo same
            "$1" test --run-id ok --messages ok.ndjson p.feature >/dev/null 2>&1; echo "ran $?"
            grep -c '"testRunFinished":{"success":true' ok.ndjson
            """#)
        #expect(output == "dry 0\n1\n1\nreport 5\nsame\nran 0\n1\n", "\(output)")
    }

    /// 7: `report`'s summary counted a quarantined failure as a failure where `test`'s shows it quarantined: the same
    /// counts now.
    @Test func reportsSummaryCountsAQuarantinedFailureAsTestDoes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(RunnerR6bEndToEndTests.quarantinedFailure, "q.feature", in: directory)
        let list = try CLI.write("q.feature:4\n", "quar.txt", in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let result = try CLI.run(["test", "--quarantine", list, "--messages", messages, feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let counts = "1 passed, 1 quarantined (1 of them failed)"
        #expect(result.stdout.contains("2 scenarios: \(counts) in "), "\(result.stdout)")
        let report = try CLI.run(["report", "--junit", directory.appendingPathComponent("j.xml").path, messages])
        #expect(report.status == 0, "\(report.stdout)\(report.stderr)")
        #expect(report.stderr.contains("report: 2 scenarios from 1 file: \(counts)\n"), "\(report.stderr)")
    }
}
