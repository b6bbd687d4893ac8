extension ScenarioLint {
    /// A data table or doc string under a built-in step that does not take it, found at load: the step would never
    /// read it (`Then I see "hello"` over `| goodbye |` passed), and Cucumber refuses such an arity mismatch.
    /// User steps take both (on stdin), so only catalog steps are checked.
    static func argumentProblem(_ definition: StepDefinition, _ step: GherkinDocument.Step, uri: String) -> String? {
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
}
