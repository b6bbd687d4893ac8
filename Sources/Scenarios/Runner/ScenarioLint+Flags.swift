import AutomationSupport

/// Feature and automation flags (and environment variables) in steps, checked when a file loads (`check`, `test`,
/// `--dry-run`): a key a scenario sets twice, and a flags table whose rows are not `| key | value |`. A repeated key once took the last value without
/// a word; a row of one or three cells was found only when the scenario ran.
extension ScenarioLint {
    /// `file:line: …` per problem in `pickle`'s flag steps (its Background's included).
    static func flagProblems(_ pickle: Pickle) -> [String] {
        var problems: [String] = []
        var first: [String: Int] = [:] // "feature flag \"a\"" → the line that set it
        for step in pickle.steps {
            guard let kind = flagKind(step.text) else { continue }
            var keys: [(key: String, line: Int)] = []
            if let table = step.dataTable {
                for (index, row) in table.rows.enumerated() {
                    let line = index < table.rowPositions.count ? table.rowPositions[index].line : table.line + index
                    if index == 0 && row.map({ $0.lowercased() }) == ["key", "value"] { continue }
                    guard row.count == 2 else {
                        problems.append(
                            "\(pickle.uri):\(line): each row of a flags table is | key | value |; this one has \(row.count) cell\(row.count == 1 ? "" : "s")"
                        )
                        continue
                    }
                    keys.append((row[0], line))
                }
            } else if let (_, captures) = StepCatalog.find(step.text), let key = captures.first {
                keys.append((key, step.line))
            }
            for (key, line) in keys {
                let name = "\(kind) \"\(key.escapingControlCharacters())\""
                if let earlier = first[name] {
                    problems.append(
                        "\(pickle.uri):\(line): the \(name) is set twice, at lines \(earlier) and \(line): the last would silently win; keep one"
                    )
                } else {
                    first[name] = line
                }
            }
        }
        return problems
    }

    /// "feature flag", "automation flag" or "environment variable" for a step that sets one, else nil.
    static func flagKind(_ text: String) -> String? {
        if StepVariables.environmentStepName(text) != nil { return "environment variable" }
        for kind in ["feature flag", "automation flag"] where text.hasPrefix("the \(kind) \"") || text == "the \(kind)s:" {
            return kind
        }
        return nil
    }
}
