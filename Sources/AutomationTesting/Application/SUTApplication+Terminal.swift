public import ProcessEngine
import Scenarios

/// Where a program's stdin, stdout and stderr go.
public enum ProgramTerminal: Sendable, Hashable {
    /// Pipes: stdout and stderr apart, `isatty` false (the default).
    case pipes
    /// A pseudo-terminal of this size: the program's controlling terminal, `isatty` true, one output stream.
    case pseudo(columns: Int = 80, rows: Int = 24)
}

extension SUTApplication {
    /// What the pseudo-terminal shows now (launched with `terminal: .pseudo`): the output interpreted as a
    /// terminal would (cursor movement, erasing, scrolling), rows joined with "\n", trailing blanks removed.
    public var screenText: String { screen().text }

    /// The screen as a value (rows, cursor), for finer checks than ``screenText``.
    public func screen() -> TerminalScreen {
        guard case .pseudo(let columns, let rows) = terminal else { return TerminalScreen(TerminalSize(columns: 1, rows: 1)) }
        return TerminalScreen(TerminalSize(columns: columns, rows: rows), output: Array(output().utf8))
    }

    /// Waits until the screen shows `text` (on one row, as rendered).
    /// - Throws: ``AutomationError`` with the screen when it does not within `timeout`.
    public func waitForScreen(containing text: String, timeout: Duration? = nil) async throws {
        guard case .pseudo(let columns, let rows) = terminal else {
            throw AutomationError("waitForScreen needs SUTApplication(executable:terminal: .pseudo()); this one runs on pipes")
        }
        let size = TerminalSize(columns: columns, rows: rows)
        do {
            try await waitForOutput(
                satisfying: { TerminalScreen(size, output: Array($0.utf8)).text.contains(text) ? text : nil },
                timeout: timeout, what: "the screen to show \"\(text)\"")
        } catch let error as AutomationError {
            throw AutomationError(
                error.message.split(separator: "\n", maxSplits: 1).first.map(String.init).map {
                    "\($0)\n--- screen (\(columns)x\(rows)) ---\n\(screenText)"
                } ?? error.message)
        }
    }

    /// Presses a key on the program's terminal (or writes its bytes to stdin on pipes).
    public func press(_ key: TerminalKey) throws {
        let bytes = key.bytes
        guard !bytes.isEmpty else { throw AutomationError("\(key) is not a key a terminal can send") }
        try type(String(decoding: bytes, as: UTF8.self))
    }

    /// Resizes the program's terminal; it gets SIGWINCH.
    public func resize(columns: Int, rows: Int) throws {
        do {
            try runningProcess().resizeTerminal(TerminalSize(columns: columns, rows: rows))
        } catch {
            throw AutomationError("cannot resize the terminal of \(executable): \(error) (launched with terminal: .pseudo?)")
        }
    }
}

extension SUTApplication {
    /// Refuses what a wait could never see (round 4b W, V): stderr in a pseudo-terminal (the program's stderr is the
    /// terminal then, written with its stdout: a wait for its absence would pass on what it never read), and an
    /// expected text or line pattern that matches empty text (found in any output: the wait could never fail).
    func requireVisible(_ stream: StandardStream, text: String? = nil, pattern: String? = nil) throws(AutomationError) {
        if stream == .stderr, case .pseudo = terminal {
            throw AutomationError(
                "the program runs in a pseudo-terminal, where its stderr is the terminal with its stdout: a wait on stderr "
                    + "would read nothing; wait on stdout or the screen, or launch with pipes")
        }
        if text == "" { throw AutomationError("the expected text is empty, so the wait could never fail; write the text to wait for") }
        if let pattern, let problem = StepCatalog.regexProblem(pattern) { throw AutomationError(problem) }
    }
}
