import AutomationSupport

/// Parses Gherkin: Feature, Background, Rule, Scenario / Example, Scenario Outline / Template with Examples /
/// Scenarios, Given/When/Then/And/But/`*` steps, doc strings (`"""` or ``` ``` ```), data tables, tags and
/// comments, in any of the 80 languages of Gherkin's keyword list (`# language: it` before the Feature line).
public enum GherkinParser {
    static let stepKeywords = ["Given ", "When ", "Then ", "And ", "But ", "* "]

    /// - Throws: ``GherkinError`` with the file, the line and what was expected there.
    public static func parse(_ text: String, uri: String) throws(GherkinError) -> GherkinDocument {
        // A UTF-8 byte order mark (editors on Windows write one) is not part of the first line.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var parser = Parser(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }, uri: uri)
        return try parser.document()
    }

    private struct Parser {
        let lines: [String]
        let uri: String
        var index = 0
        var pendingTags: [GherkinDocument.Tag] = []
        var dialect = GherkinDialect.english
        var languageCode = "en"
        var stepKeywords = GherkinDialect.english.stepKeywords
        /// What Cucumber accepts and we would not write that way: `file:line: …`, for `check` and `test` to print.
        var warnings: [String] = []
        /// The description read last, lines as written (Cucumber Messages keep them so).
        var lastRawDescription = ""
        /// Lines inside doc strings (their `#` lines are content, not comments) and the `# language:` line.
        var notComments: Set<Int> = []

        /// Every comment line as written (not the `# language:` line, not `#` lines inside doc strings).
        func comments() -> [(line: Int, text: String)] {
            lines.indices.compactMap { number in
                let text = lines[number]
                return text.trimmingSpaces().hasPrefix("#") && !notComments.contains(number + 1) ? (number + 1, text) : nil
            }
        }

        /// The 1-based column of the first character that is not a space or a tab on line `lineIndex` (0-based).
        func column(_ lineIndex: Int) -> Int {
            guard lineIndex < lines.count else { return 1 }
            return lines[lineIndex].prefix { $0 == " " || $0 == "\t" }.count + 1
        }

        mutating func warn(_ message: String, line: Int? = nil) {
            if warnings.count < 1_000 { warnings.append("\(uri):\(line ?? index + 1): \(message)") }
        }

        init(lines: [String], uri: String) {
            self.lines = lines
            self.uri = uri
        }

        /// `# language: xx` among the comments and blank lines before anything else selects the keywords.
        mutating func readLanguage() throws(GherkinError) {
            for (number, raw) in lines.enumerated() {
                let line = raw.trimmingSpaces()
                if line.isEmpty { continue }
                guard line.hasPrefix("#") else { return }
                let comment = line.dropFirst().trimmingSpaces()
                guard comment.hasPrefix("language"), let colon = comment.firstIndex(of: ":"),
                      comment[..<colon].trimmingSpaces() == "language" else { continue }
                let code = comment[comment.index(after: colon)...].trimmingSpaces()
                guard let found = GherkinDialect.named(code) else { throw error(GherkinDialect.problem(naming: code), line: number + 1) }
                notComments.insert(number + 1)
                languageCode = code
                dialect = found
                stepKeywords = found.stepKeywords
                return
            }
        }

        func error(_ message: String, line: Int? = nil) -> GherkinError {
            GherkinError(file: uri, line: line ?? index + 1, message: message)
        }

        var current: String? { index < lines.count ? lines[index].trimmingSpaces() : nil }

        /// Skips blank lines and comments; collects tag lines into `pendingTags`.
        mutating func skipTrivia() throws(GherkinError) {
            while let line = current {
                if line.isEmpty || line.hasPrefix("#") {
                    index += 1
                } else if line.hasPrefix("@") {
                    try readTags(line)
                    index += 1
                } else {
                    return
                }
            }
        }

