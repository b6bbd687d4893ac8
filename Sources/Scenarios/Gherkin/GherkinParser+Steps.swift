import AutomationSupport

/// Steps and their arguments: data tables and doc strings, read as Cucumber reads them.
extension GherkinParser.Parser {
    mutating func skipBlankAndComments() {
        while let line = current, line.isEmpty || line.isComment { index += 1 }
    }

    /// - Parameter inherited: the pickle type the steps before these end with (the Backgrounds' last, for a scenario).
    mutating func steps(after inherited: String = "Unknown") throws(GherkinError) -> [GherkinDocument.Step] {
        var steps: [GherkinDocument.Step] = []
        var lastKind: String?
        var lastType = inherited
        while true {
            skipBlankAndComments()
            guard let line = current, let (keyword, given) = stepKeywords.first(where: { line.body.hasPrefix($0.keyword) }) else {
                // A table that follows no step: Cucumber skips it; so do we, saying so.
                if let line = current, line.isRow {
                    warn("this table belongs to no step and is ignored (as in Cucumber)")
                    _ = try tableIfPresent()
                    continue
                }
                break
            }
            let text = line.rest(after: keyword)
            let trimmedKeyword = keyword.trimmingSpaces()
            // The specification's type: Given/When/Then give one, And/But take the step before's, `*` has none.
            let type: String
            if let given {
                type = ["Given": "Context", "When": "Action", "Then": "Outcome"][given] ?? "Unknown"
            } else {
                type = trimmedKeyword == "*" ? "Unknown" : lastType
            }
            lastType = type
            if given == nil, lastKind == nil, trimmedKeyword != "*", inherited == "Unknown" {
                warn("\"\(trimmedKeyword)\" has no Given, When or Then before it, nor a Background step (Cucumber gives it no type)")
            }
            let kind = given ?? lastKind ?? "Given"
            lastKind = kind
            var step = GherkinDocument.Step(keyword: keyword, kind: kind, text: text, line: index + 1)
            step.pickleType = type
            step.column = column(index)
            step.keywordType =
                given.map { ["Given": "Context", "When": "Action", "Then": "Outcome"][$0] ?? "Unknown" }
                ?? (trimmedKeyword == "*" ? "Unknown" : "Conjunction")
            index += 1
            skipBlankAndComments()
            // Cucumber keeps a table and a doc string that follow one step, in either order.
            if let table = try tableIfPresent() {
                step.dataTable = table
                skipBlankAndComments()
                step.docString = try docStringIfPresent()
            } else if let docString = try docStringIfPresent() {
                step.docString = docString
                skipBlankAndComments()
                step.dataTable = try tableIfPresent()
            }
            steps.append(step)
        }
        return steps
    }

    /// Rows from here on: blank lines and comments between rows belong to the table (Cucumber's rule); every row
    /// has the first row's number of cells.
    mutating func tableIfPresent() throws(GherkinError) -> GherkinDocument.DataTable? {
        guard let first = current, first.isRow else { return nil }
        let line = index + 1
        var rows: [[String]] = []
        var positions: [(line: Int, column: Int, cellColumns: [Int])] = []
        while let row = current, row.isRow {
            let cells = row.cells()
            if let width = rows.first?.count, cells.count != width {
                throw error("inconsistent cell count within the table: this row has \(cells.count) cells, the first has \(width)")
            }
            rows.append(cells.map(\.value))
            positions.append((index + 1, row.indent + 1, cells.map(\.column)))
            index += 1
            var ahead = index
            while ahead < lines.count, lines[ahead].isEmpty || lines[ahead].isComment { ahead += 1 }
            guard ahead < lines.count, lines[ahead].isRow else { break }
            index = ahead
        }
        var table = GherkinDocument.DataTable(rows: rows, line: line)
        table.rowPositions = positions
        return table
    }

    /// A doc string from its opening `"""` or ```` ``` ```` (with an optional media type) to the next line that starts
    /// with the same delimiter; each line loses the opening delimiter's indentation, `\"\"\"` (or `` \`\`\` ``) is
    /// the delimiter itself.
    mutating func docStringIfPresent() throws(GherkinError) -> GherkinDocument.DocString? {
        guard let first = current else { return nil }
        let fence: String
        if first.body.hasPrefix("\"\"\"") { fence = "\"\"\"" } else if first.body.hasPrefix("```") { fence = "```" } else { return nil }
        let mediaType = first.rest(after: fence)
        let line = index + 1
        index += 1
        var content: [String] = []
        while let text = current {
            if text.body.hasPrefix(fence) {
                index += 1
                var docString = GherkinDocument.DocString(
                    content: content.joined(separator: "\n"), mediaType: mediaType.isEmpty ? nil : mediaType, line: line)
                docString.column = first.indent + 1
                docString.delimiter = fence
                return docString
            }
            notComments.insert(index + 1)
            content.append(Self.unescaping(fence, in: text.docStringText(removing: first.indent)))
            index += 1
        }
        throw error("unexpected end of file: the doc string opened at line \(line) has no closing \(fence)", line: lines.count + 1)
    }

    /// `text` with each `\"\"\"` (for `"""`; `` \`\`\` `` for ```` ``` ````) made the delimiter, in one pass.
    static func unescaping(_ fence: String, in text: Substring) -> String {
        let mark = fence.utf8.first!
        let escaped: [UInt8] = [92, mark, 92, mark, 92, mark]
        let bytes = Array(text.utf8)
        guard bytes.contains(92) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        while position < bytes.count {
            if bytes[position] == 92, position + 6 <= bytes.count, bytes[position..<position + 6].elementsEqual(escaped) {
                output += [mark, mark, mark]
                position += 6
            } else {
                output.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
