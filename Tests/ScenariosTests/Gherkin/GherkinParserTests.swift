import Foundation
import MockServer
import ProcessEngine
import Testing

@testable import Scenarios

@Suite struct GherkinParserTests {
    private let feature = """
        # a comment
        @feature-tag
        Feature: Everything
          A description
          over two lines.

          Background:
            Given the program "${APP}"

          @smoke @fast
          Scenario: Plain
            Given the feature flags:
              | greeting | hi |
              | count    | 3  |
            When I launch the program with "greet"
            # a comment between steps
            Then I see "hi"
            And I do not see "bye"
            But the exit code is 0

          Scenario Outline: Outline <name>
            Given the route "POST /x" answers 200 with:
              ```json
              { "name": "<name>" }
              ```
            Then I see "<name>"

            @first
            Examples: first
              | name |
              | ada  |
            Examples: second
              | name  |
              | grace |

          Rule: A rule
            Background:
              Given the entry point "search"

            @ruled
            Example: In a rule
              * I launch the program
        """

    @Test func parsesEveryConstruct() throws {
        let document = try GherkinParser.parse(feature, uri: "all.feature")
        let parsed = try #require(document.feature)
        #expect(parsed.name == "Everything")
        #expect(parsed.description == "A description\nover two lines.")
        #expect(parsed.tags.map(\.name) == ["@feature-tag"])
        #expect(parsed.background?.steps.map(\.text) == ["the program \"${APP}\""])
        #expect(parsed.scenarios.count == 2)
        let plain = parsed.scenarios[0]
        #expect(plain.tags.map(\.name) == ["@smoke", "@fast"])
        #expect(plain.steps.map(\.kind) == ["Given", "When", "Then", "Then", "Then"])
        #expect(plain.steps[0].dataTable?.rows == [["greeting", "hi"], ["count", "3"]])
        let outline = parsed.scenarios[1]
        #expect(outline.isOutline)
        #expect(outline.steps[0].docString?.content == "{ \"name\": \"<name>\" }")
        #expect(outline.steps[0].docString?.mediaType == "json")
        #expect(outline.examples.map(\.name) == ["first", "second"])
        #expect(parsed.rules.first?.scenarios.first?.steps.first?.kind == "Given")
    }

    @Test func picklesCarryBackgroundsTagsAndOutlineRows() throws {
        let pickles = Pickle.compile(try GherkinParser.parse(feature, uri: "all.feature"))
        #expect(pickles.map(\.name) == ["Plain", "Outline ada", "Outline grace", "In a rule"])
        #expect(pickles[0].tags == ["@feature-tag", "@smoke", "@fast"])
        #expect(pickles[1].tags == ["@feature-tag", "@first"])
        #expect(pickles[1].steps.map(\.text) == ["the program \"${APP}\"", "the route \"POST /x\" answers 200 with:", "I see \"ada\""])
        #expect(pickles[1].steps[1].docString?.content == "{ \"name\": \"ada\" }")
        #expect(pickles[1].line == 31)
        #expect(pickles[3].steps.map(\.text) == ["the program \"${APP}\"", "the entry point \"search\"", "I launch the program"])
        #expect(pickles[3].tags == ["@feature-tag", "@ruled"])
        #expect(pickles[3].ruleName == "A rule")
    }

