import AutomationSupport

/// sut-launch's own lines on stderr, each prefixed `sut-launch: `; and its stdout.
package enum Console {
    /// Set while `--format github` keeps everything inside its stop-commands block (see ``GitHubOutput``).
    private static let linesToStandardOutput = Locked(false)

    /// Writes `text` to stdout as it is.
    package static func out(_ text: String) { StandardStreams.out(text) }

    /// Writes `sut-launch: error: message` to stderr, on one line: control characters in it (an option's value,
    /// a file name) are written as escapes, so an error cannot retitle a terminal or forge a CI log line.
    package static func error(_ message: String) { write("sut-launch: error: " + message.escapingControlCharacters() + "\n") }

    /// Writes `sut-launch: message` to stderr (to stdout while ``redirectLinesToStandardOutput(_:)`` is on);
    /// control characters other than LF are written as escapes (data inside a line is escaped where the line
    /// is composed: see `escapingControlCharacters(keepingLineBreaks:)`).
    package static func line(_ message: String) {
        write("sut-launch: " + message.escapingControlCharacters(keepingLineBreaks: true) + "\n")
    }

    /// After `option`'s file was written at `path`: a warning when its directory was renamed or replaced during the
    /// run (``OutputFile/displaced(_:)``), so the file is not where the path leads now. The exit code stays.
    package static func warnIfDisplaced(_ option: String, _ path: String) {
        if let moved = OutputFile.displaced(path) { line(("warning: \(option) \(path): " + moved).escapingControlCharacters()) }
    }

    /// Writes `text` (lines the caller composed and escaped: a program's output tail under an error) where
    /// ``line(_:)`` writes: under GitHub Actions inside the stop-commands block on stdout, so no line of it can be a
    /// workflow command.
    package static func details(_ text: String) { write(text) }

    private static func write(_ text: String) {
        if linesToStandardOutput.current { StandardStreams.out(text) } else { StandardStreams.error(text) }
    }

    /// Sends ``line(_:)`` to stdout (true) or back to stderr.
    package static func redirectLinesToStandardOutput(_ on: Bool) { linesToStandardOutput.withLock { $0 = on } }
}
