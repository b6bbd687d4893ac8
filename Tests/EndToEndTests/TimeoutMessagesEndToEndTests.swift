import Foundation
import Testing

/// Issue 30's timeouts: a command step is bounded by the scenario's timeout unless it says `within`; the step
/// timeout bounds waits for output; every timeout message names the option or tag that raises it.
@Suite struct TimeoutMessagesEndToEndTests {
    static func run(_ feature: String, _ options: [String] = []) throws -> CLI.Result {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(feature, "t.feature", in: directory)
        return try CLI.run(["test"] + options + [path])
    }

    /// `When I run` outlives the step timeout (200ms here, 2s by default): a command runs to its end.
    @Test func aCommandStepIsBoundedByTheScenarioNotTheStepTimeout() throws {
        let result = try Self.run(
            "Feature: t\n  Scenario: a slow command\n    When I run \"sleep 0.6\"\n    Then the exit code is 0\n",
            ["--step-timeout", "200ms"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// Each limit, when it stops something, is named with what raises it.
    @Test(
        arguments: [
            // The scenario's timeout from --scenario-timeout, cutting a command.
            (
                "  Scenario: c\n    When I run \"sleep 5\"\n", ["--scenario-timeout", "1s"],
                "sleep was still running after the scenario's 1s timeout (raise it with --scenario-timeout or a @timeout= tag)"
            ),
            // The scenario's timeout from its tag.
            (
                "  @timeout=1s\n  Scenario: c\n    When I run \"sleep 5\"\n", [],
                "sleep was still running after the scenario's 1s timeout (raise its @timeout=1s tag)"
            ),
            // A command's own within.
            ("  Scenario: c\n    When I run \"sleep 5\" within 300ms\n", [], "sleep was still running after 300ms (the step's `within`)"),
            // A wait for output: the step timeout.
            (
                "  Scenario: w\n    Given the program \"/bin/sleep\"\n    When I launch the program with \"5\"\n    Then I see \"never\"\n",
                ["--step-timeout", "300ms"], "it did not appear within 300ms (raise it with --step-timeout or `within` on the step)"
            ),
            // An exit code awaited.
            (
                "  Scenario: e\n    Given the program \"/bin/sleep\"\n    When I launch the program with \"5\"\n    Then the exit code is 0\n",
                ["--step-timeout", "300ms"], "still running after 300ms (raise it with --step-timeout or `within` on the step)"
            ),
            // A step whose own limit is its `within` says so (finding 6).
            (
                "  Scenario: f\n    Given the program \"/bin/sleep\"\n    When I launch the program with \"5\"\n    Then the program finishes within 200ms\n",
                [], "the program was still running after 200ms (the step's `within`)"
            ),
            // A wait cut by the scenario's deadline names both.
            (
                "  @timeout=1s\n  Scenario: cut\n    Given the program \"/bin/sleep\"\n    When I launch the program with \"5\"\n    Then I see \"never\" within 5s\n",
                [], "the scenario's 1s timeout (raise its @timeout=1s tag; the step asked for 5s)"
            ),
        ] as [(String, [String], String)])
    func everyTimeoutMessageNamesWhatRaisesIt(scenario: String, options: [String], says: String) throws {
        let result = try Self.run("Feature: t\n" + scenario, options)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(says), "\(result.stdout)")
    }

    /// A step-file command is a command too: it outlives the step timeout, and the scenario's timeout stops it, named.
    @Test func aStepFileCommandIsBoundedByTheScenario() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(#"[ { "step": "it sleeps {int}", "run": ["sleep", "{1}"] } ]"#, "sleep.steps.json", in: directory)
        let feature = try CLI.write(
            "Feature: t\n  Scenario: short\n    Given it sleeps 1\n\n  @timeout=1500ms\n  Scenario: long\n    Given it sleeps 5\n",
            "t.feature",
            in: directory)
        let result = try CLI.run(["test", "--step-timeout", "200ms", feature])
        #expect(result.stdout.contains("2 scenarios: 1 passed, 1 failed"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "the step's command sleep was still running after the scenario's 1.5s timeout (raise its @timeout=1500ms tag)"),
            "\(result.stdout)")
    }

    /// A `within` that is not a duration is found when the file loads (exit 3), before anything runs.
    @Test func aBadWithinOnACommandIsRefusedAtLoad() throws {
        let result = try Self.run("Feature: t\n  Scenario: c\n    When I run \"true\" within soon\n")
        #expect(result.status == 3, "\(result.status) \(result.stdout)\(result.stderr)")
    }
}