    @Test(arguments: [
        ("Scenario: no feature", "f.feature:1: expected \"Feature:\", found \"Scenario: no feature\""),
        (
            "Feature: x\n  Scenario: a\n    Given b\n  Scenaro: typo",
            "f.feature:4: expected Scenario, Scenario Outline, Background, Rule or a tag, found \"Scenaro: typo\"; did you mean \"Scenario\"?"
        ),
        (
            "Feature: x\n  Scenario: s\n    Given a\n    | a | b |\n    | c |",
            "f.feature:5: inconsistent cell count within the table: this row has 1 cells, the first has 2"
        ),
        (
            "Feature: x\n  Scenario: s\n    Given a\n      \"\"\"\n      never closed",
            "f.feature:6: unexpected end of file: the doc string opened at line 4 has no closing \"\"\""
        ),
        ("Feature: x\n  @tag", "f.feature:3: unexpected end of file: the tags on line 2 belong to nothing"),
        ("Feature: x\n  @a b\n  Scenario: s", "f.feature:2: A tag may not contain whitespace (column 3)"),
        (
            "Feature: x\n  Scenario: a\n    Given b\n  Background:\n    Given c",
            "f.feature:4: Background must come before the first Scenario, once"
        ),
        (
            "Feature: x\n  Scenario Outline: s\n    Given <a>\n  Examples:\n    | a |\n    | 1 | 2 |",
            "f.feature:6: inconsistent cell count within the table: this row has 2 cells, the first has 1"
        ),
    ])
    func errorsNameTheLineAndWhatWasExpected(text: String, message: String) {
        // (Files Cucumber accepts are never errors: GherkinConformanceTests holds that against its parser.)
        #expect {
            try GherkinParser.parse(text, uri: "f.feature")
        } throws: { error in
            (error as? GherkinError)?.description == message
        }
    }

    /// r8b R8B-5: a tag over a Rule's Background was moved onto the rule's first Scenario (selecting or excluding it);
    /// gherkin-official refuses the file, as this parser did at Feature level already: the same error, both levels.
    @Test(arguments: [
        ("Feature: x\n  @slow\n  Background:\n    Given a\n  Scenario: s\n    Given b", 3),
        ("Feature: x\n  Rule: R\n    @slow\n    Background:\n      Given a\n    Scenario: s\n      Given b", 4),
        (
            "Feature: x\n  Background:\n    Given a\n  @x\n  Rule: R\n    @y\n    Background:\n      Given a\n    Scenario: s\n      Given b",
            7
        ),
    ])
    func aTaggedBackgroundIsRefusedInARuleAsInAFeature(text: String, line: Int) {
        #expect {
            try GherkinParser.parse(text, uri: "f.feature")
        } throws: { error in
            (error as? GherkinError)?.description == "f.feature:\(line): a Background cannot have tags"
        }
    }

    @Test func anEmptyFileHasNoScenarios() throws {
        #expect(Pickle.compile(try GherkinParser.parse("# nothing\n", uri: "e.feature")).isEmpty)
    }
}

@Suite struct TagAndShardTests {
    @Test(arguments: [
        ("@smoke", ["@smoke"], true), ("@smoke and not @slow", ["@smoke", "@slow"], false),
        ("@smoke and not @slow", ["@smoke"], true), ("@a or @b and @c", ["@a"], true),
        ("(@a or @b) and @c", ["@a"], false), ("not (@a or @b)", ["@c"], true),
    ])
    func tagExpressions(expression: String, tags: [String], selected: Bool) throws {
        #expect(try TagExpression.parse(expression).matches(tags) == selected)
    }

    @Test(arguments: [
        ("@a and", "expected a tag, not, or ( at the end"), ("smoke", "expected a tag like @smoke, found \"smoke\""),
        ("(@a", "missing )"), ("@a @b", "unexpected \"@b\""),
    ])
    func badTagExpressionsAreUsageErrors(expression: String, message: String) {
        #expect { try TagExpression.parse(expression) } throws: { ($0 as? UsageError)?.message.contains(message) == true }
    }

