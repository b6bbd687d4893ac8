import ProcessEngine
import Testing

@testable import Scenarios

/// The literal prefix that spares most steps the regular expressions: never longer than what every match starts with.
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
}
