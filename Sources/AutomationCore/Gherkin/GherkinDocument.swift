import AutomationSupport

/// A parsed `.feature` file.
public struct GherkinDocument: Sendable {
    public var uri: String
    public var feature: Feature?
    /// What parses (as in Cucumber) but probably is not what the author meant: `file:line: …`.
    public var warnings: [String] = []
    /// The `# language:` code (`en` when none).
    public var language = "en"
    /// Every comment line: its line number and text as written (for Cucumber Messages).
    public var comments: [(line: Int, text: String)] = []

    public struct Tag: Sendable, Hashable {
        public var name: String
        public var line: Int
        public var column = 1
    }

    public struct DataTable: Sendable, Hashable {
        public var rows: [[String]]
        public var line: Int
        /// Per row: its line, the column of its first `|`, and the column where each cell's value starts.
        public var rowPositions: [(line: Int, column: Int, cellColumns: [Int])] = []

        public static func == (lhs: DataTable, rhs: DataTable) -> Bool { lhs.rows == rhs.rows && lhs.line == rhs.line }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(rows)
            hasher.combine(line)
        }
    }

    public struct DocString: Sendable, Hashable {
        public var content: String
        public var mediaType: String?
        public var line: Int
        public var column = 1
        /// `"""` or ```` ``` ````.
        public var delimiter = "\"\"\""
    }

    public struct Step: Sendable, Hashable {
        /// As written: "Given ", "And ", "* ".
        public var keyword: String
        /// Given/When/Then, with And/But/* resolved to the step before.
        public var kind: String
        public var text: String
        public var line: Int
        public var column = 1
        public var dataTable: DataTable?
        public var docString: DocString?
        /// Cucumber's keyword type: Context, Action, Outcome, Conjunction (And, But) or Unknown (`*`).
        public var keywordType = "Unknown"

        /// The Gherkin specification's pickle step type: Context, Action or Outcome; And/But take the step
        /// before's, `*` (which every kind of step shares) is Unknown. Set by the parser.
        public var pickleType = "Unknown"
    }

    public struct Examples: Sendable, Hashable {
        public var name: String
        public var tags: [Tag]
        public var line: Int
        public var header: [String]
        public var rows: [(cells: [String], line: Int)]
        public var keyword = "Examples"
        public var column = 1
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

    public struct Scenario: Sendable, Hashable {
        public var keyword: String
        public var name: String
        public var tags: [Tag]
        public var line: Int
        public var steps: [Step]
        public var examples: [Examples]
        public var column = 1
        public var description = ""
        /// Declared with the language's Scenario Outline keyword (`Scenario Template`, `Schema dello scenario`…).
        public var declaredOutline = false
        public var isOutline: Bool { !examples.isEmpty || declaredOutline }
    }

    public struct Background: Sendable, Hashable {
        public var name: String
        public var line: Int
        public var steps: [Step]
        public var keyword = "Background"
        public var column = 1
        public var description = ""
    }

    public struct Rule: Sendable, Hashable {
        public var name: String
        public var tags: [Tag]
        public var line: Int
        public var background: Background?
        public var scenarios: [Scenario]
        public var keyword = "Rule"
        public var column = 1
        public var description = ""
    }

    public struct Feature: Sendable, Hashable {
        public var name: String
        /// The description lines trimmed (for people); ``rawDescription`` keeps them as written (for Messages).
        public var description: String
        public var tags: [Tag]
        public var line: Int
        public var background: Background?
        public var scenarios: [Scenario]
        public var rules: [Rule]
        public var keyword = "Feature"
        public var column = 1
        public var rawDescription = ""
    }
}

/// A syntax error in a feature file: `login.feature:12: expected a step, Scenario, or Examples, found "Whenn I..."`.
public struct GherkinError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
}
