import AutomationSupport
package import MockServer

/// A parsed `.feature` file.
package struct GherkinDocument: Sendable {
    /// Where it was read from, as given (`features/login.feature`).
    package var uri: String
    /// Its feature; nil for a file with none (only comments, or empty).
    package var feature: Feature?
    /// What parses (as in Cucumber) but probably is not what the author meant: `file:line: …`.
    package var warnings: [String] = []
    /// The `# language:` code (`en` when none).
    package var language = "en"
    /// Every comment line: its line number and text as written (for Cucumber Messages).
    package var comments: [(line: Int, text: String)] = []

    /// A tag (`@smoke`) where it was written.
    package struct Tag: Sendable, Hashable {
        /// With its `@`.
        package var name: String
        /// Its line (from 1).
        package var line: Int
        /// Its column (from 1).
        package var column = 1
    }

    /// A step's table, or an Examples table.
    package struct DataTable: Sendable, Hashable {
        /// The cells, row by row, trimmed and unescaped.
        package var rows: [[String]]
        /// The line of its first row.
        package var line: Int
        /// Per row: its line, the column of its first `|`, and the column where each cell's value starts.
        package var rowPositions: [(line: Int, column: Int, cellColumns: [Int])] = []

        package static func == (lhs: DataTable, rhs: DataTable) -> Bool { lhs.rows == rhs.rows && lhs.line == rhs.line }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(rows)
            hasher.combine(line)
        }
    }

    /// A step's doc string.
    package struct DocString: Sendable, Hashable {
        /// The text between the delimiters, unindented as Cucumber does.
        package var content: String
        /// The media type after the opening delimiter (` ```json `), if any.
        package var mediaType: String?
        /// The line of its opening delimiter.
        package var line: Int
        /// The column of its opening delimiter.
        package var column = 1
        /// `"""` or ```` ``` ````.
        package var delimiter = "\"\"\""
    }

    /// One step of a scenario or background.
    package struct Step: Sendable, Hashable {
        /// As written: "Given ", "And ", "* ".
        package var keyword: String
        /// Given/When/Then, with And/But/* resolved to the step before.
        package var kind: String
        /// The text after the keyword.
        package var text: String
        /// Its line (from 1).
        package var line: Int
        /// Its column (from 1).
        package var column = 1
        /// Its table, if any.
        package var dataTable: DataTable?
        /// Its doc string, if any.
        package var docString: DocString?
        /// Cucumber's keyword type: Context, Action, Outcome, Conjunction (And, But) or Unknown (`*`).
        package var keywordType = "Unknown"

        /// The Gherkin specification's pickle step type: Context, Action or Outcome; And/But take the step
        /// before's, `*` (which every kind of step shares) is Unknown. Set by the parser.
        package var pickleType = "Unknown"
    }

    /// One Examples block of a Scenario Outline.
    package struct Examples: Sendable, Hashable {
        /// The name after the keyword.
        package var name: String
        /// Its tags (they apply to its rows' pickles).
        package var tags: [Tag]
        /// The keyword's line.
        package var line: Int
        /// The table's first row: the placeholders' names.
        package var header: [String]
        /// Each row below the header, with its line.
        package var rows: [(cells: [String], line: Int)]
        /// The keyword as written (in the file's language).
        package var keyword = "Examples"
        /// The keyword's column.
        package var column = 1
        /// The lines between the keyword and the table.
        package var description = ""
        /// The table's rows (header first) with their positions.
        package var table: DataTable?

        package static func == (lhs: Examples, rhs: Examples) -> Bool {
            lhs.name == rhs.name && lhs.line == rhs.line && lhs.header == rhs.header && lhs.rows.map(\.cells) == rhs.rows.map(\.cells)
        }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(line)
        }
    }

    /// A Scenario or Scenario Outline.
    package struct Scenario: Sendable, Hashable {
        /// The keyword as written (in the file's language).
        package var keyword: String
        /// The name after the keyword.
        package var name: String
        /// Its tags.
        package var tags: [Tag]
        /// The keyword's line.
        package var line: Int
        /// Its steps.
        package var steps: [Step]
        /// Its Examples blocks (an outline's).
        package var examples: [Examples]
        /// The keyword's column.
        package var column = 1
        /// The lines between the keyword and the first step.
        package var description = ""
        /// Declared with the language's Scenario Outline keyword (`Scenario Template`, `Schema dello scenario`…).
        package var declaredOutline = false
        /// True for an outline: one with Examples or declared with the outline keyword.
        package var isOutline: Bool { !examples.isEmpty || declaredOutline }
    }

    /// Steps that run before each scenario of its feature or rule.
    package struct Background: Sendable, Hashable {
        /// The name after the keyword.
        package var name: String
        /// The keyword's line.
        package var line: Int
        /// Its steps.
        package var steps: [Step]
        /// The keyword as written (in the file's language).
        package var keyword = "Background"
        /// The keyword's column.
        package var column = 1
        /// The lines between the keyword and the first step.
        package var description = ""
    }

    /// A Rule: scenarios grouped under one business rule, with their own background.
    package struct Rule: Sendable, Hashable {
        /// The name after the keyword.
        package var name: String
        /// Its tags (inherited by its scenarios).
        package var tags: [Tag]
        /// The keyword's line.
        package var line: Int
        /// Its background, if any.
        package var background: Background?
        /// Its scenarios.
        package var scenarios: [Scenario]
        /// The keyword as written (in the file's language).
        package var keyword = "Rule"
        /// The keyword's column.
        package var column = 1
        /// The lines between the keyword and what follows.
        package var description = ""
    }

    /// The Feature of a file.
    package struct Feature: Sendable, Hashable {
        /// The name after the keyword.
        package var name: String
        /// The description lines trimmed (for people); ``rawDescription`` keeps them as written (for Messages).
        package var description: String
        /// Its tags (inherited by every scenario).
        package var tags: [Tag]
        /// The keyword's line.
        package var line: Int
        /// Its background, if any.
        package var background: Background?
        /// Its scenarios outside rules.
        package var scenarios: [Scenario]
        /// Its rules.
        package var rules: [Rule]
        /// The keyword as written (in the file's language).
        package var keyword = "Feature"
        /// The keyword's column.
        package var column = 1
        package var rawDescription = ""
    }
}

/// A syntax error in a feature file: `login.feature:12: expected a step, Scenario, or Examples, found "Whenn I..."`.
package typealias GherkinError = LocatedError
