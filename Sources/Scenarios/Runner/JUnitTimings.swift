import AutomationSupport
import MockServer
import ProcessEngine

/// A JUnit file's `<testcase>` start tags, read in one pass over its bytes, checking that the whole file is
/// well-formed XML: tags nest and close by name, attribute values are quoted, every `&` is one of XML's five
/// entities or a character reference, one root element with only whitespace, comments and processing
/// instructions around it. A DOCTYPE is refused (JUnit needs none: no entity is ever declared or expanded).
/// Lines end at LF, CRLF or a lone CR (as XML counts them). Linear in the file's size: no byte is visited twice,
/// and only a testcase's attributes become Strings.
struct JUnitTimings {
    /// Nesting deeper than this is refused (libxml2's default limit).
    static let maxDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private var index = 0
    /// Lines counted up to `counted` (lazily, forward only: linear over the whole file).
    private var lines = 1
    private var counted = 0
    private var open: [Range<Int>] = []
    private var rootSeen = false

    /// The testcases' attributes and the line each starts on.
    private(set) var testcases: [(line: Int, attributes: [String: String])] = []

    /// Reads every testcase of `bytes`, or throws naming the line of the first thing that is not well-formed.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(InputError) -> [(line: Int, attributes: [String: String])] {
        var scanner = JUnitTimings(bytes: bytes, file: file)
        try scanner.document()
        return scanner.testcases
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// The line `position` is on.
    private mutating func line(at position: Int) -> Int {
        let end = min(position, bytes.count)
        guard end > counted else { return lines }
        lines += occurrences(of: 0x0A, from: counted, to: end)
        // A CR ends a line unless an LF follows it (CRLF counted once, by its LF).
        var at = counted
        while let found = next(0x0D, from: at, to: end) {
            if found + 1 >= bytes.count || bytes[found + 1] != 0x0A { lines += 1 }
            at = found + 1
        }
        counted = end
        return lines
    }

    /// The first `byte` in `start..<end` (memchr: the scan costs what C's costs, in debug builds too).
    private func next(_ byte: UInt8, from start: Int, to end: Int) -> Int? {
        ByteSearch.firstIndex(of: byte, in: bytes, from: start, to: end)
    }

    private func occurrences(of byte: UInt8, from start: Int, to end: Int) -> Int {
        var count = 0
        var at = start
        while let found = next(byte, from: at, to: end) {
            count += 1
            at = found + 1
        }
        return count
    }

    private mutating func fail(_ message: String, at position: Int? = nil) -> InputError {
        InputError(file: file, line: line(at: position ?? index), "not well-formed JUnit XML: \(message)")
    }

    private func starts(with text: StaticString, at position: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
        return true
    }

