/// Steps a terminal makes blind: on a pseudo-terminal the program's stderr is the terminal, written with its stdout,
/// so nothing reaches a stream of its own for `Then I see "…" on stderr`, `Then the error output is:` and the others
/// to read. After `Given the program runs in a terminal` such a step would pass on what it never saw (an absence, an
/// empty error output) or fail on output it could not see: a load error naming both lines.
extension ScenarioLint {
    static func terminalStderrProblems(_ pickles: [Pickle]) -> [String] {
        afterTerminal(pickles) { definition, captures, terminalLine in
            StepCatalog.readsStderr(definition, captures) ? StepCatalog.terminalStderr(since: "line \(terminalLine)") : nil
        }
    }
}

extension StepCatalog {
    /// Whether a catalog step reads the program's stderr (`… on stderr`, `the error output …`).
    static func readsStderr(_ definition: StepDefinition, _ captures: [String]) -> Bool {
        if definition.source.hasPrefix("I see ") || definition.source.hasPrefix("I do not see ") {
            return captures.count > 1 && captures[1] == " on stderr"
        }
        return definition.source.hasPrefix("the (output|error output") && captures.first == "error output"
    }

    /// Why a step about stderr cannot run once the program runs in a terminal (`since`: where it was asked for).
    static func terminalStderr(since: String) -> String {
        "the program runs in a terminal (\(since)), where its stderr goes to the terminal with its stdout: a step about"
            + " stderr would read nothing; check that text with Then I see \"…\" or Then the screen shows \"…\", or run without a terminal"
    }
}
