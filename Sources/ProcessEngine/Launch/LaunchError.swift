/// Why a program could not be started. A program that starts and fails is a ``ProcessStatus``, not this.
package struct LaunchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; each maps to the shell's exit code.
    package enum Code: Sendable, Hashable {
        /// Not found (exit 127).
        case notFound
        /// Found but not executable (exit 126).
        case notExecutable
        /// Any other reason: bad working directory, no pipes, spawn failure (exit 125).
        case cannotLaunch
    }

    /// Which failure: it decides the exit code.
    package let code: Code
    /// One line naming the program and the reason.
    package let message: String

    /// A launch error of this kind, saying `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The exit code sut-launch reports for this failure.
    package var exitCode: Int32 {
        switch code {
        case .notFound: ExitCode.notFound
        case .notExecutable: ExitCode.notExecutable
        case .cannotLaunch: ExitCode.cannotLaunch
        }
    }

    package var description: String { message }
}
