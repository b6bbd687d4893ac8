import AutomationSupport
import MockServer

/// Parses Gherkin: Feature, Background, Rule, Scenario / Example, Scenario Outline / Template with Examples /
/// Scenarios, Given/When/Then/And/But/`*` steps, doc strings (`"""` or ``` ``` ```), data tables, tags and
/// comments, in any of the 80 languages of Gherkin's keyword list (`# language: it` before the Feature line).
/// It reads lines as Cucumber's reference parser does (GherkinLine) and gives its pickles for every file of
/// Cucumber's conformance corpus (Tests/ScenariosTests/Gherkin/testdata). Its work is linear in the file.
package enum GherkinParser {
    static let stepKeywords = ["Given ", "When ", "Then ", "And ", "But ", "* "]

    /// - Throws: ``GherkinError`` with the file, the line and what was expected there.
    package static func parse(_ text: String, uri: String) throws(GherkinError) -> GherkinDocument {
        // A UTF-8 byte order mark (editors on Windows write one) is not part of the first line (Cucumber-JS and
        // Cucumber-JVM read past it too; the Python parser does not).
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(Substring(text.unicodeScalars.dropFirst())) : text
        let (lines, loneCR) = GherkinLine.lines(of: text)
        var parser = Parser(lines: lines, uri: uri)
        if let loneCR {
            parser.warn(
                "a carriage return (CR) inside a line: Cucumber ends lines at LF only, so text after a lone CR stays on its line",
                line: loneCR + 1)
        }
        return try parser.document()
    }

    struct Parser {
        let lines: [GherkinLine]
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
        /// The pickle type the Backgrounds in scope end with: an `And` first in a scenario takes it, as Cucumber's
        /// compiler types a pickle's steps in one run from the Background's first to the scenario's last.
        var backgroundType = "Unknown"

        init(lines: [GherkinLine], uri: String) {
            self.lines = lines
            self.uri = uri
        }

        /// Every comment line as written (not the `# language:` line, not `#` lines inside doc strings).
        func comments() -> [(line: Int, text: String)] {
            lines.indices.compactMap { number in
                lines[number].isComment && !notComments.contains(number + 1) ? (number + 1, String(lines[number].raw)) : nil
            }
        }

        /// The 1-based column of the first character that is not blank on line `lineIndex` (0-based).
        func column(_ lineIndex: Int) -> Int { lineIndex < lines.count ? lines[lineIndex].indent + 1 : 1 }

        mutating func warn(_ message: @autoclosure () -> String, line: Int? = nil) {
            if warnings.count < 1_000 { warnings.append("\(uri):\(line ?? index + 1): \(message())") }
        }

        /// `# language: xx` among the comments and blank lines before anything else selects the keywords
        /// (Cucumber's `^\s*#\s*language\s*:\s*([a-zA-Z\-_]+)\s*$`).
        mutating func readLanguage() throws(GherkinError) {
            for (number, line) in lines.enumerated() {
                if line.isEmpty { continue }
                guard line.isComment else { return }
                let comment = GherkinLine.trimmed(line.text.dropFirst())
                guard comment.hasPrefix("language") else { continue }
                let afterWord = GherkinLine.trimmed(comment.dropFirst("language".count))
                guard afterWord.hasPrefix(":") else { continue }
                let code = String(GherkinLine.trimmed(afterWord.dropFirst()))
                guard !code.isEmpty,
                    code.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (65...90).contains($0 & 0xDF) })
                else {
                    continue
                }
                guard let found = GherkinDialect.named(code) else { throw error(GherkinDialect.problem(naming: code), line: number + 1) }
                notComments.insert(number + 1)
                languageCode = code
                dialect = found
                stepKeywords = found.stepKeywords
                return
            }
        }

        func error(_ message: String, line: Int? = nil) -> GherkinError {
            GherkinError(file: uri, line: line ?? index + 1, message)
        }

        /// The line being read (nil at the end of the file).
        var current: GherkinLine? { index < lines.count ? lines[index] : nil }

        /// Skips blank lines and comments; collects tag lines into `pendingTags`.
        mutating func skipTrivia() throws(GherkinError) {
            while let line = current {
                if line.isEmpty || line.isComment {
                    index += 1
                } else if line.isTags {
                    let (tags, problem) = line.tags()
                    if let problem { throw error("\(problem.message) (column \(problem.column))") }
                    pendingTags += tags.map { GherkinDocument.Tag(name: $0.name, line: index + 1, column: $0.column) }
                    index += 1
                } else {
                    return
                }
            }
        }

        mutating func takeTags() -> [GherkinDocument.Tag] {
            defer { pendingTags = [] }
            return pendingTags
        }

        /// The title keyword (`Scenario:`) the line starts with, and the title after it.
        static func keyword(_ line: GherkinLine, _ candidates: [String]) -> (keyword: String, rest: String)? {
            for candidate in candidates where line.body.hasPrefix(candidate) && line.body.dropFirst(candidate.count).hasPrefix(":") {
                return (candidate, line.rest(after: candidate + ":"))
            }
            return nil
        }

        /// At the end of the file with tags read: they belong to nothing (the reference says so at the end of the file).
        func orphanTags() -> GherkinError {
            error("unexpected end of file: the tags on line \(pendingTags[0].line) belong to nothing", line: lines.count + 1)
        }

        mutating func document() throws(GherkinError) -> GherkinDocument {
            var document = GherkinDocument(uri: uri)
            try readLanguage()
            try skipTrivia()
            guard let line = current else {
                if !pendingTags.isEmpty { throw orphanTags() }
                document.warnings = warnings
                document.language = languageCode
                document.comments = comments()
                return document
            }
            guard let (featureKeyword, name) = Self.keyword(line, dialect.feature) else {
                throw error("expected \"\(dialect.feature[0]):\", found \"\(line.text.prefix(40))\"")
            }
            var feature = GherkinDocument.Feature(
                name: name, description: "", tags: takeTags(), line: index + 1,
                background: nil, scenarios: [], rules: [])
            feature.keyword = featureKeyword
            feature.column = column(index)
            index += 1
            // Under a Feature or a Rule no step can come: a step line there is description text, as in Cucumber.
            feature.description = try readDescription(
                ending: dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.rule)
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
                    backgroundType = feature.background?.steps.last?.pickleType ?? backgroundType
                } else if let (keyword, name) = Self.keyword(line, dialect.rule) {
                    feature.rules.append(try rule(name, keyword: keyword))
                } else if let scenario = try scenarioIfPresent(line) {
                    if !feature.rules.isEmpty { throw error("a Scenario after a Rule belongs in a Rule", line: scenario.line) }
                    feature.scenarios.append(scenario)
                } else {
                    throw unexpected(line, expected: "Scenario, Scenario Outline, Background, Rule or a tag")
                }
            }
            if !pendingTags.isEmpty { throw orphanTags() }
            document.feature = feature
            document.warnings = warnings
            document.language = languageCode
            document.comments = comments()
            return document
        }

        func unexpected(_ line: GherkinLine, expected: String) -> GherkinError {
            var hint = ""
            let word = String(line.text.prefix(60).prefix { $0 != " " && $0 != ":" })
            let keywords =
                dialect.feature + dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.rule + dialect.examples
                + stepKeywords.map { $0.keyword.trimmingSpaces() }.filter { $0 != "*" }
            if let match = Suggestion.nearest(to: word, among: keywords), match != word { hint = "; did you mean \"\(match)\"?" }
            return error("expected \(expected), found \"\(line.text.prefix(60))\"\(hint)")
        }

        /// Free text under a Feature, Rule, Background, Scenario or Examples line, up to a tag line, a line starting
        /// with one of the title keywords `ending`, and (where `stepsEnd`) a step or (where `tablesEnd`) a table row:
        /// the tokens Cucumber's grammar expects there; every other line is text. A line that looks like a misspelt
        /// keyword ("Scenaro: x") is said in a warning: what follows it is description too.
        mutating func readDescription(ending: [String], stepsEnd: Bool = false, tablesEnd: Bool = false) throws(GherkinError) -> String {
            var text: [Substring] = []
            var raw: [Substring] = []
            let keywords =
                dialect.feature + dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.examples + dialect.rule
            while let line = current, !line.isTags, !(tablesEnd && line.isRow),
                !(stepsEnd && stepKeywords.contains(where: { line.body.hasPrefix($0.keyword) })), Self.keyword(line, ending) == nil
            {
                if warnings.count < 1_000 { lint(line, keywords: keywords, stepsEnd: stepsEnd) }
                if !line.isComment {
                    text.append(line.text)
                    raw.append(line.raw)
                }
                index += 1
            }
            while text.last?.isEmpty == true { text.removeLast() }
            while let last = raw.last, GherkinLine(last).isEmpty { raw.removeLast() }
            lastRawDescription = raw.joined(separator: "\n")
            return text.joined(separator: "\n")
        }

        /// Says why a description line is probably not what its author meant.
        mutating func lint(_ line: GherkinLine, keywords: [String], stepsEnd: Bool) {
            let head = line.text.prefix(21)
            if let colon = head.firstIndex(of: ":"), let match = Suggestion.nearest(to: String(head[..<colon]), among: keywords) {
                // Cucumber reads it as description text, so the file stays valid; but what follows is lost.
                warn(
                    "\"\(head[..<colon]):\" is not a keyword, so this line and its steps are description text; did you mean \"\(match):\"?")
            } else if line.isRow {
                warn("this table belongs to no step: Cucumber reads it as description text")
            } else if stepsEnd,
                let keyword = stepKeywords.first(where: { keyword in
                    let word = keyword.keyword.trimmingSpaces()
                    return word != "*" && line.body.hasPrefix(word)
                        && line.body.dropFirst(word.count).unicodeScalars.first.map(GherkinLine.isBlank) == true
                })
            {
                warn(
                    "\"\(keyword.keyword.trimmingSpaces())\" is followed by a tab or a Unicode space, not a plain space: Cucumber reads this line as description text, not a step"
                )
            }
        }

        mutating func background(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Background {
            let line = index + 1
            let startColumn = column(index)
            index += 1
            _ = try readDescription(ending: dialect.scenario + dialect.scenarioOutline + dialect.rule, stepsEnd: true)
            var background = GherkinDocument.Background(name: name, line: line, steps: [])
            background.keyword = keyword
            background.column = startColumn
            background.description = lastRawDescription
            background.steps = try steps(after: backgroundType)
            return background
        }

        mutating func rule(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Rule {
            var rule = GherkinDocument.Rule(name: name, tags: takeTags(), line: index + 1, background: nil, scenarios: [])
            rule.keyword = keyword
            rule.column = column(index)
            index += 1
            _ = try readDescription(ending: dialect.background + dialect.scenario + dialect.scenarioOutline + dialect.rule)
            rule.description = lastRawDescription
            let featureType = backgroundType
            defer { backgroundType = featureType }
            while true {
                try skipTrivia()
                guard let line = current else { break }
                if Self.keyword(line, dialect.rule) != nil { break }
                if let (keyword, name) = Self.keyword(line, dialect.background) {
                    guard rule.background == nil, rule.scenarios.isEmpty else {
                        throw error("Background must come before the first Scenario, once")
                    }
                    // As at Feature level (and as the reference refuses it): the tags would move to the first Scenario.
                    if !pendingTags.isEmpty { throw error("a Background cannot have tags") }
                    rule.background = try background(name, keyword: keyword)
                    backgroundType = rule.background?.steps.last?.pickleType ?? backgroundType
                } else if let scenario = try scenarioIfPresent(line) {
                    rule.scenarios.append(scenario)
                } else {
                    throw unexpected(line, expected: "Scenario, Background, Rule or a tag")
                }
            }
            return rule
        }

        mutating func scenarioIfPresent(_ line: GherkinLine) throws(GherkinError) -> GherkinDocument.Scenario? {
            let candidates = (dialect.scenarioOutline + dialect.scenario).sorted { $0.count > $1.count }
            guard let (keyword, name) = Self.keyword(line, candidates) else { return nil }
            var scenario = GherkinDocument.Scenario(
                keyword: keyword, name: name, tags: takeTags(), line: index + 1, steps: [], examples: [])
            scenario.declaredOutline = dialect.scenarioOutline.contains(keyword)
            scenario.column = column(index)
            index += 1
            _ = try readDescription(ending: dialect.examples + dialect.scenario + dialect.scenarioOutline + dialect.rule, stepsEnd: true)
            scenario.description = lastRawDescription
            scenario.steps = try steps(after: backgroundType)
            if scenario.steps.isEmpty {
                warn("\(keyword) \"\(name)\" has no steps: it passes without checking anything (as in Cucumber)", line: scenario.line)
            }
            while true {
                try skipTrivia()
                guard let line = current, let (examplesKeyword, examplesName) = Self.keyword(line, dialect.examples) else { break }
                scenario.examples.append(try examples(examplesName, keyword: examplesKeyword))
            }
            if scenario.isOutline && scenario.examples.isEmpty {
                warn(
                    "\(keyword) \"\(name)\" has no Examples: it runs once, with its <placeholders> as written (as in Cucumber)",
                    line: scenario.line)
            }
            if !pendingTags.isEmpty && current == nil { throw orphanTags() }
            return scenario
        }

        mutating func examples(_ name: String, keyword: String) throws(GherkinError) -> GherkinDocument.Examples {
            let line = index + 1
            let startColumn = column(index)
            let tags = takeTags()
            index += 1
            _ = try readDescription(ending: dialect.examples + dialect.scenario + dialect.scenarioOutline + dialect.rule, tablesEnd: true)
            let description = lastRawDescription
            while let next = current, next.isEmpty || next.isComment { index += 1 }
            let table = try tableIfPresent()
            if table == nil { warn("\(keyword) \"\(name)\" has no table, so it adds no scenario (as in Cucumber)", line: line) }
            let rows =
                table.map { table in table.rows.indices.dropFirst().map { (cells: table.rows[$0], line: table.rowPositions[$0].line) } }
                ?? []
            var examples = GherkinDocument.Examples(name: name, tags: tags, line: line, header: table?.rows.first ?? [], rows: rows)
            examples.keyword = keyword
            examples.column = startColumn
            examples.description = description
            examples.table = table
            return examples
        }
    }
}
