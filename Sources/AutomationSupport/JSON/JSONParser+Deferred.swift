/// A JSON array whose elements were delimited but not parsed: its elements can then be parsed on several
/// threads, each next to the work that uses it, and freed at once (a stub file's thousands of routes load on
/// the path to "ready", and one parse of the whole file then left the other CPU idle).
package struct JSONDeferredArray: Sendable {
    /// Where one element's bytes lie, and the line it starts on.
    struct Span: Sendable {
        var start: Int
        var end: Int
        var line: Int
        var lineStart: Int
    }

    let bytes: [UInt8]
    let spans: [Span]
    /// The nesting depth of the array, so that its elements meet the same depth limit as in a whole parse.
    let depth: Int
    /// Where the array's `[` stands.
    package let position: SourcePosition
    /// Elements refuse a lone surrogate escape, as the document around them did.
    var refusesLoneSurrogates = false

    /// How many elements it has.
    package var count: Int { spans.count }

    /// Parses element `index`, with the positions it has in the whole document.
    package func element(_ index: Int) throws(JSONParser.Error) -> JSONNode {
        let span = spans[index]
        var parser = JSONParser(bytes)
        parser.index = span.start
        parser.line = span.line
        parser.lineStart = span.lineStart
        parser.depth = depth
        parser.refusesLoneSurrogates = refusesLoneSurrogates
        let node = try parser.parseValue()
        // The delimiting scan and the parser agree on every document the parser accepts; this guards the rest.
        guard parser.index == span.end else {
            throw parser.error("expected ',' or ']' in an array, found \(parser.describeCurrent())")
        }
        return node
    }
}

extension JSONParser {
    /// What ``parse(_:deferringArrayAt:)`` asked for, and what it found.
    struct Deferral {
        var key: String
        var array: JSONDeferredArray?
    }

    /// Parses one JSON document as ``parse(_:)-([UInt8])`` does, except for one array: the document itself when it
    /// is an array, else the value of the root object's member `key` when that is an array. That array's elements
    /// are only delimited; the node stands there as an empty array and the elements come back apart.
    ///
    /// Every byte is still checked: those between elements here, those inside them by
    /// ``JSONDeferredArray/element(_:)``. A document that ``parse(_:)-([UInt8])`` refuses is refused by one of the
    /// two, though not always with the same message or at the same place: callers that need the first error
    /// in file order parse the whole document again when anything fails.
    package static func parse(_ bytes: [UInt8], deferringArrayAt key: String, refusingLoneSurrogates: Bool = false) throws(Error) -> (
        root: JSONNode, deferred: JSONDeferredArray?
    ) {
        var parser = JSONParser(bytes)
        parser.refusesLoneSurrogates = refusingLoneSurrogates
        parser.deferral = Deferral(key: key)
        parser.isDeferring = true
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return (node, parser.deferral?.array)
    }

    /// The value of the root object's member `key`: the deferred array when it is the one asked for. Out of line,
    /// so that the recursive parse keeps its small stack frames (request bodies are parsed on small stacks).
    @inline(never)
    mutating func parseRootMember(_ key: String) throws(Error) -> JSONNode {
        if deferral?.key == key, deferral?.array == nil, index < bytes.count, bytes[index] == UInt8(ascii: "[") { return try deferArray() }
        return try parseValue()
    }

    /// At the `[` of the deferred array: records where each element lies and returns an empty array node.
    @inline(never)
    mutating func deferArray() throws(Error) -> JSONNode {
        let start = position
        try enter()
        defer { depth -= 1 }
        let arrayDepth = depth
        index += 1
        var spans: [JSONDeferredArray.Span] = []
        var closers: [UInt8] = [] // one stack for every element's brackets
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
                let begin = index
                let beginLine = line
                let beginLineStart = lineStart
                try skipValue(closers: &closers)
                spans.append(JSONDeferredArray.Span(start: begin, end: index, line: beginLine, lineStart: beginLineStart))
                skipWhitespace()
                guard index < bytes.count else { throw error("expected ',' or ']', found end of file") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    break
                }
                throw error("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
        deferral?.array = JSONDeferredArray(bytes: bytes, spans: spans, depth: arrayDepth, position: start)
        deferral?.array?.refusesLoneSurrogates = refusesLoneSurrogates
        return JSONNode(.array([]), at: start)
    }

    /// Moves past one value without building it: strings with their escapes, brackets matched by kind, lines
    /// counted. A scalar ends at whitespace, `,` or `]`. Refuses what the parser would refuse only where it must
    /// to find the end (an unterminated string, a wrong or missing closing bracket, too deep a nesting).
    private mutating func skipValue(closers: inout [UInt8]) throws(Error) {
        let start = position
        closers.removeAll(keepingCapacity: true)
        let limit = Self.maxDepth - depth
        let count = bytes.count
        try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(Error) in
            while index < count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < count {
                        let inner = buffer[index]
                        if inner == UInt8(ascii: "\"") { break }
                        if inner < 0x20 { throw error("control character \(describeCurrent()) in a string; escape it") }
                        index += inner == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < count else { throw error("unterminated string", at: start) }
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard closers.count < limit else { throw error("nesting deeper than \(Self.maxDepth) levels") }
                    closers.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if closers.isEmpty {
                        guard byte == UInt8(ascii: "]") else { throw error("unexpected '}'") }
                        return
                    }
                    guard closers.removeLast() == byte else { throw error("unexpected '\(Character(Unicode.Scalar(byte)))'") }
                    index += 1
                    if closers.isEmpty { return }
                case UInt8(ascii: ","), 0x20, 0x09, 0x0D:
                    if closers.isEmpty { return }
                    index += 1
                case 0x0A:
                    if closers.isEmpty { return }
                    index += 1
                    line += 1
                    lineStart = index
                default:
                    index += 1
                }
            }
        }
        if !closers.isEmpty { throw error("expected the end of a value, found end of file", at: start) }
    }
}
