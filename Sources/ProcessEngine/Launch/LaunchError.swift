/// Why a program could not be started. A program that starts and fails is a ``ProcessStatus``, not this.
public struct LaunchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; each maps to the shell's exit code.
    public enum Code: Sendable, Hashable {
        /// Not found (exit 127).
        case notFound
        /// Found but not executable (exit 126).
        case notExecutable
        /// Any other reason: bad working directory, no pipes, spawn failure (exit 125).
        case cannotLaunch
    }

    /// Which failure: it decides the exit code.
    public let code: Code
    /// One line naming the program and the reason.
    public let message: String

    /// A launch error of this kind, saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The exit code sut-launch reports for this failure.
    public var exitCode: Int32 {
        switch code {
        case .notFound: ExitCode.notFound
        case .notExecutable: ExitCode.notExecutable
        case .cannotLaunch: ExitCode.cannotLaunch
        }
    }

    public var description: String { message }
}
