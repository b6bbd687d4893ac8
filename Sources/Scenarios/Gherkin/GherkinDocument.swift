import AutomationSupport

/// A parsed `.feature` file.
public struct GherkinDocument: Sendable {
    /// Where it was read from, as given (`features/login.feature`).
    public var uri: String
    /// Its feature; nil for a file with none (only comments, or empty).
    public var feature: Feature?
    /// What parses (as in Cucumber) but probably is not what the author meant: `file:line: …`.
    public var warnings: [String] = []
    /// The `# language:` code (`en` when none).
    public var language = "en"
    /// Every comment line: its line number and text as written (for Cucumber Messages).
    public var comments: [(line: Int, text: String)] = []

    /// A tag (`@smoke`) where it was written.
    public struct Tag: Sendable, Hashable {
        /// With its `@`.
        public var name: String
        /// Its line (from 1).
        public var line: Int
        /// Its column (from 1).
        public var column = 1
    }

    /// A step's table, or an Examples table.
    public struct DataTable: Sendable, Hashable {
        /// The cells, row by row, trimmed and unescaped.
        public var rows: [[String]]
        /// The line of its first row.
        public var line: Int
        /// Per row: its line, the column of its first `|`, and the column where each cell's value starts.
        public var rowPositions: [(line: Int, column: Int, cellColumns: [Int])] = []

        public static func == (lhs: DataTable, rhs: DataTable) -> Bool { lhs.rows == rhs.rows && lhs.line == rhs.line }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(rows)
            hasher.combine(line)
        }
    }

    /// A step's doc string.
    public struct DocString: Sendable, Hashable {
        /// The text between the delimiters, unindented as Cucumber does.
        public var content: String
        /// The media type after the opening delimiter (` ```json `), if any.
        public var mediaType: String?
        /// The line of its opening delimiter.
        public var line: Int
        /// The column of its opening delimiter.
        public var column = 1
        /// `"""` or ```` ``` ````.
        public var delimiter = "\"\"\""
    }

    /// One step of a scenario or background.
    public struct Step: Sendable, Hashable {
        /// As written: "Given ", "And ", "* ".
        public var keyword: String
        /// Given/When/Then, with And/But/* resolved to the step before.
        public var kind: String
        /// The text after the keyword.
        public var text: String
        /// Its line (from 1).
        public var line: Int
        /// Its column (from 1).
        public var column = 1
        /// Its table, if any.
        public var dataTable: DataTable?
        /// Its doc string, if any.
        public var docString: DocString?
        /// Cucumber's keyword type: Context, Action, Outcome, Conjunction (And, But) or Unknown (`*`).
        public var keywordType = "Unknown"

        /// The Gherkin specification's pickle step type: Context, Action or Outcome; And/But take the step
        /// before's, `*` (which every kind of step shares) is Unknown. Set by the parser.
        public var pickleType = "Unknown"
    }

    /// One Examples block of a Scenario Outline.
    public struct Examples: Sendable, Hashable {
        /// The name after the keyword.
        public var name: String
        /// Its tags (they apply to its rows' pickles).
        public var tags: [Tag]
        /// The keyword's line.
        public var line: Int
        /// The table's first row: the placeholders' names.
        public var header: [String]
        /// Each row below the header, with its line.
        public var rows: [(cells: [String], line: Int)]
        /// The keyword as written (in the file's language).
        public var keyword = "Examples"
        /// The keyword's column.
        public var column = 1
        /// The lines between the keyword and the table.
        public var description = ""
        /// The table's rows (header first) with their positions.
        public var table: DataTable?

        public static func == (lhs: Examples, rhs: Examples) -> Bool {
            lhs.name == rhs.name && lhs.line == rhs.line && lhs.header == rhs.header && lhs.rows.map(\.cells) == rhs.rows.map(\.cells)
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(line)
        }
    }

    /// A Scenario or Scenario Outline.
    public struct Scenario: Sendable, Hashable {
        /// The keyword as written (in the file's language).
        public var keyword: String
        /// The name after the keyword.
        public var name: String
        /// Its tags.
        public var tags: [Tag]
        /// The keyword's line.
        public var line: Int
        /// Its steps.
        public var steps: [Step]
        /// Its Examples blocks (an outline's).
        public var examples: [Examples]
        /// The keyword's column.
        public var column = 1
        /// The lines between the keyword and the first step.
        public var description = ""
        /// Declared with the language's Scenario Outline keyword (`Scenario Template`, `Schema dello scenario`…).
        public var declaredOutline = false
        /// True for an outline: one with Examples or declared with the outline keyword.
        public var isOutline: Bool { !examples.isEmpty || declaredOutline }
    }

    /// Steps that run before each scenario of its feature or rule.
    public struct Background: Sendable, Hashable {
        /// The name after the keyword.
        public var name: String
        /// The keyword's line.
        public var line: Int
        /// Its steps.
        public var steps: [Step]
        /// The keyword as written (in the file's language).
        public var keyword = "Background"
        /// The keyword's column.
        public var column = 1
        /// The lines between the keyword and the first step.
        public var description = ""
    }

    /// A Rule: scenarios grouped under one business rule, with their own background.
    public struct Rule: Sendable, Hashable {
        /// The name after the keyword.
        public var name: String
        /// Its tags (inherited by its scenarios).
        public var tags: [Tag]
        /// The keyword's line.
        public var line: Int
        /// Its background, if any.
        public var background: Background?
        /// Its scenarios.
        public var scenarios: [Scenario]
        /// The keyword as written (in the file's language).
        public var keyword = "Rule"
        /// The keyword's column.
        public var column = 1
        /// The lines between the keyword and what follows.
        public var description = ""
    }

    /// The Feature of a file.
    public struct Feature: Sendable, Hashable {
        /// The name after the keyword.
        public var name: String
        /// The description lines trimmed (for people); ``rawDescription`` keeps them as written (for Messages).
        public var description: String
        /// Its tags (inherited by every scenario).
        public var tags: [Tag]
        /// The keyword's line.
        public var line: Int
        /// Its background, if any.
        public var background: Background?
        /// Its scenarios outside rules.
        public var scenarios: [Scenario]
        /// Its rules.
        public var rules: [Rule]
        /// The keyword as written (in the file's language).
        public var keyword = "Feature"
        /// The keyword's column.
        public var column = 1
        public var rawDescription = ""
    }
}

/// A syntax error in a feature file: `login.feature:12: expected a step, Scenario, or Examples, found "Whenn I..."`.
public struct GherkinError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The feature file.
    public var file: String
    /// The line of the error (from 1).
    public var line: Int
    /// What was expected and what was found.
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
}
