import AutomationSupport

/// What an outline's Examples and placeholders say that its author rarely means, checked where `check` and `test`
/// load the files.
///
/// - A `<name>` in a step's text or a data table cell that no column of an Examples table fills is an error naming
///   the line and the placeholder: Cucumber leaves it as written, so `Then I do not see "<eror> failed"` would
///   check for a text no program prints and pass. Text meant with its angle brackets goes in a column's value
///   (a value is never filled again). In the outline's name or a doc string it is a warning (HTML or XML there
///   is ordinary).
/// - A column that nothing of the outline uses (name, steps, doc strings, tables) is a warning.
/// - An Examples table with a header and no rows adds no scenario: a warning, and one more when the outline is
///   left with no row at all (it vanishes from the run, as in Cucumber).
///
/// A placeholder is `<`, a name without `<`, `>` or a space at either end, then `>` (so `sort < in > out` is text).
enum OutlineLint {
    /// Errors and warnings, each `file:line: message`.
    static func check(_ document: GherkinDocument) -> (problems: [String], warnings: [String]) {
        guard let feature = document.feature else { return ([], []) }
        var problems: [String] = []
        var warnings: [String] = []
        for scenario in feature.scenarios + feature.rules.flatMap(\.scenarios) where !scenario.examples.isEmpty {
            check(scenario, uri: document.uri, problems: &problems, warnings: &warnings)
        }
        let everyScenario = feature.scenarios + feature.rules.flatMap(\.scenarios)
        problems += background(feature.background, outlines: everyScenario, uri: document.uri)
        for rule in feature.rules { problems += background(rule.background, outlines: rule.scenarios, uri: document.uri) }
        return (problems, warnings)
    }

    /// A `<name>` in a Background step (text or table cell) that names a column of an outline it runs before: Cucumber
    /// never fills a Background, so `Then I do not see "<kind>: disk"` would look for the brackets and pass. An error
    /// naming the line (fail closed), as for a placeholder naming no column; the step belongs in the outline.
    private static func background(
        _ background: GherkinDocument.Background?, outlines: [GherkinDocument.Scenario], uri: String
    ) -> [String] {
        guard let background else { return [] }
        var problems: [String] = []
        for step in background.steps {
            var texts = [(step.text, step.line)]
            if let table = step.dataTable {
                for (index, row) in table.rows.enumerated() {
                    let line = index < table.rowPositions.count ? table.rowPositions[index].line : table.line
                    texts += row.map { ($0, line) }
                }
            }
            var reported: Set<String> = []
            for (text, line) in texts {
                for name in placeholders(text) where reported.insert(name).inserted {
                    let key = ScalarKey(name)
                    guard let outline = outlines.first(where: { $0.examples.contains { $0.header.map(ScalarKey.init).contains(key) } })
                    else { continue }
                    problems.append(
                        "\(uri.escapingControlCharacters()):\(line): <\(name.prefix(60).escapingControlCharacters())> in a Background step "
                            + "is never filled (Cucumber fills only the outline's own steps), though the outline at line \(outline.line) "
                            + "has a column \"\(name.prefix(30).escapingControlCharacters())\": the step would use the text with its "
                            + "brackets; move the step into the outline, or put text meant with its brackets in a --define")
                }
            }
        }
        return problems
    }

