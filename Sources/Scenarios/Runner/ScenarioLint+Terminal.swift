import AutomationSupport

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

    /// `When I press KEY` before `Given the program runs in a terminal`: a key pressed on a pipe is a byte written,
    /// not what a terminal does with it (Ctrl-C signals the group only on a terminal), so the step would pass having
    /// sent nothing the program sees as a key.
    static func pressWithoutTerminalProblems(_ pickles: [Pickle]) -> [String] {
        var problems: [String] = []
        for pickle in pickles {
            for step in pickle.steps {
                guard let (definition, captures) = StepCatalog.find(step.text) else { continue }
                if definition.source.hasPrefix("the program runs in a terminal") { break }
                guard definition.source.hasPrefix("I press ") else { continue }
                problems.append("\(pickle.uri):\(step.line): " + StepCatalog.pressNeedsTerminal(captures.first ?? ""))
            }
        }
        return problems
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

    /// Why `When I press KEY` cannot run without a terminal.
    static func pressNeedsTerminal(_ key: String) -> String {
        "When I press \(key.prefix(30).escapingControlCharacters()) needs Given the program runs in a terminal before the launch: on a pipe a key is "
            + "only a byte (Ctrl-C would signal nothing); to write text to the program's input use When I type \"…\""
    }

    /// Why a step about stderr cannot run once the program runs in a terminal (`since`: where it was asked for).
    static func terminalStderr(since: String) -> String {
        "the program runs in a terminal (\(since)), where its stderr goes to the terminal with its stdout: a step about"
            + " stderr would read nothing; check that text with Then I see \"…\" or Then the screen shows \"…\", or run without a terminal"
    }
}
