import Foundation
import Testing

/// The runner's findings of attack r8b, each replayed against the built binary: `--rerun-failed` identity (1), a
/// Background `<placeholder>` in an absence check (4), and the R7B-3 leftover (the JSON report's `failed` counted
/// quarantined failures that the console and `report` do not), and R7B-6 (what a dry run's exit code and reports say).
@Suite struct RunnerR8bIdentityEndToEndTests {
    static func bash(_ script: String) throws -> String { try OutlineInputsEndToEndTests.bash(script) }

    /// Outline rows reordered, a row inserted above the failed one, two same-named scenarios swapped: the rerun ran
    /// the passing scenario now at the recorded line and exited 0. From Messages the failed pickle is found by name,
    /// row values and steps wherever it now is; from JUnit every scenario of the recorded name is rerun. Exit 1 each.
    @Test func aRerunRunsTheScenarioThatFailedNotTheOneNowAtItsLine() throws {
        let output = try Self.bash(
            #"""
            o() { printf 'Feature: F\n  Scenario Outline: o\n    When I run "<c>"\n    Then the exit code is 0\n    Examples:\n      | c |\n'; for r in "$@"; do printf '      | %s |\n' "$r"; done; }
            o true false > o.feature
            "$1" test --junit oj.xml --messages om.ndjson o.feature >/dev/null 2>&1; echo "first $?"
            o false true > o.feature
            "$1" test --rerun-failed om.ndjson o.feature > out 2>&1; echo "swapped messages $?"; grep -c '1 scenario: 0 passed, 1 failed' out
            o true 'echo new-row' false > o.feature
            "$1" test --rerun-failed om.ndjson o.feature > out 2>&1; echo "inserted $?"; grep -c 'new-row' out
            s() { printf 'Feature: F\n  Scenario: s\n    When I run "%s"\n    Then the exit code is 0\n\n  Scenario: s\n    When I run "%s"\n    Then the exit code is 0\n' "$1" "$2"; }
            s true false > s.feature
            "$1" test --junit sj.xml --messages sm.ndjson s.feature >/dev/null 2>&1; echo "first $?"
            s false true > s.feature
            "$1" test --rerun-failed sj.xml s.feature > out 2>&1; echo "junit $?"; grep -c '2 scenarios' out
            "$1" test --rerun-failed sm.ndjson s.feature > out 2>&1; echo "messages $?"; grep -c '1 scenario: 0 passed, 1 failed' out
            s true true > s.feature
            "$1" test --rerun-failed sm.ndjson s.feature 2>err; echo "gone $?"; grep -c 'the feature file changed since' err
            """#)
        #expect(
            output
                == "first 1\nswapped messages 1\n1\ninserted 1\n0\nfirst 1\njunit 1\n1\nmessages 1\n1\ngone 2\n1\n",
            "\(output)")
    }

    /// `Then I do not see "<kind>: disk"` in a Background, `kind` a column of the feature's outline: Cucumber never
    /// fills a Background, so the step looked for the brackets and passed. A load error naming the line (exit 3).
    @Test func aBackgroundPlaceholderNamingAnOutlineColumnIsALoadError() throws {
        let output = try Self.bash(
            #"""
            printf 'Feature: T\n  Background:\n    When I run "sh -c '"'"'echo error: disk'"'"'"\n    Then I do not see "<kind>: disk"\n  Scenario Outline: s\n    When I run "true"\n    Examples:\n      | kind |\n      | error |\n' > bg.feature
            "$1" test bg.feature 2>err; echo "test $?"; grep -c 'bg.feature:4: <kind> in a Background step is never filled' err
            "$1" check bg.feature 2>/dev/null >/dev/null; echo "check $?"
            printf 'Feature: T\n  Rule: R\n    Background:\n      Given the feature flags:\n        | <k> | 1 |\n    Scenario Outline: s\n      When I run "true"\n      Examples:\n        | k |\n        | a |\n' > rule.feature
            "$1" check rule.feature 2>err >/dev/null; echo "rule $?"; grep -c 'rule.feature:5: <k> in a Background step' err
            printf 'Feature: T\n  Background:\n    Then I do not see "<b>"\n  Scenario Outline: s\n    When I run "true"\n    Examples:\n      | k |\n      | a |\n' > other.feature
            "$1" check other.feature >/dev/null 2>&1; echo "no column $?"
            """#)
        #expect(output == "test 3\n1\ncheck 3\nrule 3\n1\nno column 0\n", "\(output)")
    }

    /// R7B-3: beside the console's `1 failed, 2 quarantined (2 of them failed)` the JSON report said `"failed": 3`.
    /// One count for both: `failed` is what failed the run; `quarantinedFailed` the quarantined failures.
    @Test func theJSONReportCountsAsTheConsoleAndReportDo() throws {
        let output = try Self.bash(
            #"""
            printf 'Feature: Q\n  Scenario: a\n    When I run "false"\n    Then the exit code is 0\n  @quarantine\n  Scenario: b\n    When I run "false"\n    Then the exit code is 0\n  @quarantine\n  Scenario: c\n    When I run "false"\n    Then the exit code is 0\n  Scenario: d\n    When I run "true"\n' > q.feature
            "$1" test --report r.json --messages m.ndjson q.feature > out 2>&1; echo "test $?"; grep -o '1 passed, 1 failed, 2 quarantined (2 of them failed)' out
            "$1" report --json rr.json m.ndjson 2>&1 >/dev/null | grep -o '1 passed, 1 failed, 2 quarantined (2 of them failed)'
            grep -o '"passed":1,"failed":1,"errors":0,"notRun":0,"flaky":0,"quarantined":2,"quarantinedFailed":2' r.json
            """#)
        #expect(
            output
                == "test 1\n1 passed, 1 failed, 2 quarantined (2 of them failed)\n1 passed, 1 failed, 2 quarantined (2 of them failed)\n"
                + "\"passed\":1,\"failed\":1,\"errors\":0,\"notRun\":0,\"flaky\":0,\"quarantined\":2,\"quarantinedFailed\":2\n",
            "\(output)")
    }

    /// R7B-6: one truth for `--dry-run`, as reports.md and scenarios.md now both say: the process exits for what it
    /// resolved (0), every report records a run that launched nothing (exit 5, the reason in `error`), never a pass.
    @Test func aDryRunExitsForItsResolutionAndItsReportsSayNoRunLaunched() throws {
        let output = try Self.bash(
            #"""
            printf 'Feature: D\n  Scenario: s\n    When I run "true"\n' > d.feature
            "$1" test --dry-run --report r.json --messages m.ndjson d.feature >/dev/null 2>&1; echo "dry $?"
            grep -o '"exitCode":5' r.json; grep -c 'which launch nothing' r.json; grep -o '"success":false' m.ndjson
            """#)
        #expect(output == "dry 0\n\"exitCode\":5\n1\n\"success\":false\n", "\(output)")
    }
}