    private static func check(
        _ scenario: GherkinDocument.Scenario, uri: String, problems: inout [String], warnings: inout [String]
    ) {
        let file = "\(uri.escapingControlCharacters())"
        var rows = 0
        var reported: Set<String> = []
        for examples in scenario.examples where examples.table != nil {
            rows += examples.rows.count
            let header = Set(examples.header.map(ScalarKey.init)) // code points, as OutlineTemplate fills them
            warnings += twiceNamedColumns(examples, file: file)
            var used: Set<ScalarKey> = []
            func scan(_ text: String, line: Int, strict: Bool) {
                for name in placeholders(text) {
                    if header.contains(ScalarKey(name)) {
                        used.insert(ScalarKey(name))
                        continue
                    }
                    guard reported.insert("\(line) \(name)").inserted else { continue }
                    let message =
                        "\(file):\(line): <\(name.prefix(60).escapingControlCharacters())> names no column of the Examples at line "
                        + "\(examples.line) (\(examples.header.map { String($0.prefix(30)) }.joined(separator: ", ")))"
                        + "\(name.normalizationNote(among: examples.header)); "
                        + (strict
                            ? "it would stay as written (as in Cucumber); fix the name, or put text meant with its brackets in a column's value"
                            : "it stays as written (as in Cucumber)")
                    if strict { problems.append(message) } else { warnings.append(message) }
                }
            }
            scan(scenario.name, line: scenario.line, strict: false)
            // A value may hold a later column's placeholder (Cucumber fills column after column): that column is used.
            for row in examples.rows {
                for cell in row.cells { used.formUnion(placeholders(cell).map(ScalarKey.init).filter(header.contains)) }
            }
            for step in scenario.steps {
                scan(step.text, line: step.line, strict: true)
                if let table = step.dataTable {
                    for (index, row) in table.rows.enumerated() {
                        let line = index < table.rowPositions.count ? table.rowPositions[index].line : table.line
                        for cell in row { scan(cell, line: line, strict: true) }
                    }
                }
                if let docString = step.docString {
                    scan(docString.content, line: docString.line, strict: false)
                    if let mediaType = docString.mediaType { scan(mediaType, line: docString.line, strict: false) }
                }
            }
            let unused = examples.header.filter { !used.contains(ScalarKey($0)) && !$0.isEmpty }
            if !unused.isEmpty {
                warnings.append(
                    "\(file):\(examples.table?.line ?? examples.line): column\(unused.count == 1 ? "" : "s") "
                        + unused.prefix(5).map { "\"\($0.prefix(30).escapingControlCharacters())\"" }.joined(separator: ", ")
                        + " of \(examples.keyword) \"\(examples.name.prefix(40).escapingControlCharacters())\" fill\(unused.count == 1 ? "s" : "") no <placeholder> of the outline"
                )
            }
            if examples.rows.isEmpty {
                warnings.append(
                    "\(file):\(examples.line): \(examples.keyword) \"\(examples.name.prefix(40).escapingControlCharacters())\" has a header "
                        + "and no rows, so it adds no scenario (as in Cucumber)")
            }
        }
        if rows == 0 {
            warnings.append(
                "\(file):\(scenario.line): \(scenario.keyword) \"\(scenario.name.prefix(60).escapingControlCharacters())\" has no Examples "
                    + "row: it adds no scenario to the run (as in Cucumber)")
        }
    }

    /// A column named twice: the first fills its `<name>`, the second's values are never used (as in Cucumber).
    private static func twiceNamedColumns(_ examples: GherkinDocument.Examples, file: String) -> [String] {
        var seen: Set<ScalarKey> = []
        var reported: Set<ScalarKey> = []
        return examples.header.compactMap { name in
            guard !seen.insert(ScalarKey(name)).inserted, reported.insert(ScalarKey(name)).inserted else { return nil }
            return "\(file):\(examples.table?.line ?? examples.line): column \"\(name.prefix(30).escapingControlCharacters())\" of "
                + "\(examples.keyword) \"\(examples.name.prefix(40).escapingControlCharacters())\" is named twice: the first fills "
                + "<\(name.prefix(30).escapingControlCharacters())>, the second's values are never used (as in Cucumber); rename or remove it"
        }
    }

    /// The names of the `<name>` placeholders in `text`, in order.
    static func placeholders(_ text: String) -> [String] {
        var names: [String] = []
        OutlinePlaceholders.scan(text) { _, name in
            if let first = name.first, let last = name.last, !first.isWhitespace, !last.isWhitespace, !name.contains("\n") {
                names.append(String(name))
            }
            return true
        }
        return names
    }
}
