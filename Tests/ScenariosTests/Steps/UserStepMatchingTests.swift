import ProcessEngine
import Testing

@testable import Scenarios

/// User steps (`*.steps.json`) match through the linear-time Pike VM: a Cucumber Expression with many
/// parameters cannot stall a run, and the values are those Cucumber gives.
@Suite struct UserStepMatchingTests {
    static func step(_ pattern: String) throws -> UserStep {
        try UserStep(pattern: pattern, run: ["true"], source: "t.steps.json:1", directory: ".")
    }

    @Test func manyParametersOnAHostileStepAnswerAtOnce() throws {
        let step = try Self.step("x{}{}{}{}{}{}{}{}y")
        let hostile = "x" + String(repeating: "a", count: 3_000)
        let start = ContinuousClock.now
        #expect(step.match(hostile) == nil)
        #expect(step.match(hostile + "y")?.first?.count == 3_000, "the first {} is greedy, as in Cucumber")
        #expect(ContinuousClock.now - start < .seconds(10), "a backtracking matcher takes minutes here; a loaded machine, a second")
    }

    @Test func valuesAreCucumbers() throws {
        let step = try Self.step("a user {string} has {int} cucumber(s) in my belly/stomach, {word} {float} {}")
        #expect(
            step.match(#"a user "ada \"l\"" has -3 cucumbers in my stomach, w 1.5 the rest"#)
                == [#"ada "l""#, "-3", "w", "1.5", "the rest"])
        #expect(step.match("a user 'b' has 1 cucumber in my stomach, w .5 ") == ["b", "1", "w", ".5", ""])
        #expect(step.match("a user ada has 1 cucumber in my belly, w 1 x") == nil)
    }
}