        /// `line` is the raw line without its leading and trailing blanks; a tag's column counts from the raw line.
        /// (Walked on bytes: `firstRange(of:)` on strings was a tenth of listing 1,000 tagged feature files.)
        mutating func readTags(_ line: String) throws(GherkinError) {
            var text = Substring(line)
            let utf8 = text.utf8
            // A blank then "#" starts a comment, as in Cucumber's parser (`\s#`).
            if let hash = utf8.indices.first(where: { index in
                guard utf8[index] == UInt8(ascii: "#"), index > utf8.startIndex else { return false }
                let before = utf8[utf8.index(before: index)]
                return before == UInt8(ascii: " ") || before == UInt8(ascii: "\t")
            }) {
                text = text[..<utf8.index(before: hash)]
            }
            let lineColumn = column(index)
            for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                guard word.hasPrefix("@"), word.count > 1 else {
                    throw error("expected a tag like @smoke, found \"\(word)\"")
                }
                var tag = GherkinDocument.Tag(name: String(word), line: index + 1)
                // Only blanks stand between tags, so each is found where the split found it.
                tag.column = lineColumn + line.distance(from: line.startIndex, to: word.startIndex)
                pendingTags.append(tag)
            }
        }

        mutating func takeTags() -> [GherkinDocument.Tag] {
            defer { pendingTags = [] }
            return pendingTags
        }

        static func keyword(_ line: String, _ candidates: [String]) -> (keyword: String, rest: String)? {
            for candidate in candidates where line.hasPrefix(candidate + ":") {
                return (candidate, String(line.dropFirst(candidate.count + 1)).trimmingSpaces())
            }
            return nil
        }

        mutating func document() throws(GherkinError) -> GherkinDocument {
            var document = GherkinDocument(uri: uri)
            try readLanguage()
            try skipTrivia()
            guard let line = current else {
                document.language = languageCode
                document.comments = comments()
                return document
            }
            guard let (featureKeyword, name) = Self.keyword(line, dialect.feature) else {
                throw error("expected \"\(dialect.feature[0]):\", found \"\(line.prefix(40))\"")
            }
            var feature = GherkinDocument.Feature(name: name, description: "", tags: takeTags(), line: index + 1,
                                                  background: nil, scenarios: [], rules: [])
            feature.keyword = featureKeyword
            feature.column = column(index)
            index += 1
            // Under a Feature or a Rule no step can come: a step line there is description text, as in Cucumber.
            feature.description = try readDescription(stepsAreText: true)
            feature.rawDescription = lastRawDescription
            while true {
                try skipTrivia()
                guard let line = current else { break }
                if let (keyword, name) = Self.keyword(line, dialect.background) {
                    guard feature.background == nil, feature.scenarios.isEmpty, feature.rules.isEmpty else {
                        throw error("Background must come before the first Scenario, once")
                    }
                    if !pendingTags.isEmpty { throw error("a Background cannot have tags") }
                    feature.background = try background(name, keyword: keyword)
                } else if let (keyword, name) = Self.keyword(line, dialect.rule) {
                    feature.rules.append(try rule(name, keyword: keyword))
                } else if let scenario = try scenarioIfPresent(line) {
                    if !feature.rules.isEmpty { throw error("a Scenario after a Rule belongs in a Rule", line: scenario.line) }
                    feature.scenarios.append(scenario)
                } else {
                    throw unexpected(line, expected: "Scenario, Scenario Outline, Background, Rule or a tag")
                }
            }
            if !pendingTags.isEmpty { throw error("tags at the end of the file belong to nothing", line: pendingTags[0].line) }
            document.feature = feature
            document.warnings = warnings
            document.language = languageCode
            document.comments = comments()
            return document
        }

        func unexpected(_ line: String, expected: String) -> GherkinError {
            var hint = ""
            let word = String(line.prefix { $0 != " " && $0 != ":" })
            let keywords = dialect.feature + dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.rule + dialect.examples
                + stepKeywords.map { $0.keyword.trimmingSpaces() }.filter { $0 != "*" }
            if let match = Suggestion.nearest(to: word, among: keywords), match != word { hint = "; did you mean \"\(match)\"?" }
            return error("expected \(expected), found \"\(line.prefix(60))\"\(hint)")
        }