    @Test func shardsCoverEveryScenarioExactlyOnce() {
        let pickles = (1...23).map {
            Pickle(uri: "f\($0 % 3).feature", featureName: "F", ruleName: nil, name: "s\($0)", line: $0, tags: [], steps: [])
        }
        var options = ScenarioOptions()
        var seen: [String] = []
        for index in 1...4 {
            options.shard = (index, 4)
            let share = ScenarioRunner.select(pickles.shuffled(), options: options)
            #expect(share.count >= 5 && share.count <= 6)
            seen += share.map(\.location)
        }
        #expect(seen.sorted() == pickles.map(\.location).sorted())
        options.shard = (2, 4)
        #expect(
            ScenarioRunner.select(pickles, options: options).map(\.location)
                == ScenarioRunner.select(pickles.reversed(), options: options).map(\.location))
    }

    @Test func junitEscapingDropsANSIAndForbiddenCharacters() {
        #expect(JUnitReport.escape("a\u{1B}[31mred\u{1B}[0m <b> & \"q\" \u{01}\u{0B}ok\tz") == "ared &lt;b&gt; &amp; &quot;q&quot; ok\tz")
    }

    @Test func shellWords() throws {
        #expect(try ShellWords.split(#"login --name "Ada Lovelace" 'a b' c\ d"#) == ["login", "--name", "Ada Lovelace", "a b", "c d"])
        #expect(try ShellWords.split("") == [])
        #expect(try ShellWords.split(#"a "b\"c" 'd\e' "f\g""#) == ["a", "b\"c", "d\\e", "f\\g"])
        #expect(throws: ShellWords.Error.self) { try ShellWords.split("sort 'input.txt") }
        #expect(throws: ShellWords.Error.self) { try ShellWords.split("echo \"open") }
        // No comments: a # anywhere is a character of its word (help steps says so); nothing after it is dropped.
        #expect(
            try ShellWords.split(##"printf %s a#b #c '#d' "e #f" \#g # h"##) == ["printf", "%s", "a#b", "#c", "#d", "e #f", "#g", "#", "h"])
    }

    /// A quoted word pasted into bash is the same bytes, and holds no byte a terminal would act on (the attack's
    /// m5: `init` printed `next:` with a name holding LF and ESC, escaped inside single quotes, so it named nothing).
    @Test(arguments: ["plain", "a b", "it's", "-x", "x\n::error::y\u{1B}[2J/features", "tab\there", "\u{202E}rtl", "back\\slash'\u{7}"])
    func quotedWordsPasteBackAsTheSameBytes(word: String) throws {
        let quoted = ShellWords.quoted(word)
        #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x202A...0x202E).contains($0.value) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "printf %s " + quoted]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: printed, as: UTF8.self) == (word.hasPrefix("-") ? "./" + word : word), "\(quoted)")
    }

    @Test func everyCatalogExampleMatchesItsOwnStep() {
        for definition in StepCatalog.all {
            let firstLine = String(definition.example.split(separator: "\n").first!)
            let text = String(firstLine.drop { $0 != " " }.dropFirst())
            #expect(StepCatalog.find(text) != nil, "\(definition.example)")
        }
    }

    /// What Cucumber accepts but the author probably did not mean: parsed as Cucumber does, with a warning.
    @Test(arguments: [
        (
            "Feature: x\n  Scenaro: typo\n    Given a",
            "f.feature:2: \"Scenaro:\" is not a keyword, so this line and its steps are description text; did you mean \"Scenario:\"?"
        ),
        (
            "Feature: x\n  Scenario Outline: s\n    Given <a>",
            "f.feature:2: Scenario Outline \"s\" has no Examples: it runs once, with its <placeholders> as written (as in Cucumber)"
        ),
        (
            "Feature: x\n  Scenario: s\n    And a",
            "f.feature:3: \"And\" has no Given, When or Then before it, nor a Background step (Cucumber gives it no type)"
        ),
        (
            "Feature: x\n  Scenario: s\n    | a | b |\n    Given a",
            "f.feature:3: this table belongs to no step: Cucumber reads it as description text"
        ),
        (
            "Feature: x\n  Scenario: s\n    Given\u{00A0}a\n    Given b",
            "f.feature:3: \"Given\" is followed by a tab or a Unicode space, not a plain space: Cucumber reads this line as description text, not a step"
        ),
    ])
    func likelyMistakesCucumberAcceptsAreWarnings(text: String, warning: String) throws {
        let document = try GherkinParser.parse(text, uri: "f.feature")
        #expect(document.warnings == [warning])
    }
}
