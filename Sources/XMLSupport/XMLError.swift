/// Why XML could not be parsed or an XPath expression compiled, or why libxml2 is not there: one line.
package struct XMLError: Error, Sendable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
