import Foundation
import Testing

/// Attack r8b R8B-2 replayed against the built binary: a path a step reads that only the parsed scenarios know (an
/// outline's `<placeholder>`, a `${NAME}` an earlier `Given the environment variable` step sets) was checked against
/// the outputs after their placeholders were written and `--coverage DIR` cleared: the refused run (exit 2) had already
/// overwritten the stub file or program, planted a report in the fixture, or deleted the fixture's files. Every check
/// now comes before anything is written or removed; each script asserts the user's files are intact afterwards.
@Suite struct OutlineInputsEndToEndTests {
    static func bash(_ script: String) throws -> String {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try CLI.output(of: ["bash", "-c", script, "bash", CLI.sutLaunch], in: directory)
    }

    /// An outline-named fixture and `--coverage` on it: refused (exit 2) with the four files still there.
    @Test func coverageOverAnOutlineNamedFixtureIsRefusedWithItsFilesKept() throws {
        let output = try Self.bash(
            #"""
            mkdir -p feat data; for f in lcov.info coverage.xml summary.txt merged.profdata; do echo "user data" > data/$f; done
            printf 'Feature: A\n  Scenario Outline: s\n    Given the files from "../<d>"\n    When I run "ls"\n    Then I see "lcov.info"\n    Examples:\n      | d |\n      | data |\n' > feat/a.feature
            "$1" test --coverage data feat 2>err; echo "rc $?"; grep -c 'named at feat/a.feature:3' err
            ls -A data | tr '\n' ' '; echo; cat data/lcov.info
            "$1" test --coverage data --list feat 2>/dev/null; echo "list $?"; "$1" test --coverage data --dry-run feat >/dev/null 2>&1; echo "dry $?"
            ls -A data | tr '\n' ' '; echo
            """#)
        #expect(
            output
                == "rc 2\n1\ncoverage.xml lcov.info merged.profdata summary.txt \nuser data\nlist 2\ndry 2\ncoverage.xml lcov.info merged.profdata summary.txt \n",
            "\(output)")
    }

    /// A stub file and the program named through an outline: each report option (and Bazel's `XML_OUTPUT_FILE`, `--list`,
    /// `--dry-run`) over them is refused with the file as it was.
    @Test func reportsOverAnOutlineNamedStubOrProgramAreRefusedBeforeWriting() throws {
        let output = try Self.bash(
            #"""
            mkdir -p feat lib; echo '{"routes":[]}' > lib/stubs.json; printf '#!/bin/sh\necho app\n' > lib/app; chmod +x lib/app
            printf 'Feature: A\n  Scenario Outline: s\n    Given the stubs "../lib/<s>"\n    Given the program "../lib/<p>"\n    When I launch the program with "x"\n    Then I see "app"\n    Examples:\n      | s | p |\n      | stubs.json | app |\n' > feat/b.feature
            "$1" test feat/b.feature >/dev/null 2>&1; echo "base $?"
            for o in --junit --report --messages --html --write-rerun; do
              "$1" test $o lib/stubs.json feat/b.feature 2>/dev/null; echo "$o $?"; "$1" test $o lib/app feat/b.feature 2>/dev/null; echo "$o $?"
            done
            "$1" test --report lib/stubs.json --list feat/b.feature >/dev/null 2>&1; echo "list $?"
            "$1" test --messages lib/app --dry-run feat/b.feature >/dev/null 2>&1; echo "dry $?"
            TEST_TOTAL_SHARDS=1 TEST_SHARD_INDEX=0 XML_OUTPUT_FILE=$PWD/lib/stubs.json "$1" test --shard auto feat/b.feature 2>err; echo "bazel $?"
            grep -c 'XML_OUTPUT_FILE .* would overwrite' err
            cat lib/stubs.json; head -2 lib/app | tail -1; "$1" test feat/b.feature >/dev/null 2>&1; echo "after $?"
            """#)
        let refused = ["--junit", "--report", "--messages", "--html", "--write-rerun"].map { "\($0) 2\n\($0) 2\n" }.joined()
        #expect(
            output == "base 0\n" + refused + "list 2\ndry 2\nbazel 2\n1\n{\"routes\":[]}\necho app\nafter 0\n", "\(output)")
    }

    /// A report in an outline-named fixture directory, or a new name under `__snapshots__/`: refused, nothing planted.
    @Test func aReportInAnOutlineNamedFixtureOrTheSnapshotsIsRefusedAndNotPlanted() throws {
        let output = try Self.bash(
            #"""
            mkdir -p feat2/fx2; echo hi > feat2/fx2/b.txt
            printf 'Feature: O\n  Scenario Outline: s\n    Given the files from "<d>"\n    When I run "ls"\n    Examples:\n      | d |\n      | fx2 |\n' > feat2/a.feature
            printf 'Feature: W\n  Scenario Outline: w\n    Given <setup>\n    When I run "ls"\n    Examples:\n      | setup |\n      | the files from "fx2" |\n' > feat2/w.feature
            "$1" test --junit feat2/fx2/j.xml feat2/a.feature 2>/dev/null; echo "fixture $?"; ls feat2/fx2 | tr '\n' ' '; echo
            "$1" test --report feat2/fx2/r.json feat2/w.feature 2>/dev/null; echo "whole step $?"; ls feat2/fx2 | tr '\n' ' '; echo
            printf 'Feature: S\n  Scenario: s\n    When I run "echo hi"\n    Then the output matches the snapshot "snap"\n' > feat2/s.feature
            "$1" test --update-snapshots feat2/s.feature >/dev/null 2>&1; echo "snap $?"
            "$1" test --junit feat2/__snapshots__/s.feature/other.txt feat2/s.feature 2>err; echo "snapshots $?"; grep -c 'snapshot directory' err
            ls feat2/__snapshots__/s.feature | tr '\n' ' '; echo
            """#)
        #expect(output == "fixture 2\nb.txt \nwhole step 2\nb.txt \nsnap 0\nsnapshots 2\n1\nsnap.txt \n", "\(output)")
    }

    /// A path from `${NAME}` that an earlier `Given the environment variable` step sets is known at load (the step's
    /// value is in the file): checked there like a literal path, before any placeholder or clean-up. (The only
    /// names whose value exists only as the scenario runs are the run's own, `${HOME}`, `${SUT_MOCK_SERVER_CA}`…: the
    /// scenario's fresh directory, where no output can be.)
    @Test func aPathFromAStepSetVariableIsCheckedAtLoad() throws {
        let output = try Self.bash(
            #"""
            mkdir -p feat data lib; echo hi > data/a.txt; echo '{"routes":[]}' > lib/stubs.json; echo "user data" > data/lcov.info
            printf 'Feature: E\n  Scenario: s\n    Given the environment variable "FX" is "../data"\n    Given the files from "${FX}"\n    When I run "ls"\n    Then I do not see "j.xml"\n' > feat/a.feature
            printf 'Feature: E\n  Scenario: s\n    Given the environment variable "S" is "../lib/stubs.json"\n    Given the stubs "${S}"\n    When I run "true"\n' > feat/b.feature
            printf 'Feature: A\n  Scenario: s\n    Given the environment variable "D" is "../data"\n    Given the environment variable "E" is "${D}"\n    Given the files from "${E}"\n    When I run "ls"\n    Then I see "lcov.info"\n' > feat/c.feature
            "$1" test --junit data/j.xml feat/a.feature 2>err; echo "fixture $?"; grep -c 'named at feat/a.feature:4' err; ls data | tr '\n' ' '; echo
            "$1" test --report lib/stubs.json feat/b.feature 2>/dev/null; echo "stubs $?"; cat lib/stubs.json
            "$1" test --coverage data feat/c.feature 2>/dev/null; echo "coverage $?"; ls -A data | tr '\n' ' '; echo
            "$1" test feat >/dev/null 2>&1; echo "after $?"
            """#)
        #expect(
            output == "fixture 2\n1\na.txt lcov.info \nstubs 2\n{\"routes\":[]}\ncoverage 2\na.txt lcov.info \nafter 0\n", "\(output)")
    }
}
