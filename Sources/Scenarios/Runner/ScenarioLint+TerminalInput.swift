/// `When I close the input` after `Given the program runs in a terminal`: the program's input is the terminal then,
/// which stays open while sut-launch reads the screen, so closing sut-launch's copy of it ends nothing; the step
/// passed having done nothing (attack r6b finding 14). A terminal's end of input is Ctrl-D at the start of a line:
/// a load error naming both lines and that step.
extension ScenarioLint {
    static func terminalInputProblems(_ pickles: [Pickle]) -> [String] {
        afterTerminal(pickles) { definition, _, terminalLine in
            definition.source == StepCatalog.closeInputSource ? StepCatalog.terminalCloseInput(since: "line \(terminalLine)") : nil
        }
    }

    /// `file:line: problem`, once per line, for each step after `Given the program runs in a terminal` (at
    /// `terminalLine`) that `problem` refuses.
    static func afterTerminal(_ pickles: [Pickle], _ problem: (StepDefinition, [String], Int) -> String?) -> [String] {
        var problems: [String] = []
        var reported: Set<String> = []
        for pickle in pickles {
            var terminalLine: Int?
            for step in pickle.steps {
                guard let (definition, captures) = StepCatalog.find(step.text) else { continue }
                if definition.source.hasPrefix("the program runs in a terminal") {
                    terminalLine = terminalLine ?? step.line
                    continue
                }
                guard let terminalLine, let refused = problem(definition, captures, terminalLine),
                    reported.insert("\(pickle.uri):\(step.line)").inserted
                else { continue }
                problems.append("\(pickle.uri):\(step.line): " + refused)
            }
        }
        return problems
    }
}

extension StepCatalog {
    /// The pattern of `When I close the input`.
    static let closeInputSource = "I close the input"

    /// Why `When I close the input` cannot run once the program runs in a terminal (`since`: where it was asked for).
    static func terminalCloseInput(since: String) -> String {
        "the program runs in a terminal (\(since)), whose input stays open while its screen is read: closing it would end"
            + " nothing; send the terminal's end of input with When I press Ctrl-D (at the start of a line), or run without a terminal"
    }
}
