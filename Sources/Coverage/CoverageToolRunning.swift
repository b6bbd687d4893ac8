/// Runs an external tool (`llvm-profdata`, `llvm-cov`, `swift-demangle`) under a deadline with its output
/// bounded. Coverage uses the toolbox only; ProcessEngine implements this with its own launcher.
package protocol CoverageToolRunning: Sendable {
    /// Runs `path` with `arguments`, stdin `/dev/null`; stops it (SIGKILL) after `timeout`; keeps at most
    /// `outputLimit` bytes of stdout.
    func run(_ path: String, _ arguments: [String], timeout: Duration, outputLimit: Int) -> ToolOutput
}

/// What a tool did.
package struct ToolOutput: Sendable {
    /// Its exit code; nil when it could not start, died of a signal or was stopped.
    package var exitCode: Int32?
    /// Its stdout, up to the limit.
    package var stdout: [UInt8]
    /// True when stdout was longer than the limit (``stdout`` is then a prefix, never read as the whole).
    package var truncated: Bool
    /// The tail of its stderr, or why it could not start.
    package var stderr: String
    /// True when the deadline stopped it.
    package var timedOut: Bool

    package init(exitCode: Int32?, stdout: [UInt8], truncated: Bool = false, stderr: String, timedOut: Bool = false) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.truncated = truncated
        self.stderr = stderr
        self.timedOut = timedOut
    }

    /// Why the tool failed, in one line (its last stderr line), or nil when it exited 0 with its whole output.
    func failure(_ tool: String, limit: Int) -> String? {
        if timedOut { return "\(tool) did not finish within its deadline and was stopped" }
        if truncated { return "\(tool) wrote more than \(limit >> 20) MiB; the output was not read as a whole" }
        guard exitCode == 0 else {
            let last = stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
            return "\(tool) failed (\(exitCode.map { "exit \($0)" } ?? "no exit code")): \(last)"
        }
        return nil
    }
}
