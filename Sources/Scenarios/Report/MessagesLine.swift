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
    /// What is kept of the line read last.
    private let values: MessagesValues

    /// - Parameters:
    ///   - bytes: the whole file; ``envelope(_:)`` reads one line of it, ``value(_:)`` one value.
    ///   - values: where the kept values go (one list can serve scanners that never read at once).
    init(_ bytes: UnsafeBufferPointer<UInt8>, values: MessagesValues = MessagesValues()) {
        self.bytes = bytes
        self.values = values
    }

    /// The envelope on `line` (its bytes without the line feed): its key, and the members of its value the reader
    /// uses (`null` for an envelope no report reads), valid until the next line is read. Nil: the line is not
    /// read here.
    mutating func envelope(_ line: Range<Int>) -> (key: MessagesReader.Envelope, value: MessagesValue)? {
        start(line)
        let kind: MessagesReader.Envelope
        do throws(Stop) {
            // One object of one member (a second member is not an envelope: JSONParser's path says so).
            whitespace()
            guard index < end, bytes[index] == UInt8(ascii: "{") else { throw Stop() }
            index += 1
            depth = 1
            whitespace()
            let (key, tag) = try memberName(base: 0)
            guard let at = find(key, tag, in: MessagesFields.envelopes) else { throw Stop() }
            kind = MessagesFields.envelopeKinds[at]
            let envelope = MessagesFields.envelopes[at]
            if envelope.skip {
                try skip()
                _ = values.append(.init(key: 0, tag: .none, kind: .null, size: 1, payload: 0, count: 0))
            } else {
                try node(envelope.keep, key: 0, tag: .none)
            }
            whitespace()
            guard index < end, bytes[index] == UInt8(ascii: "}") else { throw Stop() }
            index += 1
            whitespace()
            guard index == end else { throw Stop() }
        } catch { return nil }
        return (kind, view)
    }

    /// The one JSON value in `range`, whole, valid until the next line or value is read. Nil: not read here.
    mutating func value(_ range: Range<Int>) -> MessagesValue? {
        start(range)
        do throws(Stop) {
            whitespace()
            try node(nil, key: 0, tag: .none)
            whitespace()
            guard index == end else { throw Stop() }
        } catch { return nil }
        return view
    }

    private mutating func start(_ range: Range<Int>) {
        index = range.lowerBound
        end = range.upperBound
        depth = 0
        values.removeAll()
    }

    private var view: MessagesValue { MessagesValue(entries: values.entries, bytes: bytes.baseAddress!, at: 0) }

    /// Keeps a value whole (`keep` nil), or only the members `keep` names (of it, or of each element of an array):
    /// the value of the member whose name is at `key` with `tag` (``KeyTag/none``: an element, or the line's value).
    private mutating func node(_ keep: MessagesFields?, key: Int, tag: KeyTag) throws(Stop) {
        guard index < end else { throw Stop() }
        var entry = MessagesValues.Entry(key: key, tag: tag, kind: .null, size: 1, payload: 0, count: 0)
        switch bytes[index] {
        case UInt8(ascii: "{"):
            entry.kind = .object
            let at = values.append(entry)
            let base = values.nameCount
            var kept = 0
            if try !open(UInt8(ascii: "}")) {
                repeat {
                    whitespace()
                    let (key, tag) = try memberName(base: base)
                    if let keep {
                        if let field = find(key, tag, in: keep.fields) {
                            kept += 1
                            try node(keep.fields[field].keep, key: key.lowerBound, tag: tag)
                        } else {
                            try skip()
                        }
                    } else {
                        kept += 1
                        try node(nil, key: key.lowerBound, tag: tag)
                    }
                } while try !next(UInt8(ascii: "}"))
                values.popNames(to: base)
                depth -= 1
            }
            values.close(at, members: kept)
        case UInt8(ascii: "["):
            entry.kind = .array
            let at = values.append(entry)
            var kept = 0
            if try !open(UInt8(ascii: "]")) {
                repeat {
                    whitespace()
                    kept += 1
                    try node(keep, key: 0, tag: .none)
                } while try !next(UInt8(ascii: "]"))
                depth -= 1
            }
            values.close(at, members: kept)
        case UInt8(ascii: "\""):
            let (content, escaped, _) = try stringSpan()
            entry.kind = escaped ? .escaped : .string
            entry.payload = content.lowerBound
            entry.count = Int32(content.count)
            _ = values.append(entry)
        default:
            try scalar(&entry)
            _ = values.append(entry)
        }
    }

    /// Checks a value and steps over it, nothing built: one loop over its bytes with the stack of what is open
    /// (``MessagesValues/frames``), no call per member or element. What it checks is what ``node(_:key:tag:)``
    /// checks of the same value.
    private mutating func skip() throws(Stop) {
        let floor = depth
        while true {
            // A value starts here.
            guard index < end else { throw Stop() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                let object = byte == UInt8(ascii: "{")
                index += 1
                depth += 1
                guard depth <= JSONParser.maxDepth else { throw Stop() }
                values.frames[depth] = object ? values.nameCount : -1
                whitespace()
                guard index < end else { throw Stop() }
                if bytes[index] != (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if object { _ = try memberName(base: values.nameCount) }
                    continue
                }
                index += 1 // empty
                depth -= 1
            } else if byte == UInt8(ascii: "\"") {
                _ = try stringSpan()
            } else {
                var entry = MessagesValues.Entry(key: 0, tag: .none, kind: .null, size: 1, payload: 0, count: 0)
                try scalar(&entry)
            }
            // A value ended: a comma, or the end of what holds it.
            while depth > floor {
                whitespace()
                guard index < end else { throw Stop() }
                let next = bytes[index]
                index += 1
                let frame = values.frames[depth]
                if next == UInt8(ascii: ",") {
                    whitespace()
                    if frame >= 0 { _ = try memberName(base: frame) }
                    break
                }
                guard next == (frame >= 0 ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw Stop() }
                if frame >= 0 { values.popNames(to: frame) }
                depth -= 1
            }
            if depth == floor { return }
        }
    }

    /// A member's name and its colon, up to its value: the name, checked not to be one the object has (its names
    /// are those pushed since `base`).
    @inline(__always)
    private mutating func memberName(base: Int) throws(Stop) -> (key: Range<Int>, tag: KeyTag) {
        guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw Stop() }
        let (key, escaped, high) = try stringSpan()
        // Names with escapes or beyond ASCII (JSONParser compares names as Strings: "é" and "e\u{301}" are one
        // name, and so are two bytes of invalid UTF-8), and large objects (a set, not a scan, finds a name given
        // twice): JSONParser's.
        guard !escaped, !high, values.nameCount - base < 32 else { throw Stop() }
        let tag = KeyTag(bytes, key)
        for earlier in base..<values.nameCount where values.names[earlier].tag == tag {
            if tag.count <= 8 || same(key.lowerBound, bytes.baseAddress! + values.names[earlier].start, tag.count) { throw Stop() }
        }
        values.pushName(key.lowerBound, tag)
        whitespace()
        guard index < end, bytes[index] == UInt8(ascii: ":") else { throw Stop() }
        index += 1
        whitespace()
        return (key, tag)
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

        /// The tag of the name at `key` in `bytes`: one load where eight bytes remain, its bytes past the name masked.
        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) {
            guard bytes.count - key.lowerBound >= 8 else {
                self.init(UnsafeBufferPointer(rebasing: bytes[key]))
                return
            }
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + key.lowerBound).loadUnaligned(as: UInt64.self))
            self.init(count: key.count, prefix: key.count >= 8 ? word : word & ((1 &<< (key.count &<< 3)) &- 1))
        }

        /// No name (an element's, or the line's value's).
        static let none = KeyTag(count: 0, prefix: 0)

        private init(count: Int, prefix: UInt64) {
            self.count = count
            self.prefix = prefix
        }
    }

    /// Where the member named by the bytes of `key` (whose tag is `tag`) is among `fields`.
    private func find(_ key: Range<Int>, _ tag: KeyTag, in fields: [MessagesFields.Field]) -> Int? {
        for at in fields.indices where fields[at].tag == tag {
            if tag.count <= 8 || fields[at].key.withUnsafeBufferPointer({ same(key.lowerBound, $0.baseAddress!, tag.count) }) { return at }
        }
        return nil
    }

    /// Whether the `count` bytes at `start` are those at `other`.
    private func same(_ start: Int, _ other: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for offset in 0..<count where bytes[start + offset] != other[offset] { return false }
        return true
    }

    /// Checks a string (escapes, control characters, its end) and steps over it: where its content lies, whether it
    /// has escapes, and whether it has a byte of 0x80 or above (``MessagesString``: eight bytes at a time).
    @inline(__always)
    private mutating func stringSpan() throws(Stop) -> (content: Range<Int>, escaped: Bool, high: Bool) {
        let start = index + 1
        guard let span = MessagesString.span(bytes, from: start, end: end) else { throw Stop() }
        index = span.closing + 1
        return (start..<span.closing, span.escaped, span.high)
    }

    /// A number, `true`, `false` or `null`, checked as ``JSONParser`` checks it (a number out of a Double's range
    /// included).
    private mutating func scalar(_ entry: inout MessagesValues.Entry) throws(Stop) {
        let word: (text: StaticString, kind: MessagesValues.Entry.Kind)? =
            switch bytes[index] {
            case UInt8(ascii: "t"): ("true", .yes)
            case UInt8(ascii: "f"): ("false", .no)
            case UInt8(ascii: "n"): ("null", .null)
            default: nil
            }
        if let word {
            let count = word.text.utf8CodeUnitCount
            guard end - index >= count, word.text.withUTF8Buffer({ same(index, $0.baseAddress!, count) }) else { throw Stop() }
            index += count
            entry.kind = word.kind
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
