import AutomationSupport
import ProcessEngine

/// Load-time checks of step values that no argument or variable could carry as written (`check`, `test` and
/// `--dry-run` refuse them, exit 3; the steps ask again when they run).
extension StepCatalog {
    /// Why a `Given the environment variable` step cannot do what it says, found at load: a name `-e` would refuse
    /// (`""`, `A-B`, `C=D` reached the program as `=x`, `A-B=x`, `C=D=x`), one the run sets for each scenario (the
    /// program would still get the run's value while `${NAME}` in steps changed), a NUL in the value.
    static func environmentProblem(name: String, value: String) -> String? {
        if StepVariables.runTime.contains(name) {
            return "\(name) is set by sut-launch for each scenario: its program would still get sut-launch's value while ${\(name)} "
                + "in steps changed; give the value another name"
        }
        if name.isEmpty { return "the environment variable needs a name: Given the environment variable \"NAME\" is \"value\"" }
        guard EnvironmentVariable.problem(name: name, value: "") == nil else {
            return "\"\(name.escapingControlCharacters())\" is not an environment variable name: letters, digits and _, not starting "
                + "with a digit (as -e and --env-file take)"
        }
        return EnvironmentVariable.problem(name: name, value: value)
    }

    /// A NUL in text that becomes a program's argument: no argument can carry one (it would be cut there), so it
    /// is refused by name, never run cut short.
    static func nulProblem(_ text: String, _ what: String) -> String? {
        guard let index = text.unicodeScalars.firstIndex(of: "\0") else { return nil }
        let position = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index) + 1
        return
            "\(what) holds a NUL byte (\\0) at character \(position), which no program argument can carry (it would be cut there); remove it"
    }

    /// The first word of a step file's `run` (a step's or a hook's) that holds a NUL, as ``nulProblem(_:_:)`` says.
    static func nulProblem(inWords run: [String]) -> String? {
        guard let index = run.firstIndex(where: { $0.unicodeScalars.contains("\0") }) else { return nil }
        return nulProblem(run[index], "\"run\" word \(index + 1)")
    }
}
