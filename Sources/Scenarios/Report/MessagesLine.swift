import AutomationSupport

/// The fast path of ``MessagesReader``: one line of Cucumber Messages read byte by byte, keeping of its envelope
/// only the members the reader uses (``MessagesFields``) and checking every other byte as strictly as
/// ``JSONParser`` does without building anything: no node, no string, no allocation for what no report shows (the
/// feature's text, locations, step definitions, step starts: most of a file's bytes). What it keeps is a flat list
/// pointing into the file (``MessagesValues``), read through ``MessagesValue``.
///
/// Anything it does not read the plain way ends it with nil, and the reader parses that line with ``JSONParser``,
/// which says what is wrong (the same messages as ever) or reads what is unusual but valid: any error, a byte order
/// mark, a member name with an escape or a byte beyond ASCII, an object of more than 32 members.
struct MessagesLine {
    /// Why a line left the fast path: the reader finds out with ``JSONParser``.
    struct Stop: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var end = 0
    private var depth = 0
    /// The member names of the objects open, to refuse a name given twice (as ``JSONParser`` does).
    private var keys: [Range<Int>] = []
    /// What is kept of the line read last.
    private let values: MessagesValues

    /// - Parameters:
    ///   - bytes: the whole file; ``envelope(_:)`` reads one line of it, ``value(_:)`` one value.
    ///   - values: where the kept values go (one list can serve scanners that never read at once).
    init(_ bytes: UnsafeBufferPointer<UInt8>, values: MessagesValues = MessagesValues()) {
        self.bytes = bytes
        self.values = values
        keys.reserveCapacity(64)
    }

    /// The envelope on `line` (its bytes without the line feed): its key, and the members of its value the reader
    /// uses (`null` for an envelope no report reads), valid until the next line is read. Nil: the line is not
    /// read here.
    mutating func envelope(_ line: Range<Int>) -> (key: String, value: MessagesValue)? {
        start(line)
        var found: String?
        do throws(Stop) {
            whitespace()
            guard index < end, bytes[index] == UInt8(ascii: "{") else { throw Stop() }
            try members { (line: inout MessagesLine, key: Range<Int>) throws(Stop) in
                // A second member is not an envelope: JSONParser's path says so.
                guard found == nil, let at = line.find(key, in: MessagesFields.envelopes) else { throw Stop() }
                let kind = MessagesFields.envelopes[at]
                found = kind.name
                if kind.skip {
                    try line.skip()
                    _ = line.values.append(.init(key: 0, keyCount: 0, kind: .null, size: 1, payload: 0, count: 0))
                } else {
                    try line.node(kind.keep, key: 0..<0)
                }
            }
            whitespace()
            guard index == end else { throw Stop() }
        } catch { return nil }
        return found.map { ($0, view) }
    }

    /// The one JSON value in `range`, whole, valid until the next line or value is read. Nil: not read here.
    mutating func value(_ range: Range<Int>) -> MessagesValue? {
        start(range)
        do throws(Stop) {
            whitespace()
            try node(nil, key: 0..<0)
            whitespace()
            guard index == end else { throw Stop() }
        } catch { return nil }
        return view
    }

    private mutating func start(_ range: Range<Int>) {
        index = range.lowerBound
        end = range.upperBound
        depth = 0
        keys.removeAll(keepingCapacity: true)
        values.removeAll()
    }

    private var view: MessagesValue { MessagesValue(entries: values.entries, bytes: bytes.baseAddress!, at: 0) }

    /// Keeps a value whole (`keep` nil), or only the members `keep` names (of it, or of each element of an array):
    /// the value of the member named by the bytes of `key` (empty: an element, or the line's value).
    private mutating func node(_ keep: MessagesFields?, key: Range<Int>) throws(Stop) {
        guard index < end else { throw Stop() }
        var entry = MessagesValues.Entry(key: key.lowerBound, keyCount: Int32(key.count), kind: .null, size: 1, payload: 0, count: 0)
        switch bytes[index] {
        case UInt8(ascii: "{"):
            entry.kind = .object
            let at = values.append(entry)
            var kept = 0
            try members { (line: inout MessagesLine, key: Range<Int>) throws(Stop) in
                guard let keep else {
                    kept += 1
                    return try line.node(nil, key: key)
                }
                guard let at = line.find(key, in: keep.fields) else { return try line.skip() }
                kept += 1
                try line.node(keep.fields[at].keep, key: key)
            }
            values.close(at, members: kept)
        case UInt8(ascii: "["):
            entry.kind = .array
            let at = values.append(entry)
            var kept = 0
            try self.elements { (line: inout MessagesLine) throws(Stop) in
                kept += 1
                try line.node(keep, key: 0..<0)
            }
            values.close(at, members: kept)
        case UInt8(ascii: "\""):
            let (content, escaped) = try stringSpan()
            entry.kind = escaped ? .escaped : .string
            entry.payload = content.lowerBound
            entry.count = Int32(content.count)
            _ = values.append(entry)
        default:
            try scalar(&entry)
            _ = values.append(entry)
        }
    }

