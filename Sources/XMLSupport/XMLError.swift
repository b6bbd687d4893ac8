/// Why XML could not be parsed or an XPath expression compiled, or why libxml2 is not there: one line.
package struct XMLError: Error, Sendable, CustomStringConvertible {
    package let message: String
    /// True when an XPath evaluation was stopped at its CPU limit or libxml2's operation limit (the caller's budget is
    /// spent, not the XML or the expression wrong).
    package let stoppedAtLimit: Bool

    package init(_ message: String, stoppedAtLimit: Bool = false) {
        self.message = message
        self.stoppedAtLimit = stoppedAtLimit
    }

    package var description: String { message }
}
