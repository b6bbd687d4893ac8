/// What a terminal of a given size shows after a program wrote `bytes` to it: the VT100/xterm subset that
/// full-screen and prompt-redrawing programs use (cursor movement and positioning, erasing, scrolling,
/// inserting and deleting characters and lines, saving the cursor, the alternate screen). Colours and other
/// attributes, character sets and titles are read and dropped. Every character takes one cell.
///
/// ```swift
/// var screen = TerminalScreen(TerminalSize(columns: 20, rows: 3))
/// screen.feed(Array("loading...\r\u{1B}[Kready".utf8))
/// screen.text   // "ready"
/// ```
public struct TerminalScreen: Sendable, Hashable {
    /// Its size (clamped to 1 – 1,000 each way).
    public let size: TerminalSize
    private var cells: [[Character]]
    /// The cursor: row and column, from 0.
    public private(set) var cursor: (row: Int, column: Int) = (0, 0)
    private var savedCursor: (row: Int, column: Int) = (0, 0)
    /// Set after writing the last column: the next printable character wraps first (as xterm does).
    private var pendingWrap = false
    /// True once a character was written in the last column (tests compare with emulators that model the
    /// wrap differently only when this stays false).
    public private(set) var filledLastColumn = false
    private var parser = Parser.ground
    private var parameters: [Int] = []
    private var privateMarker = false
    private var utf8: [UInt8] = []

    private enum Parser: Hashable { case ground, escape, csi, osc, oscEscape, charset }
    private static let maxParameters = 16

    /// A blank screen of `size`.
    public init(_ size: TerminalSize) {
        self.size = TerminalSize(columns: max(1, min(size.columns, 1_000)), rows: max(1, min(size.rows, 1_000)))
        cells = Array(repeating: Array(repeating: " ", count: self.size.columns), count: self.size.rows)
    }

    /// The screen built from everything written so far.
    public init(_ size: TerminalSize, output: [UInt8]) {
        self.init(size)
        feed(output)
    }

    /// The rows as text, trailing spaces and trailing blank rows removed.
    public var text: String {
        var lines = cells.map { String($0).replacingTrailingSpaces() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// One row as text, trailing spaces removed.
    public func line(_ row: Int) -> String { cells.indices.contains(row) ? String(cells[row]).replacingTrailingSpaces() : "" }

    public static func == (lhs: TerminalScreen, rhs: TerminalScreen) -> Bool {
        lhs.size == rhs.size && lhs.cells == rhs.cells && lhs.cursor == rhs.cursor
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(cells)
    }

    /// Interprets more output.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { consume(byte) }
    }

    private mutating func consume(_ byte: UInt8) {
        switch parser {
        case .ground: ground(byte)
        case .escape: escape(byte)
        case .csi: csi(byte)
        case .osc:
            if byte == 0x07 { parser = .ground } else if byte == 0x1B { parser = .oscEscape }
        case .oscEscape: parser = byte == UInt8(ascii: "\\") ? .ground : .osc
        case .charset: parser = .ground
        }
    }

    private mutating func ground(_ byte: UInt8) {
        if !utf8.isEmpty || byte >= 0x80 { return collectUTF8(byte) }
        switch byte {
        case 0x1B: parser = .escape
        case 0x0D:
            cursor.column = 0
            pendingWrap = false
        case 0x0A, 0x0B, 0x0C: lineFeed()
        case 0x08:
            cursor.column = max(0, cursor.column - 1)
            pendingWrap = false
        case 0x09:
            cursor.column = min(size.columns - 1, (cursor.column / 8 + 1) * 8)
            pendingWrap = false
        case 0x20...0x7E: put(Character(Unicode.Scalar(byte)))
        default: break // BEL and the other controls
        }
    }

    private mutating func collectUTF8(_ byte: UInt8) {
        utf8.append(byte)
        let expected = utf8[0] >= 0xF0 ? 4 : utf8[0] >= 0xE0 ? 3 : utf8[0] >= 0xC0 ? 2 : 1
        guard utf8.count >= expected || utf8.count == 4 else { return }
        let text = String(decoding: utf8, as: UTF8.self)
        utf8.removeAll()
        for character in text { put(character) }
    }

    private mutating func escape(_ byte: UInt8) {
        parser = .ground
        switch byte {
        case UInt8(ascii: "["):
            parser = .csi
            parameters = []
            privateMarker = false
        case UInt8(ascii: "]"): parser = .osc
        case UInt8(ascii: "("), UInt8(ascii: ")"): parser = .charset
        case UInt8(ascii: "7"): savedCursor = cursor
        case UInt8(ascii: "8"):
            cursor = savedCursor
            pendingWrap = false
        case UInt8(ascii: "D"): lineFeed()
        case UInt8(ascii: "E"):
            lineFeed()
            cursor.column = 0
        case UInt8(ascii: "M"): reverseLineFeed()
        case UInt8(ascii: "c"): self = TerminalScreen(size)
        default: break
        }
    }

    private mutating func csi(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if parameters.isEmpty { parameters = [0] }
            let digit = Int(byte - UInt8(ascii: "0"))
            parameters[parameters.count - 1] = min(parameters[parameters.count - 1] * 10 + digit, 99_999)
        case UInt8(ascii: ";"):
            if parameters.isEmpty { parameters = [0] }
            if parameters.count < Self.maxParameters { parameters.append(0) }
        case UInt8(ascii: "?"), UInt8(ascii: ">"), UInt8(ascii: "="): privateMarker = true
        case 0x20...0x2F: break // intermediate bytes
        case 0x40...0x7E:
            parser = .ground
            perform(byte)
        default: parser = .ground // a control inside a sequence: drop the sequence
        }
    }