    /// Checks a value and steps over it: nothing is built.
    private mutating func skip() throws(Stop) {
        guard index < end else { throw Stop() }
        switch bytes[index] {
        case UInt8(ascii: "{"): try members { (line: inout MessagesLine, _: Range<Int>) throws(Stop) in try line.skip() }
        case UInt8(ascii: "["): try elements { (line: inout MessagesLine) throws(Stop) in try line.skip() }
        case UInt8(ascii: "\""): _ = try stringSpan()
        default:
            var entry = MessagesValues.Entry(key: 0, keyCount: 0, kind: .null, size: 1, payload: 0, count: 0)
            try scalar(&entry)
        }
    }

    /// An object's members, `{` to `}`: `each` reads (or skips) the value of the member it is given the name of.
    private mutating func members(_ each: (inout MessagesLine, Range<Int>) throws(Stop) -> Void) throws(Stop) {
        let base = keys.count
        if try open(UInt8(ascii: "}")) { return }
        while true {
            whitespace()
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw Stop() }
            let (key, escaped) = try stringSpan()
            // Names with escapes or beyond ASCII (JSONParser compares names as Strings: "é" and "e\u{301}" are one
            // name, and so are two bytes of invalid UTF-8), and large objects (a set, not a scan, finds a name given
            // twice): JSONParser's.
            guard !escaped, keys.count - base < 32, !bytes[key].contains(where: { $0 >= 0x80 }) else { throw Stop() }
            for earlier in base..<keys.count where same(keys[earlier], key) { throw Stop() }
            keys.append(key)
            whitespace()
            guard index < end, bytes[index] == UInt8(ascii: ":") else { throw Stop() }
            index += 1
            whitespace()
            try each(&self, key)
            guard try next(UInt8(ascii: "}")) else { continue }
            keys.removeSubrange(base...)
            depth -= 1
            return
        }
    }

    /// An array's elements, `[` to `]`: `each` reads (or skips) each.
    private mutating func elements(_ each: (inout MessagesLine) throws(Stop) -> Void) throws(Stop) {
        if try open(UInt8(ascii: "]")) { return }
        while true {
            whitespace()
            try each(&self)
            guard try next(UInt8(ascii: "]")) else { continue }
            depth -= 1
            return
        }
    }

    /// Steps into an object or an array (no deeper than ``JSONParser`` goes): true when it is empty, its closing
    /// byte stepped over.
    private mutating func open(_ closing: UInt8) throws(Stop) -> Bool {
        index += 1
        depth += 1
        guard depth <= JSONParser.maxDepth else { throw Stop() }
        whitespace()
        guard index < end, bytes[index] == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or an element: true at the closing byte (stepped over), false after a comma.
    private mutating func next(_ closing: UInt8) throws(Stop) -> Bool {
        whitespace()
        guard index < end else { throw Stop() }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return false }
        guard byte == closing else { throw Stop() }
        return true
    }

    private mutating func whitespace() {
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
    }

    /// A member name's length and first 8 bytes: most names are told apart by it, with no bytes compared.
    struct KeyTag: Equatable, Sendable {
        let count: Int
        let prefix: UInt64

        init(_ key: UnsafeBufferPointer<UInt8>) {
            count = key.count
            var prefix: UInt64 = 0
            for offset in 0..<min(count, 8) { prefix |= UInt64(key[offset]) << (offset * 8) }
            self.prefix = prefix
        }
    }

    /// Where the member named by the bytes of `key` is among `fields`.
    private func find(_ key: Range<Int>, in fields: [MessagesFields.Field]) -> Int? {
        let tag = KeyTag(UnsafeBufferPointer(rebasing: bytes[key]))
        for at in fields.indices where fields[at].tag == tag {
            if tag.count <= 8 || fields[at].key.withUnsafeBufferPointer({ same(key.lowerBound, $0.baseAddress!, tag.count) }) { return at }
        }
        return nil
    }

    private func same(_ range: Range<Int>, _ other: Range<Int>) -> Bool {
        range.count == other.count && same(range.lowerBound, bytes.baseAddress! + other.lowerBound, range.count)
    }

    /// Whether the `count` bytes at `start` are those at `other`.
    private func same(_ start: Int, _ other: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for offset in 0..<count where bytes[start + offset] != other[offset] { return false }
        return true
    }

    /// Checks a string (escapes, control characters, its end) and steps over it: where its content lies, and
    /// whether it has escapes.
    private mutating func stringSpan() throws(Stop) -> (content: Range<Int>, escaped: Bool) {
        index += 1
        let start = index
        var escaped = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<index - 1, escaped)
            }
            guard byte >= 0x20 else { throw Stop() }
            index += 1
            guard byte == UInt8(ascii: "\\") else { continue }
            escaped = true
            guard index < end else { throw Stop() }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                // Four checks, not a slice's allSatisfy (unspecialised, it cost a metadata lookup per escape).
                guard end - index > 4, Self.isHex(bytes[index + 1]), Self.isHex(bytes[index + 2]), Self.isHex(bytes[index + 3]),
                    Self.isHex(bytes[index + 4])
                else { throw Stop() }
                index += 5
            default: throw Stop()
            }
        }
        throw Stop()
    }

    /// The four hex digits at `at` (checked by ``stringSpan()``).
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[at..<at + 4] {
            let digit = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// The bytes of the string whose content (checked by ``stringSpan()``) is `content`, escapes decoded as
    /// ``JSONParser`` decodes them (a surrogate pair is one character, a lone surrogate U+FFFD). Invalid UTF-8 is
    /// kept as it is (read as U+FFFD, as ``JSONParser`` reads it).
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> [UInt8] {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(content.count)
        var at = content.lowerBound
        while at < content.upperBound {
            let byte = bytes[at]
            at += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(bytes, at)
                at += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // As JSONParser: a `\u` after a high surrogate is taken with it, a pair or U+FFFD.
                    if content.upperBound - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        let second = hex4(bytes, at + 2)
                        at += 6
                        scalar = (0xDC00...0xDFFF).contains(second) ? 0x10000 + ((scalar - 0xD800) << 10) + (second - 0xDC00) : 0xFFFD
                    } else {
                        scalar = 0xFFFD
                    }
                }
                utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")!)
            default: utf8.append(escape) // \" \\ \/
            }
        }
        return utf8
    }

    /// A number, `true`, `false` or `null`, checked as ``JSONParser`` checks it (a number out of a Double's range
    /// included).
    private mutating func scalar(_ entry: inout MessagesValues.Entry) throws(Stop) {
        for (word, kind) in Self.words where bytes[index] == word[0] {
            guard end - index >= word.count, UnsafeBufferPointer(rebasing: bytes[index..<index + word.count]).elementsEqual(word) else {
                throw Stop()
            }
            index += word.count
            entry.kind = kind
            return
        }
        let begin = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit() else { throw Stop() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            guard !digit() else { throw Stop() } // a leading zero
        } else {
            while digit() { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            integral = false
            try digits(after: 1)
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            try digits(after: index + 1 < end && (bytes[index + 1] == UInt8(ascii: "+") || bytes[index + 1] == UInt8(ascii: "-")) ? 2 : 1)
        }
        if integral, index - begin <= 18 { // fits an Int without overflow checks
            var number = 0
            for position in (bytes[begin] == UInt8(ascii: "-") ? begin + 1 : begin)..<index {
                number = number * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            }
            entry.kind = .int
            entry.payload = bytes[begin] == UInt8(ascii: "-") ? -number : number
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<index]), as: UTF8.self)
        if integral, let number = Int(text) {
            entry.kind = .int
            entry.payload = number
            return
        }
        guard let number = Double(text), number.isFinite else { throw Stop() }
        entry.kind = .double
        entry.payload = Int(bitPattern: UInt(number.bitPattern))
    }

    private static let words: [([UInt8], MessagesValues.Entry.Kind)] = [
        (Array("true".utf8), .yes), (Array("false".utf8), .no), (Array("null".utf8), .null),
    ]

    private func digit() -> Bool {
        index < end && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
    }

    /// Steps over `skip` bytes (`.`, `e`, `e+`), then one digit or more.
    private mutating func digits(after skip: Int) throws(Stop) {
        index += skip
        guard digit() else { throw Stop() }
        while digit() { index += 1 }
    }
}
