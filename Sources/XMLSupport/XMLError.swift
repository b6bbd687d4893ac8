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

    /// True when the XML was refused for one of this reader's limits (libxml2's 256 levels of nesting and 10 MB text
    /// nodes, 16 MiB, 1,000 attributes on an element), not for breaking XML's rules: WireMock's reader takes such XML.
    package var isReadersLimit: Bool {
        message.contains("Excessive depth") || message.contains("XML_PARSE_HUGE") || message.contains("huge")
            || message.hasPrefix("XML larger than") || message.hasPrefix("an element with more than")
    }
}
