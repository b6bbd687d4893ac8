import AutomationSupport

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `; and its stdout.
public enum Console {
    /// Writes `text` to stdout as it is.
    public static func out(_ text: String) { StandardStreams.out(text) }

    /// Writes `sut-launch: error: message` to stderr, on one line: control characters in it (an option's value,
    /// a file name) are written as escapes, so an error cannot retitle a terminal or forge a CI log line.
    public static func error(_ message: String) { StandardStreams.error("sut-launch: error: " + message.escapingControlCharacters() + "\n") }

    /// Writes `sut-launch: message` to stderr; control characters other than LF are written as escapes (data
    /// inside a line is escaped where the line is composed: see ``Swift/StringProtocol/escapingControlCharacters(keepingLineBreaks:)``).
    public static func line(_ message: String) {
        StandardStreams.error("sut-launch: " + message.escapingControlCharacters(keepingLineBreaks: true) + "\n")
    }
}
