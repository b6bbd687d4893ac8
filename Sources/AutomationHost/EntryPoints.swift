/// Named starting points a test selects with `sut-launch --entry-point NAME` (the jump-to-screen idea).
///
/// ```swift
/// var entryPoints = EntryPoints()
/// entryPoints.register("search") { runSearch() }
/// entryPoints.register("albums") { runAlbums() }
/// try entryPoints.run(AutomationBridge.shared, default: { runMainMenu() })
/// ```
public struct EntryPoints {
    /// The registered names, in registration order.
    public private(set) var names: [String] = []
    private var actions: [String: () throws -> Void] = [:]

    /// No entry points yet: ``register(_:_:)`` adds them.
    public init() {}

    /// Registers an entry point. A second registration of the same name replaces the first.
    public mutating func register(_ name: String, _ action: @escaping () throws -> Void) {
        if actions[name] == nil { names.append(name) }
        actions[name] = action
    }

    /// An entry point name that no registration matches.
    public struct UnknownEntryPoint: Error, CustomStringConvertible {
        /// The name asked for.
        public let name: String
        /// The names registered, to list in the message.
        public let known: [String]
        /// "unknown entry point …; known entry points: …".
        public var description: String {
            "unknown entry point \"\(name)\"; known entry points: \(known.joined(separator: ", "))"
        }
    }

    /// Runs the entry point the bridge names, or `default` when none is named.
    /// - Throws: ``UnknownEntryPoint`` when the bridge names one that is not registered, or what the action throws.
    public func run(_ bridge: AutomationBridge, default defaultAction: () throws -> Void) throws {
        guard let name = bridge.entryPoint else { return try defaultAction() }
        guard let action = actions[name] else { throw UnknownEntryPoint(name: name, known: names) }
        try action()
    }
}
