import AutomationSupport
import MockServer
import ProcessEngine

/// Cucumber Messages (NDJSON, one envelope per line): what Cucumber's HTML formatter and report tools read.
/// `source`, `gherkinDocument` and `pickle` follow the shapes cucumber/gherkin writes (ids included: they are
/// numbered as its parser numbers them, children before their parents); `parseError` for a file that does not
/// parse; then the run: `testRunStarted`, per scenario `testCase`, `testCaseStarted`, `testStepStarted` /
/// `testStepFinished` per step, `testCaseFinished`, and `testRunFinished`.
package struct CucumberMessages {
    private var nextId = 0
    /// The envelopes so far, one JSON object each.
    var lines: [String] = []
    /// Pickle ids by pickle location (`uri:line`), for the run's test cases.
    private(set) var pickleIds: [String: (id: String, stepIds: [String], texts: [String])] = [:]
    /// The stepDefinition ids written, by what they are: `catalog:N` (the N-th built-in step) or a user step's pattern.
    var definitionIds: [String: String] = [:]
    /// The id of the After hook that stands for the mock server's end-of-scenario checks.
    var mockServerHookId: String?
    /// The ids of the users' hooks, by where they are defined (``Hook/source``).
    var hookIds: [String: String] = [:]

    /// No envelope yet.
    package init() {}

    mutating func id() -> String {
        defer { nextId += 1 }
        return String(nextId)
    }

    /// Writes the envelopes to `path` (`--messages`), one per line; says so on stderr when it cannot.
    /// - Returns: false when the file could not be written (the command then exits ``ExitCode/ioError``).
    package func write(to path: String) -> Bool {
        if let problem = OutputFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path) {
            Console.error("--messages \(path): cannot write the messages: \(problem) (exit \(ExitCode.ioError))")
            return false
        }
        Console.warnIfDisplaced("--messages", path)
        return true
    }

    mutating func meta(version: String) {
        lines.append(
            #"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"sut-launch","version":"\#(version)"},"runtime":{"name":"swift"},"os":{"name":"linux"},"cpu":{"name":"x86_64"}}}"#
        )
    }

    mutating func source(uri: String, text: String) {
        lines.append(
            "{\"source\":{\"uri\":" + JSONWriter.quoted(uri) + ",\"data\":" + JSONWriter.quoted(text)
                + ",\"mediaType\":\"text/x.cucumber.gherkin+plain\"}}")
    }

    mutating func parseError(uri: String, _ error: GherkinError) {
        lines.append(
            "{\"parseError\":{\"source\":{\"uri\":" + JSONWriter.quoted(uri) + ",\"location\":{\"line\":\(error.line ?? 1)}},\"message\":"
                + JSONWriter.quoted(error.description) + "}}")
    }

    // MARK: The document

    /// Ids of the AST nodes a pickle refers to, by line (and tags by line and column).
    private struct NodeIds {
        var scenarios: [Int: String] = [:]
        var steps: [Int: String] = [:]
        var rows: [Int: String] = [:]
        var tags: [String: String] = [:] // "line:column"
    }

    mutating func document(_ document: GherkinDocument, pickles: [Pickle]) {
        var nodes = NodeIds()
        var json = "{\"gherkinDocument\":{\"uri\":" + JSONWriter.quoted(document.uri)
        if let feature = document.feature {
            var children: [String] = []
            if let background = feature.background { children.append("{\"background\":" + self.background(background, &nodes) + "}") }
            for scenario in feature.scenarios { children.append("{\"scenario\":" + self.scenario(scenario, &nodes) + "}") }
            for rule in feature.rules { children.append("{\"rule\":" + self.rule(rule, &nodes) + "}") }
            let tags = self.tags(feature.tags, &nodes)
            json +=
                ",\"feature\":{\"location\":" + location(feature.line, feature.column) + ",\"tags\":" + tags
                + ",\"language\":" + JSONWriter.quoted(document.language) + ",\"keyword\":" + JSONWriter.quoted(feature.keyword)
                + ",\"name\":" + JSONWriter.quoted(feature.name) + ",\"description\":" + JSONWriter.quoted(feature.rawDescription)
                + ",\"children\":[" + children.joined(separator: ",") + "]}"
        }
        json +=
            ",\"comments\":["
            + document.comments.map {
                "{\"location\":" + location($0.line, 1) + ",\"text\":" + JSONWriter.quoted($0.text) + "}"
            }.joined(separator: ",") + "]}}"
        lines.append(json)
        for pickle in pickles { self.pickle(pickle, document: document, nodes: nodes) }
    }

    private func location(_ line: Int, _ column: Int) -> String { "{\"line\":\(line),\"column\":\(column)}" }

    private mutating func tags(_ tags: [GherkinDocument.Tag], _ nodes: inout NodeIds) -> String {
        "["
            + tags.map { tag in
                let tagId = id()
                nodes.tags["\(tag.line):\(tag.column)"] = tagId
                return "{\"location\":" + location(tag.line, tag.column) + ",\"name\":" + JSONWriter.quoted(tag.name) + ",\"id\":"
                    + JSONWriter.quoted(tagId) + "}"
            }.joined(separator: ",") + "]"
    }

    private mutating func rows(_ table: GherkinDocument.DataTable, _ indices: Range<Int>, _ nodes: inout NodeIds) -> [String] {
        indices.clamped(to: table.rows.indices).map { index in
            let position = table.rowPositions[index]
            let rowId = id()
            nodes.rows[position.line] = rowId
            let cells = zip(
                table.rows[index],
                position.cellColumns + Array(repeating: 1, count: max(0, table.rows[index].count - position.cellColumns.count))
            )
            .map { "{\"location\":" + location(position.line, $1) + ",\"value\":" + JSONWriter.quoted($0) + "}" }
            return "{\"id\":" + JSONWriter.quoted(rowId) + ",\"location\":" + location(position.line, position.column) + ",\"cells\":["
                + cells.joined(separator: ",") + "]}"
        }
    }

    private mutating func step(_ step: GherkinDocument.Step, _ nodes: inout NodeIds) -> String {
        var json =
            "{\"location\":" + location(step.line, step.column) + ",\"keyword\":" + JSONWriter.quoted(step.keyword)
            + ",\"keywordType\":" + JSONWriter.quoted(step.keywordType) + ",\"text\":" + JSONWriter.quoted(step.text)
        if let table = step.dataTable {
            json +=
                ",\"dataTable\":{\"location\":" + location(table.line, table.rowPositions.first?.column ?? 1)
                + ",\"rows\":[" + rows(table, table.rows.indices, &nodes).joined(separator: ",") + "]}"
        }
        if let doc = step.docString {
            json +=
                ",\"docString\":{\"location\":" + location(doc.line, doc.column) + ",\"content\":" + JSONWriter.quoted(doc.content)
                + ",\"delimiter\":" + JSONWriter.quoted(doc.delimiter)
                + (doc.mediaType.map { ",\"mediaType\":" + JSONWriter.quoted($0) } ?? "") + "}"
        }
        let stepId = id()
        nodes.steps[step.line] = stepId
        return json + ",\"id\":" + JSONWriter.quoted(stepId) + "}"
    }

    private mutating func background(_ background: GherkinDocument.Background, _ nodes: inout NodeIds) -> String {
        let steps = background.steps.map { step($0, &nodes) }
        return "{\"location\":" + location(background.line, background.column) + ",\"keyword\":" + JSONWriter.quoted(background.keyword)
            + ",\"name\":" + JSONWriter.quoted(background.name) + ",\"description\":" + JSONWriter.quoted(background.description)
            + ",\"steps\":[" + steps.joined(separator: ",") + "],\"id\":" + JSONWriter.quoted(id()) + "}"
    }

    private mutating func scenario(_ scenario: GherkinDocument.Scenario, _ nodes: inout NodeIds) -> String {
        let steps = scenario.steps.map { step($0, &nodes) }
        let examples = scenario.examples.map { examples -> String in
            let table = examples.table
            let header = table.map { rows($0, 0..<1, &nodes).first ?? "" }
            let body = table.map { rows($0, 1..<$0.rows.count, &nodes) } ?? []
            let tags = self.tags(examples.tags, &nodes)
            return "{\"location\":" + location(examples.line, examples.column) + ",\"tags\":" + tags + ",\"keyword\":"
                + JSONWriter.quoted(examples.keyword)
                + ",\"name\":" + JSONWriter.quoted(examples.name) + ",\"description\":" + JSONWriter.quoted(examples.description)
                + (header.map { ",\"tableHeader\":" + $0 } ?? "") + ",\"tableBody\":[" + body.joined(separator: ",") + "],\"id\":"
                + JSONWriter.quoted(id()) + "}"
        }
        let tags = self.tags(scenario.tags, &nodes)
        let scenarioId = id()
        nodes.scenarios[scenario.line] = scenarioId
        return "{\"location\":" + location(scenario.line, scenario.column) + ",\"tags\":" + tags + ",\"keyword\":"
            + JSONWriter.quoted(scenario.keyword)
            + ",\"name\":" + JSONWriter.quoted(scenario.name) + ",\"description\":" + JSONWriter.quoted(scenario.description)
            + ",\"steps\":[" + steps.joined(separator: ",") + "],\"examples\":[" + examples.joined(separator: ",") + "],\"id\":"
            + JSONWriter.quoted(scenarioId) + "}"
    }

    private mutating func rule(_ rule: GherkinDocument.Rule, _ nodes: inout NodeIds) -> String {
        var children: [String] = []
        if let background = rule.background { children.append("{\"background\":" + self.background(background, &nodes) + "}") }
        for scenario in rule.scenarios { children.append("{\"scenario\":" + self.scenario(scenario, &nodes) + "}") }
        let tags = self.tags(rule.tags, &nodes)
        return "{\"location\":" + location(rule.line, rule.column) + ",\"tags\":" + tags + ",\"keyword\":" + JSONWriter.quoted(rule.keyword)
            + ",\"name\":" + JSONWriter.quoted(rule.name) + ",\"description\":" + JSONWriter.quoted(rule.description)
            + ",\"children\":[" + children.joined(separator: ",") + "],\"id\":" + JSONWriter.quoted(id()) + "}"
    }

    // MARK: Pickles

    private mutating func pickle(_ pickle: Pickle, document: GherkinDocument, nodes: NodeIds) {
        let rowId = pickle.line != pickle.scenarioLine ? nodes.rows[pickle.line] : nil
        // Background steps come first; only the scenario's own steps point at the Examples row.
        let ownSteps = scenarioNode(pickle, document)?.steps.count ?? pickle.steps.count
        let backgroundSteps = pickle.steps.count - ownSteps
        var stepIds: [String] = []
        let steps = pickle.steps.enumerated().map { position, step -> String in
            let stepId = id()
            stepIds.append(stepId)
            let astIds = [nodes.steps[step.line], position >= backgroundSteps ? rowId : nil].compactMap { $0 }
            var json =
                "{\"astNodeIds\":[" + astIds.map(JSONWriter.quoted).joined(separator: ",") + "],\"id\":" + JSONWriter.quoted(stepId)
                + ",\"type\":" + JSONWriter.quoted(step.pickleType) + ",\"text\":" + JSONWriter.quoted(step.text)
            // With both a table and a doc string, each carries its place among the arguments (Cucumber's argumentIndex).
            let both = step.dataTable != nil && step.docString != nil
            let tableFirst = (step.dataTable?.line ?? 0) < (step.docString?.line ?? 0)
            var arguments: [String] = []
            if let table = step.dataTable {
                arguments.append(
                    "\"dataTable\":{\"rows\":["
                        + table.rows.map { row in
                            "{\"cells\":[" + row.map { "{\"value\":" + JSONWriter.quoted($0) + "}" }.joined(separator: ",") + "]}"
                        }.joined(separator: ",") + "]" + (both ? ",\"argumentIndex\":\(tableFirst ? 1 : 2)" : "") + "}")
            }
            if let doc = step.docString {
                arguments.append(
                    "\"docString\":{\"content\":" + JSONWriter.quoted(doc.content)
                        + (doc.mediaType.map { ",\"mediaType\":" + JSONWriter.quoted($0) } ?? "")
                        + (both ? ",\"argumentIndex\":\(tableFirst ? 2 : 1)" : "") + "}")
            }
            if !arguments.isEmpty { json += ",\"argument\":{" + arguments.joined(separator: ",") + "}" }
            return json + "}"
        }
        let pickleId = id()
        pickleIds[pickle.location] = (pickleId, stepIds, pickle.steps.map(\.text))
        let tags = pickleTags(pickle, document: document, nodes: nodes)
        let astIds = [nodes.scenarios[pickle.scenarioLine], rowId].compactMap { $0 }
        lines.append(
            "{\"pickle\":{\"id\":" + JSONWriter.quoted(pickleId) + ",\"uri\":" + JSONWriter.quoted(pickle.uri)
                + ",\"location\":" + location(pickle.line, pickleColumn(pickle, document)) + ",\"name\":"
                + JSONWriter.quoted(pickle.specName)
                + ",\"language\":" + JSONWriter.quoted(document.language) + ",\"steps\":[" + steps.joined(separator: ",") + "],\"tags\":"
                + tags
                + ",\"astNodeIds\":[" + astIds.map(JSONWriter.quoted).joined(separator: ",") + "]}}")
    }

    /// The pickle's tags with the AST tag each comes from (feature, rule, scenario, then examples tags).
    private func pickleTags(_ pickle: Pickle, document: GherkinDocument, nodes: NodeIds) -> String {
        guard let feature = document.feature else { return "[]" }
        let scenarios = feature.scenarios + feature.rules.flatMap(\.scenarios)
        guard let scenario = scenarios.first(where: { $0.line == pickle.scenarioLine }) else { return "[]" }
        let rule = feature.rules.first { $0.scenarios.contains { $0.line == scenario.line } }
        let examples = scenario.examples.first { $0.rows.contains { $0.line == pickle.line } }
        let all = feature.tags + (rule?.tags ?? []) + scenario.tags + (examples?.tags ?? [])
        return "["
            + all.map { tag in
                "{\"name\":" + JSONWriter.quoted(tag.name) + ",\"astNodeId\":"
                    + JSONWriter.quoted(nodes.tags["\(tag.line):\(tag.column)"] ?? "") + "}"
            }.joined(separator: ",") + "]"
    }

    private func scenarioNode(_ pickle: Pickle, _ document: GherkinDocument) -> GherkinDocument.Scenario? {
        guard let feature = document.feature else { return nil }
        return (feature.scenarios + feature.rules.flatMap(\.scenarios)).first { $0.line == pickle.scenarioLine }
    }

    private func pickleColumn(_ pickle: Pickle, _ document: GherkinDocument) -> Int {
        guard let feature = document.feature else { return 1 }
        let scenarios = feature.scenarios + feature.rules.flatMap(\.scenarios)
        guard let scenario = scenarios.first(where: { $0.line == pickle.scenarioLine }) else { return 1 }
        if pickle.line == scenario.line { return scenario.column }
        for examples in scenario.examples {
            if let index = examples.table?.rowPositions.firstIndex(where: { $0.line == pickle.line }) {
                return examples.table!.rowPositions[index].column
            }
        }
        return 1
    }
}