    /// The n-th parameter, `fallback` when missing or 0 (most sequences treat 0 as 1).
    private func parameter(_ index: Int, _ fallback: Int = 1) -> Int {
        index < parameters.count && parameters[index] != 0 ? parameters[index] : fallback
    }

    private mutating func perform(_ final: UInt8) {
        let rows = size.rows
        let columns = size.columns
        // Attributes and reports leave a pending wrap pending; what moves the cursor or edits cancels it.
        if final != UInt8(ascii: "m") && final != UInt8(ascii: "n") && final != UInt8(ascii: "r") && final != UInt8(ascii: "t") {
            pendingWrap = false
        }
        if privateMarker {
            // The alternate screen (1049, 1047, 47): programs clear it on entry and we keep one screen.
            if final == UInt8(ascii: "h") || final == UInt8(ascii: "l"), parameters.contains(where: { [47, 1047, 1049].contains($0) }) {
                clear(fromRow: 0, toRow: rows - 1)
                cursor = (0, 0)
            }
            return
        }
        switch final {
        case UInt8(ascii: "A"): cursor.row = max(0, cursor.row - parameter(0))
        case UInt8(ascii: "B"), UInt8(ascii: "e"): cursor.row = min(rows - 1, cursor.row + parameter(0))
        case UInt8(ascii: "C"), UInt8(ascii: "a"): cursor.column = min(columns - 1, cursor.column + parameter(0))
        case UInt8(ascii: "D"): cursor.column = max(0, cursor.column - parameter(0))
        case UInt8(ascii: "E"): cursor = (min(rows - 1, cursor.row + parameter(0)), 0)
        case UInt8(ascii: "F"): cursor = (max(0, cursor.row - parameter(0)), 0)
        case UInt8(ascii: "G"), UInt8(ascii: "`"): cursor.column = min(columns, parameter(0)) - 1
        case UInt8(ascii: "d"): cursor.row = min(rows, parameter(0)) - 1
        case UInt8(ascii: "H"), UInt8(ascii: "f"): cursor = (min(rows, parameter(0)) - 1, min(columns, parameter(1)) - 1)
        case UInt8(ascii: "J"):
            switch parameter(0, 0) {
            case 0:
                eraseInLine(from: cursor.column, to: columns - 1)
                if cursor.row + 1 < rows { clear(fromRow: cursor.row + 1, toRow: rows - 1) }
            case 1:
                if cursor.row > 0 { clear(fromRow: 0, toRow: cursor.row - 1) }
                eraseInLine(from: 0, to: cursor.column)
            default: clear(fromRow: 0, toRow: rows - 1)
            }
        case UInt8(ascii: "K"):
            switch parameter(0, 0) {
            case 0: eraseInLine(from: cursor.column, to: columns - 1)
            case 1: eraseInLine(from: 0, to: cursor.column)
            default: eraseInLine(from: 0, to: columns - 1)
            }
        case UInt8(ascii: "X"): eraseInLine(from: cursor.column, to: min(columns - 1, cursor.column + parameter(0) - 1))
        case UInt8(ascii: "P"):
            let count = min(parameter(0), columns - cursor.column)
            cells[cursor.row].removeSubrange(cursor.column..<(cursor.column + count))
            cells[cursor.row].append(contentsOf: repeatElement(" ", count: count))
        case UInt8(ascii: "@"):
            let count = min(parameter(0), columns - cursor.column)
            cells[cursor.row].insert(contentsOf: repeatElement(" ", count: count), at: cursor.column)
            cells[cursor.row].removeLast(count)
        case UInt8(ascii: "L"):
            let count = min(parameter(0), rows - cursor.row)
            cells.insert(contentsOf: repeatElement(blankRow, count: count), at: cursor.row)
            cells.removeLast(count)
            cursor.column = 0 // as xterm does
        case UInt8(ascii: "M"):
            let count = min(parameter(0), rows - cursor.row)
            cells.removeSubrange(cursor.row..<(cursor.row + count))
            cells.append(contentsOf: repeatElement(blankRow, count: count))
            cursor.column = 0
        case UInt8(ascii: "S"): scrollUp(min(parameter(0), rows))
        case UInt8(ascii: "T"):
            let count = min(parameter(0), rows)
            cells.insert(contentsOf: repeatElement(blankRow, count: count), at: 0)
            cells.removeLast(count)
        case UInt8(ascii: "s"): savedCursor = cursor
        case UInt8(ascii: "u"): cursor = savedCursor
        default: break // m (attributes), r (scroll region), n (reports), t, ...: nothing to draw
        }
    }

    private var blankRow: [Character] { Array(repeating: " ", count: size.columns) }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            pendingWrap = false
            cursor.column = 0
            lineFeed()
        }
        cells[cursor.row][cursor.column] = character
        if cursor.column == size.columns - 1 {
            pendingWrap = true
            filledLastColumn = true
        } else {
            cursor.column += 1
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if cursor.row == size.rows - 1 { scrollUp(1) } else { cursor.row += 1 }
    }

    private mutating func reverseLineFeed() {
        if cursor.row == 0 {
            cells.insert(blankRow, at: 0)
            cells.removeLast()
        } else {
            cursor.row -= 1
        }
    }

    private mutating func scrollUp(_ count: Int) {
        cells.removeFirst(count)
        cells.append(contentsOf: repeatElement(blankRow, count: count))
    }

    private mutating func clear(fromRow first: Int, toRow last: Int) {
        guard first <= last else { return }
        for row in first...last { cells[row] = blankRow }
    }

    private mutating func eraseInLine(from first: Int, to last: Int) {
        guard first <= last else { return }
        for column in first...last { cells[cursor.row][column] = " " }
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
