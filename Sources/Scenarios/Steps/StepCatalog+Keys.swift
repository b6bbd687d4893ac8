import ProcessEngine

/// What `When I type` and `When I press` check before writing to a terminal, whose writes succeed whoever reads: keys
/// for a program that had exited, and a line longer than the terminal takes, passed having delivered nothing (or a
/// line cut short).
extension StepCatalog {
    /// In a terminal, once the program has exited nothing reads the keys (the terminal takes them anyway): the step
    /// fails naming the exit. `what` begins the message (`cannot press Enter`).
    static func requireTerminalReader(_ run: ScenarioRun, _ process: LaunchedProcess, _ what: String) throws(StepFailure) {
        guard run.terminal != nil, let status = process.status else { return }
        let ended =
            switch status {
            case .exited(let code): "exited with code \(code)"
            case .signaled: "been \(status)"
            }
        throw StepFailure(
            "\(what): the program had \(ended) before this step: nothing reads the terminal, the keys would go nowhere; "
                + "check how it ended with Then the program exits with code N, or send the keys while it runs")
    }

    /// A line longer than a terminal in canonical mode takes (4095 bytes on Linux) is cut by its line discipline, the
    /// rest dropped without a word: the step fails naming the limit, unless the program reads the terminal raw.
    static func requireLinesFit(_ run: ScenarioRun, _ process: LaunchedProcess, _ text: String) throws(StepFailure) {
        let limit = LaunchedProcess.terminalLineLimit
        guard run.terminal != nil,
            let longest = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" })
                .map(\.utf8.count).max(),
            longest > limit, process.terminalReadsLines != false
        else { return }
        throw StepFailure(
            "cannot type into the program: a line of \(longest) bytes is longer than the terminal's line limit of \(limit) bytes "
                + "(it reads lines, canonical mode: the rest would be dropped and the program would read the line cut); have the "
                + "program read the terminal in raw mode (stty -icanon), or run it without a terminal (stdin a pipe, no limit)")
    }
}
