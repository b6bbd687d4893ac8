import AutomationSupport

/// A Scenario Outline cut into literals and `<placeholder>`s once, for its Examples' header; each row fills it in
/// one pass. A placeholder named twice in the header takes the first column's value, as in Cucumber. A placeholder
/// is `<`, a name without `<` or `>`, then `>`.
///
/// Cucumber's compiler fills column after column, each in the text the columns before it left: a value holding a
/// later column's `<y>` (or making one with the text beside it) is filled too. When the one-pass result still holds
/// a placeholder of the header (or a header name holds `<` or `>`), the row is filled that way instead, up to
/// ``growthLimit`` bytes per text: past it the pickle is refused by name (``Pickle/problem``), never built.
struct OutlineTemplate {
    let name: Text
    let header: [String]
    /// Keyed by code points: a header `<café>` in NFC fills no `<café>` written in NFD (Cucumber's compiler neither).
    let columns: [ScalarKey: Int]
    /// A header name with `<` or `>`: only column-by-column filling finds its placeholders.
    let oddHeader: Bool
    /// The most bytes a text may reach when values fill placeholders of other values.
    static let growthLimit = 16 << 20
    let steps: [(step: GherkinDocument.Step, text: Text, mediaType: Text?, content: Text?, table: [[Text]]?)]

    init(_ scenario: GherkinDocument.Scenario, header: [String]) {
        var columns: [ScalarKey: Int] = [:]
        for (index, name) in header.enumerated() where columns[ScalarKey(name)] == nil { columns[ScalarKey(name)] = index }
        self.header = header
        self.columns = columns
        oddHeader = header.contains { $0.contains("<") || $0.contains(">") }
        name = Text(scenario.name, columns)
        steps = scenario.steps.map { step in
            (
                step, Text(step.text, columns), step.docString?.mediaType.map { Text($0, columns) },
                step.docString.map { Text($0.content, columns) },
                step.dataTable.map { $0.rows.map { $0.map { Text($0, columns) } } }
            )
        }
    }

    /// The steps with a row's values in place; `tooLarge` is set when a text outgrew ``growthLimit``.
    func steps(_ values: [String], tooLarge: inout Bool) -> [GherkinDocument.Step] {
        steps.map { template in
            var step = template.step
            step.text = fill(template.text, values, &tooLarge)
            if let content = template.content { step.docString?.content = fill(content, values, &tooLarge) }
            if let mediaType = template.mediaType { step.docString?.mediaType = fill(mediaType, values, &tooLarge) }
            if let table = template.table, var dataTable = step.dataTable {
                dataTable.rows = table.map { $0.map { fill($0, values, &tooLarge) } }
                step.dataTable = dataTable
            }
            return step
        }
    }

    /// `text` with a row's values in place, as Cucumber fills it.
    func fill(_ text: Text, _ values: [String], _ tooLarge: inout Bool) -> String {
        let once = text.filled(values)
        guard oddHeader || (once.utf8.contains(UInt8(ascii: "<")) && holdsPlaceholder(once)) else { return once }
        var filled = text.source
        for (index, column) in header.enumerated() {
            let placeholder = "<" + column + ">"
            let value = index < values.count ? values[index] : ""
            // Sized before it is built: one column may multiply the text by its value's length.
            let count = filled.scalarOffsets(of: placeholder).count
            guard count > 0 else { continue }
            if filled.utf8.count + count * (value.utf8.count - placeholder.utf8.count) > Self.growthLimit {
                tooLarge = true
                return String(decoding: filled.utf8.prefix(64), as: UTF8.self)
            }
            filled = filled.replacingScalars(of: placeholder, with: value)
        }
        return filled
    }

    /// Whether `text` holds `<name>` for a name of the header.
    private func holdsPlaceholder(_ text: String) -> Bool {
        var found = false
        OutlinePlaceholders.scan(text) { _, name in
            found = columns[ScalarKey(String(name))] != nil
            return !found
        }
        return found
    }

    /// One text: literal pieces and column numbers, in order.
    struct Text {
        enum Piece {
            case literal(Substring)
            case column(Int)
        }

        let pieces: [Piece]
        /// The text as written.
        let source: String

        init(_ text: String, _ columns: [ScalarKey: Int]) {
            source = text
            var pieces: [Piece] = []
            var literalStart = text.startIndex
            OutlinePlaceholders.scan(text) { span, name in
                if let column = columns[ScalarKey(String(name))] {
                    if literalStart < span.lowerBound { pieces.append(.literal(text[literalStart..<span.lowerBound])) }
                    pieces.append(.column(column))
                    literalStart = span.upperBound
                }
                return true
            }
            if literalStart < text.endIndex { pieces.append(.literal(text[literalStart...])) }
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
