import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// Tricky Gherkin, written here for each rule, against Cucumber's reference parser (PyPI gherkin-official): a file
/// it accepts we accept with the same pickles (names, tags, step texts, types, doc strings, tables); a file it
/// rejects we reject.
@Suite struct GherkinConformanceTests {
    static let cases: [(name: String, text: String)] = [
        (
            "star then And",
            """
            Feature: f
              Scenario: s
                * a star
                And an and
                When an action
                * another star
                But a but
            """
        ),
        (
            "a row without its trailing pipe",
            """
            Feature: f
              Scenario: s
                Given a table
                  | a | b |
                  | 1 | 2
            """
        ),
        (
            "blank lines and comments inside a table",
            """
            Feature: f
              Scenario: s
                Given a table
                  | a | b |
                  # a comment between rows
                  | 1 | 2 |

                  | 3 | 4 |
            """
        ),
        (
            "a step with a table and a doc string",
            """
            Feature: f
              Scenario: s
                Given both
                  | a |
                  \"\"\"
                  text
                  \"\"\"
            """
        ),
        (
            "a Scenario Outline without Examples",
            """
            Feature: f
              Scenario Outline: s <x>
                Given <x>
              Scenario: t
                Given a step
            """
        ),
        (
            "escaped delimiters in doc strings",
            #"""
            Feature: f
              Scenario: s
                Given a doc string
                  """json
                  {"quote": "\"\"\"", "backticks": "```"}
                  \"\"\"
                  """
                And another
                  ```
                  \`\`\`
                  ```
            """#
        ),
        (
            "a Rule with its own Background, tags on Rules and Examples",
            """
            @feature
            Feature: f
              Background:
                Given the feature background
              @rule
              Rule: r
                Background:
                  Given the rule background
                @outline
                Scenario Outline: s <x>
                  Given value <x> and <y>
                  @first
                  Examples: one
                    | x | y |
                    | 1 | a |
                  @second
                  Examples: two
                    | x | y |
                    | 2 | b |
            """
        ),
        (
            "descriptions with comments",
            """
            Feature: f
              A description line
              # a comment inside the description
              another line
              Scenario: s
                Described too
                # and commented
                Given a step
            """
        ),
        ("spaces and tabs are trimmed", "Feature: f\n\tScenario:   s  \n\t\tGiven   a step with tabs\t\n  \t  | a\t|  b |\n"),
        (
            "placeholders in tables and doc strings",
            #"""
            Feature: f
              Scenario Outline: s
                Given a table
                  | <a> | fixed |
                And a doc string
                  """
                  value <a>
                  """
                Examples:
                  | a |
                  | x |
            """#
        ),
        (
            "a misspelt keyword is description text to Cucumber",
            """
            Feature: f
              Scenaro: typo
                Given a step
              Scenario: s
                Given a step
            """
        ),
        (
            "And before any Given",
            """
            Feature: f
              Scenario: s
                And a lone and
            """
        ),
        (
            "a table without a step",
            """
            Feature: f
              Scenario: s
                | a | b |
            """
        ),
        (
            "an unclosed doc string",
            #"""
            Feature: f
              Scenario: s
                Given a doc string
                  """
                  never closed
            """#
        ),
        (
            "tags at the end of the file",
            """
            Feature: f
              Scenario: s
                Given a step
            @orphan
            """
        ),
        (
            "two Features",
            """
            Feature: one
              Scenario: s
                Given a step
            Feature: two
            """
        ),
        (
            "Examples with cells that differ in count",
            """
            Feature: f
              Scenario Outline: s
                Given <x>
                Examples:
                  | x | y |
                  | 1 |
            """
        ),
        ("an empty file and a file of comments", "# just a comment\n\n"),
        (
            "a Background after a Scenario",
            """
            Feature: f
              Scenario: s
                Given a step
              Background:
                Given late
            """
        ),
        ("CRLF line endings", "Feature: f\r\n  Scenario: s\r\n    Given a\r\n      | a |\r\n      \"\"\"\r\n      x\r\n      \"\"\"\r\n"),
        ("a lone CR is text, not a line end", "Feature: f\r  Scenario: s\r    Given a\r"),
        ("a CR inside a step", "Feature: f\n  Scenario: s\n    Given a\rb\n"),
        (
            "Unicode spaces are blanks; a step keyword needs a plain space",
            "Feature: f\n\u{3000}Scenario:\u{00A0}s\u{2003}\n\u{00A0}\u{00A0}Given a\u{3000}\n\u{00A0}Given\u{00A0}b\n    Given\tc\n    Given d\u{1C}\n"
        ),
        ("joined tags, a lone @ and a comment after tags", "@a@b @ @c #x\nFeature: f\n  Scenario: s\n    Given a\n"),
        (
            "a repeated placeholder column and one in a media type",
            #"""
            Feature: f
              Scenario Outline: <a>
                Given <a>
                  """<t>
                  <a>
                  """
                Examples:
                  | a | a | t    |
                  | 1 | 2 | json |
            """#
        ),
        // Round 4b (S): Cucumber fills column after column, so a value holding a later column's placeholder is
        // filled too (and a header name with < or > is found); an And first in a scenario takes the Background's type.
        (
            "an Examples value holding a later column's placeholder",
            "Feature: T\n  Scenario Outline: s <x>\n    When I run \"echo <x>\"\n    Examples:\n      | x | y |\n      | <y> | Z |\n"
        ),
        (
            "an earlier column's placeholder in a value, a placeholder made beside a value, an odd header name",
            "Feature: T\n  Scenario Outline: <b> <a>b> <c<d> <p>q>\n    Given <a>c>\n      | <x> |\n    Examples:\n"
                + "      | a | b | c | p>q | x |\n      | < | <a> | 1 | 2 | <a> |\n"
        ),
        (
            "And first in a scenario after a Background",
            "Feature: T\n  Background:\n    Given I run \"true\"\n  Scenario: s\n    And I run \"true\"\n"
        ),
        (
            "And first after a Background ending in *, and in a Rule's Background and scenario",
            "Feature: T\n  Background:\n    When a\n  Scenario: s\n    But b\n  Rule: r\n    Background:\n      And c\n    Scenario Outline: o\n"
                + "      And d <v>\n      Examples:\n        | v |\n        | 1 |\n  Rule: r2\n    Scenario: t\n      And e\n"
        ),
        (
            "And first in a scenario after a Background ending in *",
            "Feature: T\n  Background:\n    Given a\n    * b\n  Scenario: s\n    And c\n"
        ),
        (
            "Scenario Template and Scenarios",
            """
            Feature: f
              Scenario Template: s <n>
                Given number <n>
                Scenarios:
                  | n |
                  | 7 |
            """
        ),
    ]

    static let hasReference = pythonCanImport("gherkin.parser, gherkin.pickles.compiler")

    @Test(.enabled(if: hasReference, "needs the reference parser: pip install gherkin-official (scripts/install-test-deps.sh installs it)"))
    func trickyFilesParseAsTheReferenceParserParsesThem() throws {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("gherkin-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: Self.cases.map(\.text)).write(to: input)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference_parse.py").path
        let data = try runPython(script, [input.path])
        let references = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        try #require(references.count == Self.cases.count)
        for ((name, text), reference) in zip(Self.cases, references) {
            let theirs = reference["ok"] as? Bool == true
            let ours: [Pickle]?
            var ourError = ""
            do { ours = Pickle.compile(try GherkinParser.parse(text, uri: "case.feature")) } catch {
                ours = nil
                ourError = "\(error)"
            }
            guard theirs else {
                #expect(ours == nil, "\(name): the reference rejects it (\(reference["error"] as? String ?? "")), we accept it")
                continue
            }
            guard let ours else {
                Issue.record("\(name): the reference accepts it, we reject it: \(ourError)")
                continue
            }
            let expected = (reference["pickles"] as? [[String: Any]] ?? []).map(Self.describe)
            let actual = ours.map(Self.describe)
            #expect(actual == expected, "\(name)")
        }
    }

    /// A reference pickle as comparable text.
    private static func describe(_ pickle: [String: Any]) -> String {
        var lines = ["\(pickle["name"] as? String ?? "") \((pickle["tags"] as? [String] ?? []).joined(separator: " "))"]
        for step in pickle["steps"] as? [[String: Any]] ?? [] {
            lines.append("  \(step["type"] as? String ?? "") \(step["text"] as? String ?? "")")
            if let content = step["docString"] as? String { lines.append("    doc(\(step["mediaType"] as? String ?? "")): \(content)") }
            for row in step["table"] as? [[String]] ?? [] { lines.append("    | " + row.joined(separator: " | ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// Ours, the same way.
    private static func describe(_ pickle: Pickle) -> String {
        var lines = ["\(pickle.specName) \(pickle.tags.joined(separator: " "))"]
        for step in pickle.steps {
            lines.append("  \(step.pickleType) \(step.text)")
            if let doc = step.docString { lines.append("    doc(\(doc.mediaType ?? "")): \(doc.content)") }
            for row in step.dataTable?.rows ?? [] { lines.append("    | " + row.joined(separator: " | ")) }
        }
        return lines.joined(separator: "\n")
    }
}
