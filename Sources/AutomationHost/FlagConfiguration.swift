#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One kind of flags (feature or automation) with typed access.
///
/// Every accessor returns nil when the key is absent or holds another JSON type: a missing or mistyped
/// flag is not an error, the program falls back to its default. A mistyped flag is a test that silently
/// tests the default (`-f skipPreActiveCheck=True` is the string "True"), so the bridge's configurations
/// say so on stderr, once per key: `AutomationBridge: feature flag skipPreActiveCheck is the string
/// "True", not a Bool; the program's default applies`.
public struct FlagConfiguration: Sendable, Hashable {
    /// All flags of this kind, by key.
    public let values: [String: FlagValue]
    /// "feature flag" or "automation flag" when mistyped reads are reported on stderr; nil: silent.
    let reportsMistypesAs: String?

    /// Wraps the given flags.
    public init(_ values: [String: FlagValue] = [:]) { self.init(values, reportsMistypesAs: nil) }

    init(_ values: [String: FlagValue], reportsMistypesAs kind: String?) {
        self.values = values
        self.reportsMistypesAs = kind
    }

    /// nil, after saying once on stderr that `key` holds another type than `expected` (when reporting).
    private func mistyped<T>(_ key: String, _ expected: String) -> T? {
        guard let kind = reportsMistypesAs, let value = values[key] else { return nil }
        MistypedFlags.report(kind: kind, key: key, value: value, expected: expected)
        return nil
    }

    /// The keys present, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// True when the key is present (with any value, null included).
    public func contains(_ key: String) -> Bool { values[key] != nil }

    /// The flag as a Bool; nil when absent or not a JSON boolean.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = values[key] { return value }
        return mistyped(key, "a Bool")
    }

    /// The flag as an Int; nil when absent or not an integral JSON number.
    public func int(_ key: String) -> Int? {
        switch values[key] {
        case .int(let value)?: return value
        case .double(let value)? where value.rounded() == value && abs(value) < 9.2e18: return Int(value)
        default: return mistyped(key, "an Int")
        }
    }

    /// The flag as a Double; nil when absent or not a JSON number (integers convert).
    public func double(_ key: String) -> Double? {
        switch values[key] {
        case .double(let value)?: return value
        case .int(let value)?: return Double(value)
        default: return mistyped(key, "a number")
        }
    }

    /// The flag as a String; nil when absent or not a JSON string.
    public func string(_ key: String) -> String? {
        if case .string(let value)? = values[key] { return value }
        return mistyped(key, "a String")
    }

    /// The flag's raw JSON value; nil when absent.
    public func json(_ key: String) -> FlagValue? { values[key] }

    /// Decodes the flag into a Codable type.
    /// - Returns: nil when the key is absent.
    /// - Throws: `DecodingError` when the value does not fit `type`.
    public func decode<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        guard let value = values[key] else { return nil }
        let data = Data(WireFormat.encodeValue(value).utf8)
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// Subscript access to the raw value.
    public subscript(key: String) -> FlagValue? { values[key] }
}

/// Says on stderr, once per flag, that it was read as another type.
private enum MistypedFlags {
    static func report(kind: String, key: String, value: FlagValue, expected: String) {
        let shown = WireFormat.encodeValue(value)
        let excerpt = shown.count <= 60 ? shown : String(shown.prefix(57)) + "..."
        HostStandardError.writeOnce(
            key: kind + "\u{0}" + key,
            "AutomationBridge: \(kind) \(key) is \(excerpt) (a JSON \(value.typeName)), not \(expected); the program's default applies\n")
    }
}
