import AutomationSupport

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `; and its stdout.
public enum Console {
    /// Writes `text` to stdout as it is.
    public static func out(_ text: String) { StandardStreams.out(text) }

    /// Writes `sut-launch: error: message` to stderr.
    public static func error(_ message: String) { line("error: " + message) }

    /// Writes `sut-launch: message` to stderr.
    public static func line(_ message: String) { StandardStreams.error("sut-launch: " + message + "\n") }
}
