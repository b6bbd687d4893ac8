/// A Scenario Outline cut into literals and `<placeholder>`s once, for its Examples' header; each row fills it in
/// one pass. A value is never read again for placeholders (`<a>` whose value is `<b>` stays `<b>`), and a
/// placeholder named twice in the header takes the first column's value, as in Cucumber. A placeholder is `<`, a
/// name without `<` or `>`, then `>`.
struct OutlineTemplate {
    let name: Text
    let steps: [(step: GherkinDocument.Step, text: Text, mediaType: Text?, content: Text?, table: [[Text]]?)]

    init(_ scenario: GherkinDocument.Scenario, header: [String]) {
        var columns: [Substring: Int] = [:]
        for (index, name) in header.enumerated() where columns[Substring(name)] == nil { columns[Substring(name)] = index }
        name = Text(scenario.name, columns)
        steps = scenario.steps.map { step in
            (
                step, Text(step.text, columns), step.docString?.mediaType.map { Text($0, columns) },
                step.docString.map { Text($0.content, columns) },
                step.dataTable.map { $0.rows.map { $0.map { Text($0, columns) } } }
            )
        }
    }

    /// The steps with a row's values in place.
    func steps(_ values: [String]) -> [GherkinDocument.Step] {
        steps.map { template in
            var step = template.step
            step.text = template.text.filled(values)
            if let content = template.content { step.docString?.content = content.filled(values) }
            if let mediaType = template.mediaType { step.docString?.mediaType = mediaType.filled(values) }
            if let table = template.table, var dataTable = step.dataTable {
                dataTable.rows = table.map { $0.map { $0.filled(values) } }
                step.dataTable = dataTable
            }
            return step
        }
    }

    /// One text: literal pieces and column numbers, in order.
    struct Text {
        enum Piece {
            case literal(Substring)
            case column(Int)
        }

        let pieces: [Piece]

        init(_ text: String, _ columns: [Substring: Int]) {
            var pieces: [Piece] = []
            let utf8 = text.utf8
            var literalStart = utf8.startIndex
            var open: String.Index?
            var position = utf8.startIndex
            while position < utf8.endIndex {
                let byte = utf8[position]
                if byte == UInt8(ascii: "<") {
                    open = position
                } else if byte == UInt8(ascii: ">"), let start = open {
                    open = nil
                    let name = text[utf8.index(after: start)..<position]
                    if let column = columns[name] {
                        if literalStart < start { pieces.append(.literal(text[literalStart..<start])) }
                        pieces.append(.column(column))
                        literalStart = utf8.index(after: position)
                    }
                }
                position = utf8.index(after: position)
            }
            if literalStart < utf8.endIndex { pieces.append(.literal(text[literalStart...])) }
            self.pieces = pieces
        }

        func filled(_ values: [String]) -> String {
            var output = ""
            for piece in pieces {
                switch piece {
                case .literal(let text): output += text
                case .column(let index): output += index < values.count ? values[index] : ""
                }
            }
            return output
        }
    }
}
