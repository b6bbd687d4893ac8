package import AutomationSupport

/// A command-line mistake: unknown option, missing value, malformed flag. Exit code 2, nothing launched.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Invalid content in a file the user named (flags, env, stubs, features). Exit code 3, nothing launched.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    package init(file: String, position: SourcePosition, _ message: String) {
        self.init(file: file, line: position.line, column: position.column, message)
    }

    /// `file:line:column: message`, the form editors and CI annotators link.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
