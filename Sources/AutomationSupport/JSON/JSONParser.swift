/// A strict RFC 8259 JSON parser that keeps line and column of every value and key.
///
/// Written here (not JSONSerialization) because stub and flag files need positions in their messages,
/// and because JSONSerialization on Linux cannot tell `true` from `1`.
package struct JSONParser {
    /// A syntax error with its position: `3:14: expected ',' or '}' after an object member, found '"'`.
    package struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        package var position: SourcePosition
        package var message: String
        package var description: String { "\(position): \(message)" }
    }

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    /// Set by ``parse(_:deferringArrayAt:)``: the array whose elements are delimited, not parsed.
    var deferral: Deferral?
    /// `deferral != nil`, kept apart: a test of the optional costs stack in every frame of a debug build's recursion.
    var isDeferring = false
    /// Set for flags: an integer literal beyond 64 bits is an error, not silently the nearest Double.
    var exactIntegers = false
    /// Set for request bodies: a decimal literal that is not the shortest form of its Double is refused, so two
    /// different numbers never compare equal as the same Double (``parse(request:)``).
    var exactDecimals = false
    /// Invalid UTF-8 in a string reads as U+FFFD instead of being refused: for files another tool wrote, read to be
    /// shown (Cucumber Messages), where the text is evidence, not something to match or serve.
    var repairsUTF8 = false
    /// Set for stub and mapping files and admin API input: a lone surrogate escape (`\ud800`) is refused at its line and
    /// column, never read as U+FFFD (text to serve or match must be the text written, as invalid UTF-8 is refused).
    var refusesLoneSurrogates = false
    /// Arrays and objects nested deeper are refused (400 for a request body, exit 3 for a file): parsing,
    /// comparing and freeing a document recurse once per level, on connection threads with 1 MiB stacks.
    package static let maxDepth = 128

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document; anything but whitespace after it is an error.
    package static func parse(_ text: String) throws(Error) -> JSONNode {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON document in which every integer must fit in 64 bits and every decimal must be the value of
    /// its Double (flags: a program must receive the number written, not the nearest Double: `1.0000000000000000001`
    /// and `1e-400` are refused; `1e2` and `1.50` are the values of 100.0 and 1.5, written so on the wire).
    package static func parse(exactIntegers text: String) throws(Error) -> JSONNode {
        try parse(Array(text.utf8), exactIntegers: true, exactDecimals: true)
    }

    /// Parses a request's JSON (a body, a header, a query value) as the mock server matches it, failing closed where
    /// a Double would blur it: `1.0000000000000000000001` is not read as 1 (WireMock compares such decimals exactly
    /// and finds them unequal; a matcher must not find them equal), and a leading byte order mark is not JSON (WireMock
    /// reads the body as text, where the mark is a character Jackson refuses).
    package static func parse(request text: String) throws(Error) -> JSONNode {
        let bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw Error(position: SourcePosition(line: 1, column: 1), message: "a byte order mark before the JSON value")
        }
        return try parse(bytes, exactDecimals: true)
    }

    /// Parses one JSON document from UTF-8 bytes.
    package static func parse(
        _ bytes: [UInt8], exactIntegers: Bool = false, exactDecimals: Bool = false, repairingUTF8: Bool = false,
        refusingLoneSurrogates: Bool = false
    ) throws(Error) -> JSONNode {
        var parser = JSONParser(bytes)
        parser.exactIntegers = exactIntegers
        parser.refusesLoneSurrogates = refusingLoneSurrogates
        parser.exactDecimals = exactDecimals
        parser.repairsUTF8 = repairingUTF8
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 } // a UTF-8 byte order mark
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return node
    }

    var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

    func error(_ message: String, at position: SourcePosition? = nil) -> Error {
        Error(position: position ?? self.position, message: message)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func parseValue() throws(Error) -> JSONNode {
        let start = position
        guard index < bytes.count else { throw error("expected a JSON value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["):
            if depth == 0, isDeferring { return try deferArray() }
            return try parseArray(start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber(start)
        case UInt8(ascii: "'"): throw error("strings take double quotes in JSON, found '")
        default: throw expected("a JSON value")
        }
    }

    /// "expected WHAT, found X", built out of line: the recursive functions keep small stack frames even in
    /// debug builds, whose frames hold every interpolation's temporaries (documents 128 levels deep are parsed
    /// on 1 MiB connection threads).
    @inline(never)
    func expected(_ what: String) -> Error {
        error("expected \(what), found \(describeCurrent())")
    }

    private mutating func expectWord(_ word: String) throws(Error) {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("expected a JSON value, found \(describeCurrent())")
        }
        index += utf8.count
    }

    mutating func enter() throws(Error) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject(_ start: SourcePosition) throws(Error) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        var seen: Set<String> = [] // filled only for large objects; small ones are scanned
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(.object(members), at: start)
        }
        members.reserveCapacity(4) // one allocation for most objects, not one per doubling from 1
        while true {
            skipWhitespace()
            let keyPosition = position
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    throw error("trailing comma before '}'")
                }
                throw expected("a member name in double quotes")
            }
            let key = try parseString()
            try checkNew(key, at: keyPosition, members: members, seen: &seen)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw expected("':' after \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value: JSONNode
            if depth == 1, isDeferring {
                value = try parseRootMember(key)
            } else {
                value = try parseValue()
            }
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found end of file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(.object(members), at: start)
            }
            throw expected("',' or '}' after the value of \"\(key)\"")
        }
    }

    /// Refuses a key the object already has.
    @inline(never)
    private func checkNew(_ key: String, at keyPosition: SourcePosition, members: [JSONNode.Member], seen: inout Set<String>) throws(Error)
    {
        if members.count >= 16 {
            if seen.isEmpty { seen = Set(members.map(\.key)) }
            if !seen.insert(key).inserted, let earlier = members.first(where: { $0.key == key }) {
                throw error("duplicate key \"\(key)\" (first at \(Self.place(earlier.keyPosition, from: keyPosition)))", at: keyPosition)
            }
        } else if let earlier = members.first(where: { $0.key == key }) {
            throw error("duplicate key \"\(key)\" (first at \(Self.place(earlier.keyPosition, from: keyPosition)))", at: keyPosition)
        }
    }

    /// Where an earlier key stood, said from a later one: its column on the same line, else line and column.
    private static func place(_ earlier: SourcePosition, from later: SourcePosition) -> String {
        earlier.line == later.line ? "column \(earlier.column)" : "line \(earlier.line), column \(earlier.column)"
    }

    private mutating func parseArray(_ start: SourcePosition) throws(Error) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(.array(elements), at: start)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found end of file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(.array(elements), at: start)
            }
            throw expected("',' or ']' in an array")
        }
    }

    private mutating func parseString() throws(Error) -> String {
        let start = position
        index += 1
        // Fast path: no escapes, decoded straight from the bytes.
        let contentStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[contentStart..<(index - 1)], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { try skipScalar() } else { index += 1 }
        }
        var utf8 = Array(bytes[contentStart..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    // Encoded in place: a String per escape made 16 million \u0001 take seconds of malloc.
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { utf8.append($0) }
                default:
                    let at = SourcePosition(line: line, column: index - 2 - lineStart + 1)
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: at)
                }
                continue
            }
            if byte < 0x20 {
                throw error(
                    byte == 0x0A
                        ? "unterminated string (strings cannot span lines; use \\n)"
                        : "control character \(describeCurrent()) in a string; escape it")
            }
            let scalarStart = index
            if byte >= 0x80 { try skipScalar() } else { index += 1 }
            utf8.append(contentsOf: bytes[scalarStart..<index])
        }
        throw error("unterminated string", at: start)
    }

    /// Steps over one multi-byte UTF-8 sequence; invalid UTF-8 is refused where it is (RFC 8259 §8.1: JSON text is
    /// UTF-8), never read as U+FFFD (a body would then differ from the file's bytes).
    private mutating func skipScalar() throws(Error) {
        var iterator = bytes[index...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        if case .valid(let encoded) = parser.parseScalar(from: &iterator) {
            index += encoded.count
            return
        }
        if repairsUTF8 { // the byte is kept and the string's decoding makes it U+FFFD
            index += 1
            return
        }
        throw error(
            "invalid UTF-8 (byte 0x\(String(bytes[index], radix: 16, uppercase: true))) in a string: JSON text is UTF-8; "
                + "save the file as UTF-8, or write the character as \\uXXXX")
    }

    private mutating func parseHex4() throws(Error) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("\\u needs four hex digits, found \(describeCurrent())")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(Error) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let second = try parseHex4()
                if (0xDC00...0xDFFF).contains(second) {
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
                }
            }
            // A flag travels as UTF-8, which cannot carry a lone surrogate: refused, never sent as U+FFFD.
            if exactIntegers || refusesLoneSurrogates {
                throw error("\\u\(String(first, radix: 16, uppercase: true)) is a lone surrogate, not a character")
            }
            return "\u{FFFD}" // a lone surrogate: replaced, as JSON decoders commonly do
        }
        if exactIntegers || refusesLoneSurrogates, (0xDC00...0xDFFF).contains(first) {
            throw error("\\u\(String(first, radix: 16, uppercase: true)) is a lone surrogate, not a character")
        }
        return Unicode.Scalar(first) ?? "\u{FFFD}"
    }
}
