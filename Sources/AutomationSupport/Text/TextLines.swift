/// How a text is cut into lines. Swift's `split(separator: "\n")` on a String walks Characters, and CR LF is
/// one Character: it finds no line break at all in a CRLF file. Everything here walks UTF-8 bytes instead.
package enum LineBreaks: Sendable {
    /// Program output: lines end at LF, and a CR just before the LF is not part of the line (CRLF output).
    /// A lone CR stays in the line: a terminal overwrites with it, it does not start a new line.
    case lf
    /// Files people write (feature, step, dotenv files): LF, CRLF and a lone CR each end a line, as Python's
    /// universal newlines and the Gherkin reference parser read them.
    case universal
}

extension StringProtocol {
    /// Every line, without its line break. The text after the last break is a line too (empty when the text
    /// ends with a break), so line `n` of a file is element `n - 1`.
    package func splitLines(_ breaks: LineBreaks = .universal) -> [Substring] {
        let text = Substring(self)
        let bytes = text.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                var end = index
                if end != start, bytes[bytes.index(before: end)] == UInt8(ascii: "\r") { end = bytes.index(before: end) }
                lines.append(text[start..<end])
                index = bytes.index(after: index)
                start = index
            } else if byte == UInt8(ascii: "\r"), breaks == .universal {
                let next = bytes.index(after: index)
                if next != bytes.endIndex, bytes[next] == UInt8(ascii: "\n") {
                    index = next // the LF ends this line and drops the CR
                } else {
                    lines.append(text[start..<index])
                    index = next
                    start = index
                }
            } else {
                index = bytes.index(after: index)
            }
        }
        lines.append(text[start..<bytes.endIndex])
        return lines
    }

    /// The lines of program output, as `splitLines(.lf)` without the empty one after a final line break.
    package func outputLines() -> [Substring] {
        guard !isEmpty else { return [] }
        var lines = splitLines(.lf)
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The text without a leading UTF-8 byte order mark (U+FEFF), which editors on Windows write.
    package func droppingByteOrderMark() -> Substring {
        let text = Substring(self)
        return text.unicodeScalars.first == "\u{FEFF}" ? text[text.unicodeScalars.index(after: text.startIndex)...] : text
    }
}