    /// Moves past the first `end` at or after `index`; throws `what` when there is none.
    private mutating func skip(past end: StaticString, _ what: String) throws(InputError) {
        let start = index
        while let found = next(end.utf8Start[0], from: index, to: bytes.count) {
            index = found
            if starts(with: end, at: index) {
                index += end.utf8CodeUnitCount
                return
            }
            index += 1
        }
        index = bytes.count
        throw fail("\(what) is not closed", at: start)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !isSpace(byte) && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "=")
            && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "&")
    }

    private mutating func document() throws(InputError) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                try markup()
            } else if open.isEmpty {
                guard Self.isSpace(byte) else { throw fail("text outside the root element") }
                index += 1
            } else {
                try text()
            }
        }
        if let unclosed = open.last { throw fail("<\(text(unclosed).prefix(40))> is not closed at the end of the file") }
        guard rootSeen else { throw fail("no root element") }
    }

    /// Text up to the next `<`: every `&` a known entity or a character reference.
    private mutating func text() throws(InputError) {
        let end = next(UInt8(ascii: "<"), from: index, to: bytes.count) ?? bytes.count
        while let ampersand = next(UInt8(ascii: "&"), from: index, to: end) {
            index = ampersand
            _ = try reference(before: end)
        }
        index = max(index, end)
    }

    /// `&name;` or `&#…;` at `index`, ending before `limit`: the text it stands for.
    private mutating func reference(before limit: Int) throws(InputError) -> String {
        let start = index
        index += 1
        while index < limit, index - start <= 12, bytes[index] != UInt8(ascii: ";") { index += 1 }
        guard index < limit, bytes[index] == UInt8(ascii: ";") else { throw fail("'&' starts no entity reference", at: start) }
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let hex = name.hasPrefix("#x")
            let digits = name.dropFirst(hex ? 2 : 1)
            if name.hasPrefix("#"), !digits.isEmpty, digits.count <= 8,
                let value = UInt32(digits, radix: hex ? 16 : 10), value > 0, let scalar = Unicode.Scalar(value)
            {
                return String(Character(scalar))
            }
            throw fail(
                "&\(name.prefix(12)); is not one of XML's entities (&amp; &lt; &gt; &quot; &apos;) or a character reference", at: start)
        }
    }

    private mutating func markup() throws(InputError) {
        if starts(with: "<!--", at: index) {
            try skip(past: "-->", "a comment")
        } else if starts(with: "<?", at: index) {
            try skip(past: "?>", "a processing instruction")
        } else if starts(with: "<![CDATA[", at: index) {
            guard !open.isEmpty else { throw fail("CDATA outside the root element") }
            try skip(past: "]]>", "a CDATA section")
        } else if starts(with: "<!", at: index) {
            throw fail("a DOCTYPE or declaration (JUnit needs none; entities are never declared)")
        } else if starts(with: "</", at: index) {
            try endTag()
        } else {
            try startTag()
        }
    }

    /// A tag's or attribute's name: its place in the bytes (never copied).
    private mutating func name() throws(InputError) -> Range<Int> {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw fail("a tag or attribute without a name") }
        return start..<index
    }

    private func same(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
        return left.count == right.count && bytes[left].elementsEqual(bytes[right])
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private mutating func spaces() { while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 } }

    private mutating func endTag() throws(InputError) {
        let start = index
        index += 2
        let closing = try name()
        spaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw fail("an end tag without '>'", at: start) }
        index += 1
        guard let top = open.last, same(top, closing) else {
            let expected = open.last.map { "</\(text($0).prefix(40))>" } ?? "no open element"
            throw fail("</\(text(closing).prefix(40))> where \(expected) was expected", at: start)
        }
        open.removeLast()
    }

    private mutating func startTag() throws(InputError) {
        let start = index
        index += 1
        let element = try name()
        guard open.isEmpty ? !rootSeen : true else { throw fail("a second root element", at: start) }
        let isTestcase = element.count == 8 && starts(with: "testcase", at: element.lowerBound)
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = index < bytes.count && Self.isSpace(bytes[index])
            spaces()
            guard index < bytes.count else { throw fail("a start tag without '>'", at: start) }
            if bytes[index] == UInt8(ascii: ">") || starts(with: "/>", at: index) { break }
            guard hadSpace else { throw fail("attributes are separated by spaces") }
            let key = try name()
            spaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail("an attribute without '='") }
            index += 1
            spaces()
            let value = try attributeValue(keep: isTestcase)
            if isTestcase { attributes[text(key)] = value }
        }
        let empty = bytes[index] == UInt8(ascii: "/")
        index += empty ? 2 : 1
        rootSeen = true
        if !empty {
            guard open.count < Self.maxDepth else { throw fail("elements nested deeper than \(Self.maxDepth)", at: start) }
            open.append(element)
        }
        if isTestcase { testcases.append((line(at: start), attributes)) }
    }

    /// A quoted attribute value, its references decoded when `keep`.
    private mutating func attributeValue(keep: Bool) throws(InputError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw fail("an attribute value without quotes")
        }
        let quote = bytes[index]
        let start = index
        index += 1
        guard let close = next(quote, from: index, to: bytes.count) else { throw fail("an attribute value is not closed", at: start) }
        if let less = next(UInt8(ascii: "<"), from: index, to: close) { throw fail("'<' in an attribute value", at: less) }
        var value = ""
        var run = index
        while let ampersand = next(UInt8(ascii: "&"), from: index, to: close) {
            if keep { value += String(decoding: bytes[run..<ampersand], as: UTF8.self) }
            index = ampersand
            let decoded = try reference(before: close)
            if keep { value += decoded }
            run = index
        }
        index = close
        if keep { value += String(decoding: bytes[run..<index], as: UTF8.self) }
        index += 1
        return value
    }
}
