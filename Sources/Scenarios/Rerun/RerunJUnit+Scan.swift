import AutomationSupport

/// The tags of a JUnit file, one at a time, checking as it goes what a well-formed document needs: one root element,
/// end tags matching their start tags, no text outside the root, comments, processing instructions and CDATA
/// sections closed, nothing cut short. Each problem is a `FILE:LINE: what` naming where it was found.
extension RerunJUnit {
    struct Tag {
        /// The element name, with a leading `/` for an end tag.
        var name: String
        /// From `<` to just past `>`.
        var range: Range<Int>
        var line: Int
    }

    struct Scan {
        let bytes: [UInt8]
        let file: String
        private var index = 0
        private var line = 1
        private var open: [(name: String, line: Int)] = []
        private var rootSeen = false

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        /// The next start or end tag; nil at the end of a well-formed document.
        mutating func nextTag() throws(RerunFile.Problem) -> Tag? {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    if let tag = try markup() { return tag }
                    continue
                }
                if byte == 0x0A { line += 1 }
                if byte == UInt8(ascii: "&") { try RerunJUnit.checkReference(bytes, index, file: file, line: line) }
                if open.isEmpty, ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                    throw problem("text outside the root element; this is not a JUnit report")
                }
                index += 1
            }
            if let last = open.last {
                throw problem("the XML ends inside <\(last.name)> (line \(last.line)): the report is cut short")
            }
            guard rootSeen else { throw problem("no root element; this is not a JUnit report") }
            return nil
        }

        /// The markup at `<`: skips a comment, processing instruction or CDATA section (nil), else reads a tag.
        private mutating func markup() throws(RerunFile.Problem) -> Tag? {
            for (opening, closing) in [("<?", "?>"), ("<!--", "-->"), ("<![CDATA[", "]]>")] where starts(opening) {
                if opening == "<![CDATA[", open.isEmpty { throw problem("a CDATA section outside the root element") }
                try skip(past: closing, what: opening)
                return nil
            }
            let name = RerunJUnit.name(bytes, index + 1)
            if name.hasPrefix("!") {
                throw problem("the XML declares a document type or entities; refused (no DTD is read)")
            }
            guard !name.isEmpty, name != "/" else { throw problem("a '<' that starts no tag; this is not well-formed XML") }
            let start = index
            let startLine = line
            var quote: UInt8?
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { line += 1 }
                if let open = quote {
                    if byte == open { quote = nil }
                    if byte == UInt8(ascii: "&") { try RerunJUnit.checkReference(bytes, index, file: file, line: line) }
                } else if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    index += 1
                    try nest(name, closes: bytes[index - 2] == UInt8(ascii: "/"), at: startLine)
                    return Tag(name: name, range: start..<index, line: startLine)
                }
                index += 1
            }
            line = startLine
            throw problem("a <\(name.prefix(20).escapingControlCharacters())> tag that never ends: the report is cut short")
        }

        /// Keeps the open elements: an end tag must close the innermost, and there is one root.
        private mutating func nest(_ name: String, closes: Bool, at startLine: Int) throws(RerunFile.Problem) {
            if name.hasPrefix("/") {
                let closed = String(name.dropFirst())
                guard let last = open.last, last.name == closed else {
                    line = startLine
                    let expected = open.last.map { "<\($0.name)> opened at line \($0.line)" } ?? "no open element"
                    throw problem("</\(closed.prefix(20).escapingControlCharacters())> does not close \(expected)")
                }
                open.removeLast()
                return
            }
            if open.isEmpty, rootSeen {
                line = startLine
                throw problem("a second root element <\(name.prefix(20).escapingControlCharacters())>; a JUnit report has one")
            }
            rootSeen = true
            if !closes { open.append((name, startLine)) }
        }

        private func starts(_ text: String) -> Bool {
            bytes[index...].starts(with: text.utf8)
        }

        private mutating func skip(past closing: String, what: String) throws(RerunFile.Problem) {
            let startLine = line
            let end = Array(closing.utf8)
            while index < bytes.count {
                if bytes[index...].starts(with: end) {
                    index += end.count
                    return
                }
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            line = startLine
            throw problem("a \(what) that never ends: the report is cut short")
        }

        private func problem(_ text: String) -> RerunFile.Problem { RerunFile.Problem(file, line, text) }
    }
}
