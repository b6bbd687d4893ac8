import AutomationSupport

extension ScenarioLint {
    /// A data table or doc string under a built-in step that does not take it, found at load: the step would never
    /// read it (`Then I see "hello"` over `| goodbye |` passed), and Cucumber refuses such an arity mismatch.
    /// User steps take both (on stdin), so only catalog steps are checked.
    static func argumentProblem(_ definition: StepDefinition, _ step: GherkinDocument.Step, captures: [String], uri: String) -> String? {
        if let problem = bodilessStatusProblem(definition, step, captures: captures, uri: uri) { return problem }
        let takes: String
        switch definition.argument {
        case .none: takes = "takes no doc string or data table"
        case .docString, .optionalDocString: takes = "takes a doc string (\"\"\"), not a data table"
        case .table: takes = "takes a data table (| key | value |), not a doc string"
        }
        let found: (what: String, line: Int)
        if let table = step.dataTable, definition.argument != .table {
            found = ("a data table", table.line)
        } else if let docString = step.docString, definition.argument == .none || definition.argument == .table {
            found = ("a doc string", docString.line)
        } else {
            return nil
        }
        let text = step.text.count > 60 ? step.text.prefix(60) + "…" : step.text
        return "\(uri):\(found.line): \(found.what) under the step \"\(step.keyword)\(text)\" (line \(step.line)), which \(takes):"
            + " it would never be read; remove it or use a step that takes it (`sut-launch help steps`)"
    }

    /// A doc string under `Given the route … answers 204` (205, 304): such a response carries no content (RFC 9110
    /// §15.3.5, §15.3.6, §15.4.5), so the body would never be served; refused as any argument a step would not read.
    private static func bodilessStatusProblem(
        _ definition: StepDefinition, _ step: GherkinDocument.Step, captures: [String], uri: String
    ) -> String? {
        guard definition.argument == .optionalDocString, definition.source.hasPrefix("the route "), captures.count > 2,
            let status = Int(captures[2]), [204, 205, 304].contains(status), let docString = step.docString
        else { return nil }
        let text = step.text.count > 60 ? step.text.prefix(60) + "…" : step.text
        return
            "\(uri):\(docString.line): a doc string under the step \"\(step.keyword)\(text)\" (line \(step.line)), whose status \(status)"
            + " carries no body: it would never be served; remove it, or answer 200 with it"
    }

    /// A JSON doc string (`… answers 200 with JSON:`, `… with JSON body:`) that is not JSON (a syntax error, a
    /// duplicate key, `1e400`), found at load as `check` promises, with each `${NAME}` standing as a value read as
    /// `null` (its value is checked when the step runs); an expected body that names no value or a number a Double
    /// cannot keep.
    static func jsonDocStringProblems(_ definition: StepDefinition, _ captures: [String], _ step: GherkinDocument.Step) -> [String] {
        guard let text = step.docString?.content else { return [] }
        switch definition.docString {
        case .expectedJSON: break
        case .jsonWhen(let index) where index < captures.count && !captures[index].isEmpty: break
        default: return []
        }
        if let problem = StepVariables.jsonDocumentProblem(text) { return [problem] }
        guard definition.docString == .expectedJSON else { return [] }
        let document = StepVariables.documentForCheck(text)
        guard let node = try? JSONParser.parse(document) else { return [] }
        return [StepCatalog.vacuousJSONProblem(node) ?? StepCatalog.inexactJSONProblem(document)].compactMap { $0 }
    }
}
