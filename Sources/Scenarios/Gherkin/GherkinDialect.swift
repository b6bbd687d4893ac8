import AutomationSupport

/// The keywords of one Gherkin language (`# language: it` on the first lines selects it; English otherwise).
struct GherkinDialect: Sendable {
    let name: String
    let feature: [String]
    let background: [String]
    let rule: [String]
    let scenario: [String]
    let scenarioOutline: [String]
    let examples: [String]
    let given: [String]
    let when: [String]
    let then: [String]
    let and: [String]
    let but: [String]

    static var english: GherkinDialect { all["en"]! }

    /// Step keywords (with their trailing space where the language has one), longest first, with the step kind
    /// each gives: "Given", "When", "Then", or nil for And / But / `*` (the previous step's kind).
    var stepKeywords: [(keyword: String, kind: String?)] {
        var result: [(String, String?)] = []
        for (words, kind) in [(given, "Given"), (when, "When"), (then, "Then"), (and, nil), (but, nil)] as [([String], String?)] {
            for word in words where !result.contains(where: { $0.0 == word }) {
                result.append((word, word == "* " ? nil : kind))
            }
        }
        return result.sorted { $0.0.count > $1.0.count }
    }

    /// The dialect a `# language: xx` comment names, or nil; ``problem(naming:)`` says why, with the nearest code.
    static func named(_ code: String) -> GherkinDialect? { all[code] }

    static func problem(naming code: String) -> String {
        let suggestion = Suggestion.nearest(to: code, among: Array(all.keys)).map { "; did you mean \"\($0)\"?" } ?? ""
        return "unknown language \"\(code)\" in \"# language:\"\(suggestion) (\(all.count) are known: Gherkin's list)"
    }
}
