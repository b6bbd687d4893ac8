/// One line of a feature file as Cucumber's token scanner reads it: lines end at LF (a CR before it is dropped; a
/// lone CR is text, as in every reference implementation), and "blank" is Unicode white space (Python's
/// `str.isspace`, the oracle's: tabs, non-breaking and other Unicode spaces), not only spaces and tabs.
/// Every walk here is one pass over the line: no input makes the parser rescan a line per character.
struct GherkinLine {
    /// As written, without its LF and the CRs before it.
    let raw: Substring
    /// Without its leading blanks: what keywords are matched against (`Given ` keeps its space).
    let body: Substring
    /// Without leading and trailing blanks.
    let text: Substring
    /// How many blanks lead it (Unicode scalars, so columns are the reference's).
    let indent: Int
    /// The first byte of its body (0 for a blank line): `#`, `@`, `|` decide a line's kind without a string compare.
    let head: UInt8

    init(_ raw: Substring) {
        self.raw = raw
        let scalars = raw.unicodeScalars
        var start = scalars.startIndex
        var indent = 0
        while start < scalars.endIndex, Self.isBlank(scalars[start]) {
            scalars.formIndex(after: &start)
            indent += 1
        }
        var end = scalars.endIndex
        while end > start, Self.isBlank(scalars[scalars.index(before: end)]) { scalars.formIndex(before: &end) }
        self.indent = indent
        head = start < scalars.endIndex ? raw.utf8[start] : 0
        body = Substring(scalars[start...])
        text = Substring(scalars[start..<end])
    }

    /// Splits a file into lines: at LF, trailing CRs dropped; a final LF ends the last line rather than starting one.
    /// Also the 0-based number of the first line with a CR left inside (a lone CR), if any.
    static func lines(of source: String) -> (lines: [GherkinLine], loneCR: Int?) {
        var lines: [GherkinLine] = []
        var loneCR: Int?
        var source = source
        source.withUTF8 { bytes in
            var start = 0
            var sawCR = false
            for position in 0...bytes.count {
                let byte = position < bytes.count ? bytes[position] : UInt8(ascii: "\n")
                if byte == UInt8(ascii: "\r") { sawCR = true }
                guard byte == UInt8(ascii: "\n"), position < bytes.count || start < bytes.count else { continue }
                var end = position
                while end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if sawCR, loneCR == nil, bytes[start..<end].contains(UInt8(ascii: "\r")) { loneCR = lines.count }
                sawCR = false
                lines.append(GherkinLine(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                start = position + 1
            }
        }
        return (lines, loneCR)
    }

    /// Python's `str.isspace`: what the reference parser strips.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    static func trimmed(_ text: Substring) -> Substring {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return Substring(scalars[first...last])
    }

    var isEmpty: Bool { text.isEmpty }
    var isComment: Bool { head == UInt8(ascii: "#") }
    var isTags: Bool { head == UInt8(ascii: "@") }
    var isRow: Bool { head == UInt8(ascii: "|") }

    /// What follows `count` characters of the body, trimmed (a keyword's title, a doc string's media type).
    func rest(after prefix: String) -> String {
        String(Self.trimmed(body.dropFirst(prefix.count)))
    }

    /// The line inside a doc string: `indent` blanks removed (all of them when it has fewer).
    func docStringText(removing fenceIndent: Int) -> Substring {
        guard fenceIndent <= indent else { return body }
        var start = raw.unicodeScalars.startIndex
        for _ in 0..<fenceIndent { raw.unicodeScalars.formIndex(after: &start) }
        return Substring(raw.unicodeScalars[start...])
    }

    /// Tags as Cucumber reads them: the line up to a blank followed by `#`, split at each `@`; `@a@b` is two tags.
    /// With the message and column of the first tag with a blank inside (`@a b`), if any.
    func tags() -> (tags: [(name: String, column: Int)], problem: (message: String, column: Int)?) {
        var scalars = Array(text.unicodeScalars)
        if let comment = scalars.indices.dropFirst().first(where: { scalars[$0] == "#" && Self.isBlank(scalars[$0 - 1]) }) {
            scalars.removeSubrange((comment - 1)...)
        }
        var result: [(name: String, column: Int)] = []
        var column = indent + 1
        // Each item is the text after one `@`, up to the next.
        var items: [ArraySlice<Unicode.Scalar>] = scalars.split(separator: "@", omittingEmptySubsequences: false)
        items.removeFirst()
        for item in items {
            var name = String.UnicodeScalarView()
            var lower = item.startIndex
            var upper = item.endIndex
            while lower < upper, Self.isBlank(item[lower]) { lower += 1 }
            while upper > lower, Self.isBlank(item[upper - 1]) { upper -= 1 }
            if item[lower..<upper].contains(where: Self.isBlank) { return (result, ("A tag may not contain whitespace", column)) }
            name.append("@")
            name.append(contentsOf: item[lower..<upper])
            result.append((String(name), column))
            column += item.count + 1
        }
        return (result, nil)
    }

    /// A table row's cells as Cucumber reads them: between `|`s, what follows the last `|` dropped, `\|` `\\` `\n`
    /// unescaped (another `\x` kept as written), blanks around each value trimmed (not the newline of `\n`); each
    /// with the column its value starts at.
    func cells() -> [(value: String, column: Int)] {
        var cells: [(value: String, column: Int)] = []
        var cell = String.UnicodeScalarView()
        var column = 0
        var cellStart = 0
        var seenFirst = false
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            column += 1
            switch scalar {
            case "|":
                if seenFirst { cells.append(Self.trimmedCell(cell, column: cellStart + indent)) }
                seenFirst = true
                cell = String.UnicodeScalarView()
                cellStart = column + 1
            case "\\":
                let next = iterator.next()
                if next != nil { column += 1 }
                switch next {
                case "n": cell.append("\n")
                case "|", "\\": cell.append(next!)
                case let other?:
                    cell.append("\\")
                    cell.append(other)
                case nil: cell.append("\\")
                }
            default: cell.append(scalar)
            }
        }
        return cells
    }

    private static func trimmedCell(_ cell: String.UnicodeScalarView, column: Int) -> (value: String, column: Int) {
        let blank = { (scalar: Unicode.Scalar) in scalar != "\n" && isBlank(scalar) }
        var lower = cell.startIndex
        var upper = cell.endIndex
        var leading = 0
        while lower < upper, blank(cell[lower]) {
            cell.formIndex(after: &lower)
            leading += 1
        }
        while upper > lower, blank(cell[cell.index(before: upper)]) { cell.formIndex(before: &upper) }
        return (String(String.UnicodeScalarView(cell[lower..<upper])), column + leading)
    }
}
