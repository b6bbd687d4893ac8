import AutomationSupport
package import MockServer

/// A command-line mistake: unknown option, missing value, malformed flag. Exit code 2, nothing launched.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the option or argument it is about.
    package var message: String
    /// A usage error saying `message`.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Invalid content in a file the user named (flags, env, stubs, features). Exit code 3, nothing launched.
package typealias InputError = LocatedError
