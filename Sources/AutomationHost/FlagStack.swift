import DecimalLiterals
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Layers of flag values, consulted in order: the first layer that holds a key wins.
///
/// The usual stack is ephemeral flags > environment > JSON file > defaults, like a tweak manager:
/// ```swift
/// let flags = FlagStack([
///     .configuration("ephemeral", AutomationBridge.shared.ephemeralConfiguration),
///     .environment(prefix: "MYAPP_"),
///     try .jsonFile("/etc/myapp/flags.json"),
///     .defaults(["greeting": "hello"]),
/// ])
/// flags.string("greeting")   // "hi" when launched with --flag greeting=hi
/// ```
public struct FlagStack: Sendable {
    /// One layer: a name (for ``source(of:)``) and its values.
    public struct Layer: Sendable {
        /// Where the values come from ("launch", "runtime", a test's own name), as ``source(of:)`` reports it.
        public var name: String
        /// The flags this layer sets.
        public var values: [String: FlagValue]

        /// A layer named `name` holding `values`.
        public init(name: String, values: [String: FlagValue]) {
            self.name = name
            self.values = values
        }

        /// A layer from a flag configuration.
        public static func configuration(_ name: String, _ configuration: FlagConfiguration) -> Layer {
            Layer(name: name, values: configuration.values)
        }

        /// Fixed defaults.
        public static func defaults(_ values: [String: FlagValue]) -> Layer { Layer(name: "defaults", values: values) }

        /// Environment variables starting with `prefix`, key = the rest of the name; values inferred like
        /// `--flag key=value` (true/false, integers, decimals, else strings).
        public static func environment(prefix: String, _ environment: [String: String]? = nil) -> Layer {
            let environment = environment ?? ProcessInfo.processInfo.environment
            var values: [String: FlagValue] = [:]
            for (name, text) in environment where name.hasPrefix(prefix) && name.count > prefix.count {
                values[String(name.dropFirst(prefix.count))] = FlagValue.inferred(from: text)
            }
            return Layer(name: "environment", values: values)
        }

        /// A JSON file holding one object.
        /// - Throws: when the file cannot be read or is not a JSON object.
        public static func jsonFile(_ path: String) throws -> Layer {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            switch WireFormat.decodeObject(String(decoding: data, as: UTF8.self), source: path) {
            case .success(let values): return Layer(name: path, values: values)
            case .failure(let problem): throw problem
            }
        }
    }

    /// The layers, highest precedence first.
    public let layers: [Layer]

    /// A stack of layers, highest precedence first.
    public init(_ layers: [Layer]) { self.layers = layers }

    /// The value from the first layer holding `key`.
    public func value(_ key: String) -> FlagValue? {
        for layer in layers { if let value = layer.values[key] { return value } }
        return nil
    }

    /// The name of the layer that supplies `key`; nil when no layer does.
    public func source(of key: String) -> String? { layers.first { $0.values[key] != nil }?.name }

    /// The first layer holding `key`, read as a Bool; nil when that value is another type (the program's default
    /// applies, never a lower layer's value: `flag set greeting:=5` over `-f greeting=hi` read back as "hi").
    public func bool(_ key: String) -> Bool? { first(key) { FlagConfiguration($0).bool(key) } }
    /// The first layer holding `key`, read as an Int (nil when it is another type).
    public func int(_ key: String) -> Int? { first(key) { FlagConfiguration($0).int(key) } }
    /// The first layer holding `key`, read as a number (nil when it is another type).
    public func double(_ key: String) -> Double? { first(key) { FlagConfiguration($0).double(key) } }
    /// The first layer holding `key`, read as a String (nil when it is another type).
    public func string(_ key: String) -> String? { first(key) { FlagConfiguration($0).string(key) } }

    private func first<T>(_ key: String, _ read: ([String: FlagValue]) -> T?) -> T? {
        layers.first { $0.values[key] != nil }.flatMap { read($0.values) }
    }
}

extension FlagValue {
    /// Infers a value from command-line text: `true`/`false` → Bool, a JSON number → Int or Double, anything else →
    /// String (the `key=value` rule of `sut-launch --flag`). A JSON number that would not arrive as written
    /// (`1e400`, `2e-324`, `1.0000000000000000001`, `9223372036854775808`, `-0`) is kept as the String written,
    /// never rounded: the CLI and `flag set` refuse it (``inferredProblem(key:text:)``); an environment layer keeps the text.
    public static func inferred(from text: String) -> FlagValue {
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        switch DecimalLiteral.inferred(text) {
        case .integer(let value): return .int(value)
        case .decimal(let value): return .double(value)
        case .text, .refused: return .string(text)
        }
    }

    /// Why `key=text` (`-f`, a flag step, `flag set`) would not give the program what was written: a JSON number it
    /// cannot keep exactly (rounded, underflowing to 0, out of range, past 64 bits, `-0`), in the words `key:=JSON`
    /// uses, with the way to send the text; nil when the value is what was written. One rule for the CLI and the Host library.
    package static func inferredProblem(key: String, text: String) -> String? {
        guard case .refused(let problem) = DecimalLiteral.inferred(text) else { return nil }
        let shown = text.count > 80 ? text.prefix(40) + "…" : Substring(text)
        return "'\(key)=\(shown)': \(problem); send it as text with \(key):='\"\(shown)\"'"
    }
}

/// Flags a test sets or clears while the program runs (the control channel's ``ControlCommand/setFlag(_:_:)``
/// and ``ControlCommand/clearFlag(_:)``): put ``FlagStack/Layer/runtime(_:)`` on top of a ``FlagStack`` and
/// rebuild the stack after each change, and a test changes state without a relaunch.
public final class RuntimeFlags: Sendable {
    /// The process's runtime flags.
    public static let shared = RuntimeFlags()

    private let queue = DispatchQueue(label: "sut-launch.runtime-flags")
    nonisolated(unsafe) private var storage: [String: FlagValue] = [:] // only touched on `queue`

    /// Empty runtime flags (tests make their own; the program uses ``shared``).
    public init() {}

    /// The flags set now.
    public var values: [String: FlagValue] { queue.sync { storage } }

    /// Sets `key` to `value`, replacing what was there.
    public func set(_ key: String, _ value: FlagValue) { queue.sync { storage[key] = value } }

    /// Removes `key`: lower layers of a ``FlagStack`` show through again.
    public func clear(_ key: String) { queue.sync { _ = storage.removeValue(forKey: key) } }

    /// Applies a `flag set` / `flag clear` command; false for any other command (an entry point is the program's).
    @discardableResult
    public func apply(_ command: ControlCommand) -> Bool {
        switch command {
        case .setFlag(let key, let value): set(key, value)
        case .clearFlag(let key): clear(key)
        case .entryPoint: return false
        }
        return true
    }
}

extension FlagStack.Layer {
    /// The runtime flags as they are now, as a layer named "runtime" (put it first: it wins).
    public static func runtime(_ flags: RuntimeFlags = .shared) -> FlagStack.Layer {
        FlagStack.Layer(name: "runtime", values: flags.values)
    }
}
