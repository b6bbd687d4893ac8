/// Why a step did not pass: an assertion that failed, or something that kept the scenario from running.
package struct StepFailure: Error, Sendable, CustomStringConvertible {
    /// Failure or error, as JUnit reports them.
    package enum Kind: String, Sendable {
        /// An expectation did not hold (JUnit `<failure>`).
        case failure
        /// The scenario could not run: undefined step, program not found (JUnit `<error>`).
        case error
    }
    /// Failure or error.
    package var kind: Kind
    /// What went wrong, for the report.
    package var message: String
    /// A step failure of this kind saying `message`.
    package init(_ message: String, kind: Kind = .failure) {
        self.kind = kind
        self.message = message
    }
    package var description: String { message }
}
