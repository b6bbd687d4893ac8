import AutomationSupport

/// One runnable scenario: background steps plus the scenario's own, an outline row already substituted.
public struct Pickle: Sendable, Hashable {
    /// The feature file.
    public var uri: String
    /// The feature's name.
    public var featureName: String
    /// The name of the rule it is under, if any.
    public var ruleName: String?
    /// The scenario's name; an outline row's name gets the row's values, like "Login (user = ada)".
    public var name: String
    /// The name as the Gherkin specification names the pickle: placeholders replaced, no row label (Cucumber's).
    public var specName: String = ""
    /// Line of the scenario, or of the Examples row for an outline.
    public var line: Int
    /// Line of the Scenario (or Scenario Outline) keyword: `file.feature:LINE` selects every row of an outline.
    public var scenarioLine: Int = 0
    /// Feature, rule, scenario and examples tags, without duplicates.
    public var tags: [String]
    /// Background steps, then the scenario's own.
    package var steps: [GherkinDocument.Step]
    /// Why the pickle cannot be built as Cucumber builds it (an outline row whose values fill one another's
    /// placeholders past ``OutlineTemplate/growthLimit``): a load error naming the row.
    package var problem: String?
    /// An outline row's cell values (nil for a plain scenario): with ``specName`` and the steps, what tells one row
    /// from another when rows move (``RerunFile/Identity``).
    package var rowCells: [String]?

    /// `login.feature:12`.
    public var location: String { "\(uri):\(line)" }

    /// Compiles a document into pickles, in file order.
    package static func compile(_ document: GherkinDocument) -> [Pickle] {
        guard let feature = document.feature else { return [] }
        var result: [Pickle] = []
        let featureTags = feature.tags.map(\.name)
        let featureBackground = feature.background?.steps ?? []
        func add(_ scenario: GherkinDocument.Scenario, rule: GherkinDocument.Rule?) {
            // A scenario without steps gets no background steps either (Cucumber's compiler).
            let background = scenario.steps.isEmpty ? [] : featureBackground + (rule?.background?.steps ?? [])
            let baseTags = featureTags + (rule?.tags.map(\.name) ?? []) + scenario.tags.map(\.name)
            if scenario.examples.isEmpty {
                var pickle = Pickle(
                    uri: document.uri, featureName: feature.name, ruleName: rule?.name, name: scenario.name,
                    line: scenario.line, scenarioLine: scenario.line, tags: unique(baseTags), steps: background + scenario.steps)
                pickle.specName = scenario.name
                result.append(pickle)
                return
            }
            // Each text is cut into literals and placeholders once per outline, then filled per row: the work is
            // the size of what is written out, whatever the number of columns.
            for examples in scenario.examples where !examples.header.isEmpty {
                let outline = OutlineTemplate(scenario, header: examples.header)
                for row in examples.rows {
                    var tooLarge = false
                    let steps = outline.steps(row.cells, tooLarge: &tooLarge)
                    let label = zip(examples.header, row.cells).map { "\($0) = \($1)" }.joined(separator: ", ")
                    let name = outline.fill(outline.name, row.cells, &tooLarge)
                    var pickle = Pickle(
                        uri: document.uri, featureName: feature.name, ruleName: rule?.name,
                        name: name == scenario.name ? "\(name) (\(label))" : name, line: row.line, scenarioLine: scenario.line,
                        tags: unique(baseTags + examples.tags.map(\.name)), steps: background + steps)
                    pickle.specName = name
                    pickle.rowCells = row.cells
                    if tooLarge {
                        pickle.problem =
                            "\(document.uri):\(row.line): this Examples row's values fill placeholders in one another (Cucumber fills column after"
                            + " column) past \(OutlineTemplate.growthLimit >> 20) MiB in one text; write the values out"
                    }
                    result.append(pickle)
                }
            }
        }
        for scenario in feature.scenarios { add(scenario, rule: nil) }
        for rule in feature.rules {
            for scenario in rule.scenarios { add(scenario, rule: rule) }
        }
        return result
    }

    private static func unique(_ tags: [String]) -> [String] {
        var seen: Set<ScalarKey> = [] // code points: `@café` in NFC and in NFD are two tags, as in Cucumber
        return tags.filter { seen.insert(ScalarKey($0)).inserted }
    }
}
