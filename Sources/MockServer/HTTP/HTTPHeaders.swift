import AutomationSupport

/// Header fields in the order received; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var entries: [(name: String, value: String)] = []

    /// Fields in this order.
    public init(_ entries: [(name: String, value: String)] = []) { self.entries = entries }
    public init(dictionaryLiteral elements: (String, String)...) { self.entries = elements.map { (name: $0.0, value: $0.1) } }

    /// The first value of the named field, nil when absent.
    public subscript(name: String) -> String? {
        entries.first { $0.name.equalsIgnoringCase(name) }?.value
    }

    /// Every value of the named field, in order.
    public func values(_ name: String) -> [String] {
        entries.filter { $0.name.equalsIgnoringCase(name) }.map(\.value)
    }

    /// True when a field of that name is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any of the same name.
    public mutating func add(_ name: String, _ value: String) { entries.append((name: name, value: value)) }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        entries.removeAll { $0.name.equalsIgnoringCase(name) }
        entries.append((name: name, value: value))
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
