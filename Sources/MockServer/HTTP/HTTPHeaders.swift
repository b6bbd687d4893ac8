import AutomationSupport

/// Header fields in the order received; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var entries: [(name: String, value: String)] = []
    /// Whether every name is ASCII (always, for fields read from the wire), so that lookups by an ASCII name can
    /// compare lengths first. False is always safe (the general comparison).
    private var asciiNames = true

    /// Fields in this order.
    public init(_ entries: [(name: String, value: String)] = []) {
        self.entries = entries
        asciiNames = entries.allSatisfy(\.name.isASCII)
    }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements.map { (name: $0.0, value: $0.1) }) }

    /// The first value of the named field, nil when absent.
    public subscript(name: String) -> String? {
        let ascii = asciiNames && name.isASCII
        for entry in entries where Self.same(entry.name, name, ascii: ascii) { return entry.value }
        return nil
    }

    /// The first value of the named field and whether another follows: a matcher of one value needs no array
    /// of them when the field comes once (an array per lookup was a tenth of a header matcher's work; callgrind).
    package func first(_ name: String) -> (value: String?, repeated: Bool) {
        let ascii = asciiNames && name.isASCII
        var found: String?
        for entry in entries where Self.same(entry.name, name, ascii: ascii) {
            if found != nil { return (found, true) }
            found = entry.value
        }
        return (found, false)
    }

    /// Every value of the named field, in order.
    public func values(_ name: String) -> [String] {
        let ascii = asciiNames && name.isASCII
        var result: [String] = []
        for entry in entries where Self.same(entry.name, name, ascii: ascii) { result.append(entry.value) }
        return result
    }

    private static func same(_ name: String, _ other: String, ascii: Bool) -> Bool {
        ascii ? name.equalsIgnoringASCIICase(other) : name.equalsIgnoringCase(other)
    }

    /// True when a field of that name is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any of the same name.
    public mutating func add(_ name: String, _ value: String) {
        let ascii = asciiNames && name.isASCII
        entries.append((name: name, value: value))
        asciiNames = ascii
    }

    /// Sets each field in turn as ``set(_:_:)`` does (a name given again, in any case, replaces the one before), in
    /// one pass: field by field, a response's thousands of headers cost their count squared.
    package mutating func set(each fields: [(name: String, value: String)]) {
        var last: [String: Int] = [:]
        for (position, field) in fields.enumerated() { last[field.name.lowercased()] = position }
        entries.removeAll { last[$0.name.lowercased()] != nil }
        for (position, field) in fields.enumerated() where last[field.name.lowercased()] == position { add(field.name, field.value) }
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        entries.removeAll { $0.name.equalsIgnoringCase(name) }
        add(name, value)
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { entries.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.name)
            hasher.combine(entry.value)
        }
    }
}
