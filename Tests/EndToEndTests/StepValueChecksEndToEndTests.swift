import Foundation
import Testing

/// Values in steps that cannot do what the step says, refused when the file loads (`check` and `test` exit 3,
/// naming file:line), run by the built binary (hostile review r4b, findings A, B, R, N).
@Suite struct StepValueChecksEndToEndTests {
    /// `check` and `test` both refuse `text` with exit 3 before anything runs, each line of `expected` on stderr.
    /// `saysOK`: `check` still prints `ok:` beside a refused hook (finding M of the same review, fixed elsewhere).
    static func refusedAtLoad(
        _ text: String, name: String = "x.feature", files: [String: String] = [:], saysOK: Bool = false, _ expected: [String]
    ) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(text, name, in: directory)
        for (file, content) in files { _ = try CLI.write(content, file, in: directory) }
        for command in ["check", "test"] {
            let result = try CLI.run([command, feature])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            if !saysOK { #expect(!result.stdout.contains("ok:"), "\(command): \(result.stdout)") }
            for line in expected { #expect(result.stderr.contains(line), "\(command): \(line)\n\(result.stderr)") }
        }
    }

    /// A: names `-e` refuses (`""`, `A-B`, `C=D`) reached the program as `=emptyname`, `A-B=x` and `C=D=eq`.
    /// B: `SUT_MOCK_SERVER_URL` changed `${SUT_MOCK_SERVER_URL}` in steps while the program kept the real URL.
    @Test func environmentStepNamesAreCheckedAsEverywhere() throws {
        try Self.refusedAtLoad(
            """
            Feature: E3
              Scenario: bad names reach env
                Given the environment variable "A-B" is "x"
                Given the environment variable "" is "emptyname"
                Given the environment variable "C=D" is "eq"
                Given the environment variable "${K}" is "v"
                Given the environment variable "SUT_MOCK_SERVER_URL" is "http://evil"
                Given the environment variable "SUT_EPHEMERAL" is "{}"
                When I run "true"
            """,
            [
                "x.feature:3: \"A-B\" is not an environment variable name", "x.feature:4: the environment variable needs a name",
                "x.feature:5: \"C=D\" is not an environment variable name", "x.feature:6: \"${K}\" is not an environment variable name",
                "x.feature:7: SUT_MOCK_SERVER_URL is set by sut-launch for each scenario",
                "x.feature:8: SUT_EPHEMERAL is set by sut-launch for each scenario",
            ])
    }

    /// R: a NUL in a command word was cut there (`echo A\0B C` ran `echo A C`, a step file's `tr\0ue` ran `tr`).
    @Test func aNulInACommandWordIsRefusedNeverCut() throws {
        try Self.refusedAtLoad(
            "Feature: NUL\n  Scenario: nul in command\n    When I run \"echo A\u{0}B C\"\n"
                + "  Scenario: nul in a launch\n    Given the program \"/bin/echo\"\n    When I launch the program with \"A\u{0}B\"\n"
                + "  Scenario: nul in an environment value\n    Given the environment variable \"X\" is \"a\u{0}b\"\n    When I run \"true\"\n",
            [
                "x.feature:3: the command line holds a NUL byte (\\0) at character 7", "x.feature:6: the command line holds a NUL byte",
                "x.feature:8: the value of X contains a NUL byte",
            ])
        try Self.refusedAtLoad(
            "Feature: SF\n  Scenario: s\n    Given my step\n",
            files: ["my.steps.json": #"[ { "step": "my step", "run": ["tr\u0000ue"] } ]"#],
            ["my.steps.json:1: \"run\" word 1 holds a NUL byte (\\0) at character 3"])
        try Self.refusedAtLoad(
            "Feature: HK\n  Scenario: s\n    When I run \"true\"\n",
            files: ["h.steps.json": #"{ "steps": [], "hooks": [ { "hook": "Before", "run": ["sh", "-c\u0000x"] } ] }"#], saysOK: true,
            ["h.steps.json:1: \"run\" word 2 holds a NUL byte (\\0) at character 3"])
    }

    /// N: a flag key given twice (two rows, two steps, a row and a step) silently took the last value, as did an
    /// environment variable set twice; a row of one or three cells was found only when the scenario ran.
    @Test func aFlagKeyGivenTwiceOrAMisshapenRowIsRefused() throws {
        try Self.refusedAtLoad(
            """
            Feature: FL
              Scenario: dup in table
                Given the feature flags:
                  | a | 1 |
                  | a | 2 |
              Scenario: dup in two steps
                Given the automation flag "u" is "1"
                And the automation flag "u" is "2"
              Scenario: three cells
                Given the feature flags:
                  | a | 1 | x |
              Scenario: one cell
                Given the automation flags:
                  | a |
              Scenario: a step and a row of another kind are not a repeat
                Given the feature flag "a" is "1"
                And the automation flags:
                  | key | value |
                  | a   | 1     |
              Scenario: an environment variable set twice
                Given the environment variable "LANG" is "C"
                And the environment variable "LANG" is "C.UTF-8"
            """,
            [
                "x.feature:5: the feature flag \"a\" is set twice, at lines 4 and 5",
                "x.feature:8: the automation flag \"u\" is set twice, at lines 7 and 8",
                "x.feature:11: each row of a flags table is | key | value |; this one has 3 cells",
                "x.feature:14: each row of a flags table is | key | value |; this one has 1 cell",
                "x.feature:22: the environment variable \"LANG\" is set twice, at lines 21 and 22",
            ])
    }

    /// B's neighbour: `--coverage` sets `LLVM_PROFILE_FILE` and `GOCOVERDIR` after the steps' variables, so a step
    /// setting one would not reach the program: the scenario fails naming it.
    @Test(.enabled(if: CoverageEndToEndTests.ready, "needs swiftc")) func aCoverageVariableInAStepFailsUnderCoverage() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: C\n  Scenario: s\n    Given the environment variable \"GOCOVERDIR\" is \"/tmp/x\"\n    When I run \"true\"\n",
            "c.feature", in: directory)
        let result = try CLI.run(["test", "--coverage", directory.appendingPathComponent("cov").path, feature])
        #expect(result.status != 0)
        #expect(result.stdout.contains("GOCOVERDIR is set by --coverage for the scenario's program"), "\(result.stdout)")
    }

    /// B's neighbour: interception sets the proxy variables after the steps' variables; a step's `HTTPS_PROXY`
    /// would silently not reach the program, so the launch fails naming it (an unrelated variable still arrives).
    @Test func aVariableTheRunSetsForTheLaunchFailsNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: I
              Scenario: proxy
                Given the environment variable "HTTPS_PROXY" is "http://127.0.0.1:9"
                Given the mock server intercepts "api.example.com"
                When I run "true"
              Scenario: lang
                Given the environment variable "LANG" is "C"
                When I run "sh -c 'echo lang=$LANG'"
                Then I see "lang=C"
            """, "i.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1)
        #expect(result.stdout.contains("2 scenarios: 1 passed, 1 could not run"), "\(result.stdout)")
        #expect(
            result.stdout.contains("the environment variable HTTPS_PROXY a step set is one sut-launch sets for this launch"),
            "\(result.stdout)")
    }

    /// N at run time: two `${NAME}`s with one value name the same key; the second step fails naming both lines.
    @Test func aFlagKeyRepeatedThroughValuesFailsWhenItRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: FL2
              Scenario: two names, one key
                Given the feature flag "${A}" is "1"
                And the feature flag "${B}" is "2"
                When I run "true"
            """, "fl2.feature", in: directory)
        let result = try CLI.run(["test", "-D", "A=k", "-D", "B=k", feature])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the feature flag \"k\" is set twice, at lines 3 and 4"), "\(result.stdout)")
    }
}
