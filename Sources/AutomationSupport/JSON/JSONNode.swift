/// A line and column (both from 1) in a text file.
package struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    package var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it stood, so stub and flag files can name the line of a bad key.
package struct JSONNode: Sendable, Hashable {
    package enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// An integral literal that fits an Int.
        case int(Int)
        case double(Double)
        case string(String)
        case array([JSONNode])
        /// Members in file order; a duplicate key is reported by the parser.
        case object([Member])
    }

    package struct Member: Sendable, Hashable {
        package var key: String
        package var keyPosition: SourcePosition
        package var value: JSONNode

        package init(key: String, keyPosition: SourcePosition, value: JSONNode) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    package var value: Value
    package var position: SourcePosition
    /// For a ``Value/double(_:)`` read from a literal the Double does not hold (`18446744073709551615`, `1e-400`,
    /// `0.30000000000000001`): the literal as written, which ``JSONWriter`` writes back instead of the rounded Double
    /// (a stub's `jsonBody` is served as written, as WireMock serves it). Nil for every other value.
    package var literal: String?

    package init(_ value: Value, at position: SourcePosition = SourcePosition(line: 1, column: 1)) {
        self.value = value
        self.position = position
    }

    /// The JSON type's name for messages: "object", "array", "string", "number", "boolean", "null".
    package var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    package var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }
    package var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }
    package var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }
    package var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }
    package var int: Int? {
        switch value {
        case .int(let number): number
        case .double(let number) where number.rounded() == number && abs(number) < 9e18: Int(number)
        default: nil
        }
    }
    package var double: Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// The member named `key`, if this is an object that has one.
    package subscript(key: String) -> JSONNode? {
        members.flatMap { Self.member(key, in: $0) }
    }

    /// The value of the member named `key` among `members`. Most lookups while loading stubs are for keys a route
    /// does not have; comparing lengths first keeps those from the full string comparison (thousands of routes
    /// load on the path to "ready").
    package static func member(_ key: String, in members: [Member]) -> JSONNode? {
        let length = key.utf8.count
        // Through the buffer: no copy (and no retain and release) of each member just to look at its key. Names are
        // compared byte for byte through their storage (a generic walk of two UTF8Views cost ~600 instructions a
        // lookup, a tenth of reading a report).
        return members.withUnsafeBufferPointer { buffer -> JSONNode? in
            for index in buffer.indices where buffer[index].key.utf8.count == length && same(buffer[index].key, key) {
                return buffer[index].value
            }
            return nil
        }
    }

    /// Whether two texts are the same bytes (of equal length).
    private static func same(_ one: String, _ other: String) -> Bool {
        let compared = one.utf8.withContiguousStorageIfAvailable { first in
            other.utf8.withContiguousStorageIfAvailable { second in
                first.indices.allSatisfy { first[$0] == second[$0] }
            }
        }
        return (compared ?? nil) ?? one.utf8.elementsEqual(other.utf8)
    }
}
