package import AutomationSupport

/// A problem in a file the user named, with where it is: `routes.json:12:7: unknown key "stauts"; did you mean
/// "status"?`. The one located-error type: stub and mapping files (MockServer's `StubError`), flags and dotenv files
/// (`InputError`) and feature files (`GherkinError`) all report through it, in the form editors and CI annotators link.
/// It lives here, in a library product, because it is public: an embedder catches it from ``StubLoader``.
public struct LocatedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or directory) at fault.
    public var file: String
    /// The line in it, when known (from 1).
    public var line: Int?
    /// The column in it, when known (from 1).
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

    /// A problem at a position a parser read.
    package init(file: String, position: SourcePosition, _ message: String) {
        self.init(file: file, line: position.line, column: position.column, message)
    }

    /// `file:line:column: message` (the parts that are known).
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
