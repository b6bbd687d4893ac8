import Foundation
import Testing

/// `--name REGEX` over a run's scenario names: one budget of regex steps for all of them.
@Suite struct NameBudgetEndToEndTests {
    /// R10B-11: `(a{1,50})+$` over a 30,000-character name took 27 s with no budget, no deadline and no word, then
    /// selected nothing (exit 5): it is now a usage error naming the pattern and the budget once it is spent.
    @Test func aNamePatternThatSpendsTheRunsBudgetIsAUsageErrorNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "a", count: 30_000) + "!"
        _ = try CLI.write(
            "Feature: N\n  Scenario: \(name)\n    When I run \"true\"\n  Scenario: b\n    When I run \"true\"\n", "n.feature", in: directory
        )
        let result = try CLI.run(["test", "--list", "--report", "r.json", "--name", "(a{1,50})+$", "n.feature"], cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--name (a{1,50})+$: matching it spent its budget"), "\(result.stderr)")
        #expect(result.stderr.contains("the longest 30001 characters"), "\(result.stderr)")
        // Within the budget, the same pattern selects as before; names shared by rows are matched once.
        let plain = try CLI.run(["test", "--list", "--name", "^b$", "n.feature"], cwd: directory)
        #expect(plain.status == 0 && plain.stdout.contains("b") && !plain.stdout.contains("aaaa"), "\(plain.stdout)\(plain.stderr)")
    }
}