        /// Free text under a Feature, Rule, Scenario or Examples line. A line that looks like a misspelt keyword
        /// ("Scenaro: x") is an error rather than description, or the scenario would silently vanish.
        mutating func readDescription(stepsAreText: Bool = false, tablesAreText: Bool = true) throws(GherkinError) -> String {
            var text: [String] = []
            var raw: [String] = []
            let keywords = dialect.feature + dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.examples + dialect.rule
            let starts = dialect.background + dialect.rule + dialect.scenario + dialect.scenarioOutline + dialect.examples
            while let line = current, !line.hasPrefix("@"), tablesAreText || !line.hasPrefix("|"), !line.hasPrefix("\"\"\""), !line.hasPrefix("```"),
                  stepsAreText || !stepKeywords.contains(where: { line.hasPrefix($0.keyword) }),
                  Self.keyword(line, starts) == nil {
                if let colon = line.firstIndex(of: ":"), line[..<colon].count <= 20,
                   let match = Suggestion.nearest(to: String(line[..<colon]), among: keywords) {
                    // Cucumber reads it as description text, so the file stays valid; but what follows is lost.
                    warn("\"\(line[..<colon]):\" is not a keyword, so this line and its steps are description text; did you mean \"\(match):\"?")
                }
                if line.hasPrefix("|") {
                    warn("this table belongs to no step: Cucumber reads it as description text")
                }
                if !line.hasPrefix("#") {
                    text.append(line)
                    raw.append(lines[index])
                }
                index += 1
            }
            while text.last == "" { text.removeLast() }
            while let last = raw.last, last.trimmingSpaces().isEmpty { raw.removeLast() }
            lastRawDescription = raw.joined(separator: "\n")
            return text.joined(separator: "\n")
        }

