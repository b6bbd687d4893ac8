extension MessagesReader {
    /// A pickle step's argument as the feature file shows it: a doc string's content, or a data table's rows as
    /// `| a | b |` lines (a `|` or `\` in a cell escaped as Gherkin writes it); nil for neither. The HTML page shows it
    /// under its step (a failing `Then the output is:` without its expected text said little).
    static func argumentText<Value: JSONReading>(_ argument: Value) -> String? {
        if let content = argument["docString"]?["content"]?.string { return content }
        guard let table = argument["dataTable"] else { return nil }
        var lines: [String] = []
        for row in table.list("rows") {
            let cells = row.list("cells").map { cell in
                (cell["value"]?.string ?? "").replacing("\\", with: "\\\\").replacing("|", with: "\\|").replacing("\n", with: "\\n")
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
