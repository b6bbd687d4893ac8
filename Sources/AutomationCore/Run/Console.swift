import AutomationSupport

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `; and its stdout.
public enum Console {
    /// Set while `--format github` keeps everything inside its stop-commands block (see ``GitHubOutput``).
    private static let linesToStandardOutput = Locked(false)

    /// Writes `text` to stdout as it is.
    public static func out(_ text: String) { StandardStreams.out(text) }

    /// Writes `sut-launch: error: message` to stderr.
    public static func error(_ message: String) { line("error: " + message) }

    /// Writes `sut-launch: message` to stderr (to stdout while ``redirectLinesToStandardOutput(_:)`` is on).
    public static func line(_ message: String) {
        let text = "sut-launch: " + message + "\n"
        if linesToStandardOutput.current { StandardStreams.out(text) } else { StandardStreams.error(text) }
    }

    /// Sends ``line(_:)`` to stdout (true) or back to stderr.
    static func redirectLinesToStandardOutput(_ on: Bool) { linesToStandardOutput.withLock { $0 = on } }
}
