package import AutomationSupport

/// A command-line mistake: unknown option, missing value, malformed flag. Exit code 2, nothing launched.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the option or argument it is about.
    package var message: String
    /// A usage error saying `message`.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Invalid content in a file the user named (flags, env, stubs, features). Exit code 3, nothing launched.
package struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file at fault.
    package var file: String
    /// The line in it, when known.
    package var line: Int?
    /// The column in it, when known.
    package var column: Int?
    /// What is wrong, and the fix where there is one.
    package var message: String

    /// A problem in `file`, at `line`:`column` when known.
    package init(file: String, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    package init(file: String, position: SourcePosition, _ message: String) {
        self.init(file: file, line: position.line, column: position.column, message)
    }

    /// `file:line:column: message`, the form editors and CI annotators link.
    package var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