        mutating func background(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Background {
            let line = index + 1
            let startColumn = column(index)
            index += 1
            _ = try readDescription()
            var background = GherkinDocument.Background(name: name, line: line, steps: [])
            background.keyword = keyword
            background.column = startColumn
            background.description = lastRawDescription
            background.steps = try steps()
            return background
        }

        mutating func rule(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Rule {
            var rule = GherkinDocument.Rule(name: name, tags: takeTags(), line: index + 1, background: nil, scenarios: [])
            rule.keyword = keyword
            rule.column = column(index)
            index += 1
            _ = try readDescription(stepsAreText: true)
            rule.description = lastRawDescription
            while true {
                try skipTrivia()
                guard let line = current else { break }
                if Self.keyword(line, dialect.rule) != nil { break }
                if let (keyword, name) = Self.keyword(line, dialect.background) {
                    guard rule.background == nil, rule.scenarios.isEmpty else { throw error("Background must come before the first Scenario, once") }
                    rule.background = try background(name, keyword: keyword)
                } else if let scenario = try scenarioIfPresent(line) {
                    rule.scenarios.append(scenario)
                } else {
                    throw unexpected(line, expected: "Scenario, Background, Rule or a tag")
                }
            }
            return rule
        }

        mutating func scenarioIfPresent(_ line: String) throws(GherkinError) -> GherkinDocument.Scenario? {
            let candidates = (dialect.scenarioOutline + dialect.scenario).sorted { $0.count > $1.count }
            guard let (keyword, name) = Self.keyword(line, candidates) else { return nil }
            var scenario = GherkinDocument.Scenario(keyword: keyword, name: name, tags: takeTags(), line: index + 1, steps: [], examples: [])
            scenario.declaredOutline = dialect.scenarioOutline.contains(keyword)
            scenario.column = column(index)
            index += 1
            _ = try readDescription()
            scenario.description = lastRawDescription
            scenario.steps = try steps()
            while true {
                try skipTrivia()
                guard let line = current, let (examplesKeyword, examplesName) = Self.keyword(line, dialect.examples) else { break }
                scenario.examples.append(try examples(examplesName, keyword: examplesKeyword))
            }
            if scenario.isOutline && scenario.examples.isEmpty {
                warn("\(keyword) \"\(name)\" has no Examples: it runs once, with its <placeholders> as written (as in Cucumber)", line: scenario.line)
            }
            if !pendingTags.isEmpty && current == nil {
                throw error("tags at the end of the file belong to nothing", line: pendingTags[0].line)
            }
            return scenario
        }

        mutating func examples(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Examples {
            let line = index + 1
            let startColumn = column(index)
            let tags = takeTags()
            index += 1
            _ = try readDescription(tablesAreText: false)
            let description = lastRawDescription
            try skipTrivia()
            guard let table = try tableIfPresent(), let header = table.rows.first else {
                throw error("Examples needs a table: | name | value |")
            }
            let rows = table.rows.indices.dropFirst().map { (cells: table.rows[$0], line: table.rowPositions[$0].line) }
            var examples = GherkinDocument.Examples(name: name, tags: tags, line: line, header: header, rows: Array(rows))
            examples.keyword = keyword
            examples.column = startColumn
            examples.description = description
            examples.table = table
            return examples
        }

        mutating func steps() throws(GherkinError) -> [GherkinDocument.Step] {
            var steps: [GherkinDocument.Step] = []
            var lastKind: String?
            var lastType = "Unknown"
            while true {
                while let line = current, line.isEmpty || line.hasPrefix("#") { index += 1 }
                guard let line = current, let (keyword, given) = stepKeywords.first(where: { line.hasPrefix($0.keyword) }) else {
                    // A table that follows no step: Cucumber skips it; so do we, saying so.
                    if let line = current, line.hasPrefix("|") {
                        warn("this table belongs to no step and is ignored (as in Cucumber)")
                        _ = try tableIfPresent()
                        continue
                    }
                    break
                }
                let text = String(line.dropFirst(keyword.count)).trimmingSpaces()
                let trimmedKeyword = keyword.trimmingSpaces()
                // The specification's type: Given/When/Then give one, And/But take the step before's, `*` has none.
                let type: String
                if let given { type = ["Given": "Context", "When": "Action", "Then": "Outcome"][given] ?? "Unknown" } else {
                    type = trimmedKeyword == "*" ? "Unknown" : lastType
                }
                lastType = type
                if given == nil, lastKind == nil, trimmedKeyword != "*" {
                    warn("\"\(trimmedKeyword)\" has no Given, When or Then before it (Cucumber gives it no type)")
                }
                let kind = given ?? lastKind ?? "Given"
                lastKind = kind
                var step = GherkinDocument.Step(keyword: keyword, kind: kind, text: text, line: index + 1)
                step.pickleType = type
                step.column = column(index)
                step.keywordType = given.map { ["Given": "Context", "When": "Action", "Then": "Outcome"][$0] ?? "Unknown" }
                    ?? (trimmedKeyword == "*" ? "Unknown" : "Conjunction")
                index += 1
                while let next = current, next.isEmpty || next.hasPrefix("#") { index += 1 }
                // Cucumber keeps a table and a doc string that follow one step, in either order.
                if let table = try tableIfPresent() {
                    step.dataTable = table
                    while let next = current, next.isEmpty || next.hasPrefix("#") { index += 1 }
                    step.docString = try docStringIfPresent()
                } else if let docString = try docStringIfPresent() {
                    step.docString = docString
                    while let next = current, next.isEmpty || next.hasPrefix("#") { index += 1 }
                    step.dataTable = try tableIfPresent()
                }
                steps.append(step)
            }
            return steps
        }

        mutating func tableIfPresent() throws(GherkinError) -> GherkinDocument.DataTable? {
            guard let first = current, first.hasPrefix("|") else { return nil }
            let line = index + 1
            var rows: [[String]] = []
            var positions: [(line: Int, column: Int, cellColumns: [Int])] = []
            while let text = current, text.hasPrefix("|") {
                guard text.hasSuffix("|"), text.count >= 2 else { throw error("a table row must end with |") }
                rows.append(Self.cells(String(text.dropFirst().dropLast())))
                positions.append((index + 1, column(index), Self.cellColumns(lines[index])))
                if rows.count > 1 && rows.last!.count != rows[0].count {
                    throw error("this table row has \(rows.last!.count) cells, the first has \(rows[0].count)")
                }
                index += 1
                // Comments and blank lines between rows belong to the table (Cucumber's rule).
                var ahead = index
                while ahead < lines.count, lines[ahead].trimmingSpaces().isEmpty || lines[ahead].trimmingSpaces().hasPrefix("#") { ahead += 1 }
                if ahead < lines.count, lines[ahead].trimmingSpaces().hasPrefix("|") { index = ahead }
            }
            var table = GherkinDocument.DataTable(rows: rows, line: line)
            table.rowPositions = positions
            return table
        }

        /// Where each cell's value starts in a table row as written (1-based; after the spaces that follow its `|`).
        static func cellColumns(_ raw: String) -> [Int] {
            var columns: [Int] = []
            var position = 0
            var escaped = false
            var cellStart: Int?
            var seenFirstPipe = false
            var characters = Array(raw)
            while characters.last == " " || characters.last == "\t" { characters.removeLast() }
            for character in characters {
                position += 1
                if escaped { escaped = false; continue }
                if character == "\\" { escaped = true; if cellStart == nil && seenFirstPipe { cellStart = position }; continue }
                if character == "|" {
                    if seenFirstPipe { columns.append(cellStart ?? position) }
                    seenFirstPipe = true
                    cellStart = nil
                } else if seenFirstPipe, cellStart == nil, character != " ", character != "\t" {
                    cellStart = position
                }
            }
            return columns
        }

        static func cells(_ text: String) -> [String] {
            var cells: [String] = []
            var cell = ""
            var escaped = false
            for character in text {
                if escaped {
                    switch character {
                    case "n": cell.append("\n")
                    case "|": cell.append("|")
                    case "\\": cell.append("\\")
                    default: cell.append("\\"); cell.append(character)
                    }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "|" {
                    cells.append(cell.trimmingSpaces())
                    cell = ""
                } else {
                    cell.append(character)
                }
            }
            cells.append(cell.trimmingSpaces())
            return cells
        }

        mutating func docStringIfPresent() throws(GherkinError) -> GherkinDocument.DocString? {
            guard let first = current, first.hasPrefix("\"\"\"") || first.hasPrefix("```") else { return nil }
            let fence = first.hasPrefix("\"\"\"") ? "\"\"\"" : "```"
            let mediaType = String(first.dropFirst(3)).trimmingSpaces()
            let line = index + 1
            let startColumn = column(index)
            let indent = lines[index].prefix { $0 == " " || $0 == "\t" }.count
            index += 1
            var content: [String] = []
            while index < lines.count {
                let raw = lines[index]
                if raw.trimmingSpaces() == fence {
                    index += 1
                    var docString = GherkinDocument.DocString(content: content.joined(separator: "\n"), mediaType: mediaType.isEmpty ? nil : mediaType, line: line)
                    docString.column = startColumn
                    docString.delimiter = fence
                    return docString
                }
                notComments.insert(index + 1)
                // Remove the fence's indentation from each line (never more than the line has).
                var dropped = 0
                var text = Substring(raw)
                while dropped < indent, let character = text.first, character == " " || character == "\t" {
                    text = text.dropFirst()
                    dropped += 1
                }
                // An escaped delimiter (\"\"\" or \`\`\`) is the delimiter itself, as in Cucumber.
                let escaped = fence.map { "\\" + String($0) }.joined()
                content.append(String(text).replacingOccurrences(of: escaped, with: fence))
                index += 1
            }
            throw error("unterminated doc string (no closing \(fence))", line: line)
        }
    }
}
