package import AutomationSupport

/// A command-line mistake: unknown option, missing value, malformed flag. Exit code 2, nothing launched.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the option or argument it is about.
    public var message: String
    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Invalid content in a file the user named (flags, env, stubs, features). Exit code 3, nothing launched.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file at fault.
    public var file: String
    /// The line in it, when known.
    public var line: Int?
    /// The column in it, when known.
    public var column: Int?
    /// What is wrong, and the fix where there is one.
    public var message: String

    /// A problem in `file`, at `line`:`column` when known.
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
