import Foundation
import Testing

@testable import Scenarios

/// The work all the matches of a run's steps against one step file may spend, on generated files: patterns each
/// within their own match budget, together past the file's, are one load error naming the file (the product's budget,
/// 128,000,000 units, is the same code with a larger number: reaching it takes most of a minute in a debug build).
@Suite struct StepFileBudgetTests {
    /// Writes `steps` patterns (`{} … z<N>` or `z<N> {} …`) and a feature of one step of `words` words; loads both.
    static func load(patterns: Int, literalHead: Bool, words: Int) throws -> (pickles: [Pickle], steps: [UserStep], file: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let parameters = String(repeating: "{} ", count: 8)
        let entries = (0..<patterns).map { number in
            let pattern = literalHead ? "z\(number) \(parameters)y" : "\(parameters)z\(number)"
            return "{\"step\": \"\(pattern)\", \"run\": [\"true\"]}"
        }
        let file = directory.appendingPathComponent("heavy.steps.json").path
        try ("[" + entries.joined(separator: ",\n") + "]").write(toFile: file, atomically: true, encoding: .utf8)
        let feature = directory.appendingPathComponent("b.feature").path
        let step = String(repeating: "a ", count: words) + "y"
        try "Feature: B\n  Scenario: b\n    Given \(step)\n".write(toFile: feature, atomically: true, encoding: .utf8)
        let (steps, problems) = UserSteps.load([file])
        #expect(problems.isEmpty, "\(problems)")
        let (pickles, _) = ScenarioLint.load([feature])
        return (pickles, steps, file)
    }

    @Test func aStepFileOverItsTotalBudgetIsALoadErrorNamingIt() throws {
        let (pickles, steps, file) = try Self.load(patterns: 200, literalHead: false, words: 1_000)
        // One match here spends a few hundred thousand units, far within its own budget: the file's is what is spent.
        let problems = ScenarioLint.ambiguousSteps(pickles, userSteps: steps, fileBudget: 4_000_000)
        #expect(
            problems == [
                "\(file): matching the run's steps against this step file's 200 patterns takes more than the work budget of one "
                    + "step file (4000000 units in all); give the patterns more literal words before their first {…}, ( or /, so "
                    + "that each step tries fewer of them, or use fewer patterns"
            ], "\(problems)")
    }

    /// The same patterns behind a literal head the step does not start with are never tried: nothing is spent.
    @Test func patternsWhoseHeadTheStepDoesNotStartWithCostNothing() throws {
        let (pickles, steps, _) = try Self.load(patterns: 200, literalHead: true, words: 1_000)
        #expect(ScenarioLint.ambiguousSteps(pickles, userSteps: steps, fileBudget: 1).isEmpty)
    }
}
