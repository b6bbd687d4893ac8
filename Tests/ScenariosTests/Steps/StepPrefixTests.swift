import AutomationSupport
import ProcessEngine
import Testing

@testable import Scenarios

/// The literal prefix that spares most steps the regular expressions: never longer than what every match starts with;
/// and the patterns a step does try find their groups on the fast path.
@Suite struct StepPrefixTests {
    @Test(arguments: [
        ("the program \"x\"", "the program \"x\""), ("I see a b?", "I see a "), ("a|b", ""), ("(?i)abc", ""),
        ("x[ab]", "x"), ("run (a|b) now", "run "), ("q\\.r", "q"), ("ab*", "a"), ("ab{2}", "a"),
    ])
    func prefixes(pattern: String, prefix: String) {
        #expect(StepDefinition.literalPrefix(of: pattern) == prefix)
    }

    /// Every catalog example still finds its own entry (the prefix never hides one).
    @Test func everyCatalogExampleFindsItsEntry() {
        for definition in StepCatalog.all {
            let text = UserSteps.withoutKeyword(definition.example)
            #expect(StepCatalog.find(text) != nil, "\(definition.example)")
        }
    }

    /// R7B-11: the general capture engine cost a debug build ~8 µs per character of a step line (2.8 s to load one
    /// 400 KB `Then I do not see "…"`). Every built-in pattern and a compiled Cucumber Expression (`^…$`: anchors
    /// only) take the closures computed when they compiled.
    @Test func everyStepPatternFindsItsGroupsOnTheFastPath() throws {
        for definition in StepCatalog.all {
            #expect(definition.pattern.capturesTakeTheFastPath, "/\(definition.source)/")
        }
        let step = try UserStep(
            pattern: "a user {string} has {int} cucumber(s) in my belly/stomach {}", run: ["true"], source: "s.steps.json:1",
            directory: "/tmp")
        #expect(step.regex.capturesTakeTheFastPath)
        #expect(step.match("a user \"ada\" has 3 cucumbers in my stomach now") == ["ada", "3", "now"])
    }
}
