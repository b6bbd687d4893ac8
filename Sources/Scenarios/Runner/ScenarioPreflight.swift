import AutomationSupport
import MockServer
import ProcessEngine

/// What a run would find wrong in the inputs its steps name, found without launching anything, so that `check` and
/// `test --dry-run` refuse what `test` would fail (exit 3) instead of saying ok: a stub file missing or not a stub
/// file, a fixture directory missing, a program missing, a scenario that launches with no program. A path holding a
/// `${NAME}` that is neither defined nor in the environment is left to the run (it may be set by an earlier step).
package enum ScenarioPreflight {
    /// One `file:line: problem` per step that would fail, each file named once per problem.
    /// - Parameter runsHere: true for `test --dry-run`, which has the run's own command line and environment: a command
    ///   PATH does not find, or a launch with no program (no `-D PROGRAM`), is what the run would meet. `check` lints a
    ///   suite apart from its run (often before the build, on another machine, without the run's `-D PROGRAM`): it
    ///   checks what the suite itself names (stub files, fixtures, a program's path) and leaves those two to the run.
    package static func problems(
        _ pickles: [Pickle], defines: [String: String], environment: [String: String], runsHere: Bool = true
    ) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        var stubs: [String: String?] = [:] // a stub file read once however many scenarios name it
        for pickle in pickles {
            // A name the scenario sets (`Given the environment variable`) has the value its step gives, known as it runs.
            let set = Set(pickle.steps.compactMap { quoted($0.text, after: "the environment variable ") })
            let value: (String) -> String? = { defines[$0] ?? (set.contains($0) ? nil : environment[$0]) }
            var program = defines["PROGRAM"]
            // A scenario that sets its own PATH finds its commands there: they are left to the run.
            let setsPath = pickle.steps.contains { $0.text.hasPrefix("the environment variable \"PATH\"") }
            let directory = FileSystem.directory(of: pickle.uri)
            for step in pickle.steps {
                var problem: String?
                if let written = quoted(step.text, after: "the stubs "), let path = path(written, directory, value) {
                    if stubs[path] == nil { stubs[path] = stubProblem(path) }
                    problem = stubs[path] ?? nil
                } else if let written = quoted(step.text, after: "the files from "), let path = path(written, directory, value) {
                    if !FileSystem.isDirectory(path) {
                        problem = "\(path): no such directory (paths are relative to the feature file)"
                    }
                } else if let written = quoted(step.text, after: "the program ") {
                    guard let expanded = expand(written, value) else {
                        program = "${}" // set as the run goes: not checked
                        continue
                    }
                    program = expanded.contains("/") ? path(written, directory, value) : expanded
                } else if runsHere, step.text.hasPrefix("I run \""), !setsPath, let command = command(step.text, value) {
                    // A command name looked up in PATH (a path is the scenario's own file, made as it runs: not checked).
                    problem = ProgramCheck.problem(command, path: environment["PATH"])
                } else if step.text.hasPrefix("I launch the program") {
                    // Checked where the run would fail: at the launch, whichever way the program was named.
                    if let program {
                        let checked = program != "${}" && (runsHere || program.contains("/"))
                        problem = checked ? ProgramCheck.problem(program, path: environment["PATH"]) : nil
                    } else if runsHere {
                        problem = "no program to launch: add Given the program \"path\" (or pass --define PROGRAM=path)"
                    }
                }
                if let problem, seen.insert("\(pickle.uri):\(step.line)").inserted {
                    problems.append("\(pickle.uri):\(step.line): \(problem)".escapingControlCharacters())
                }
            }
        }
        return problems
    }

    private static func stubProblem(_ path: String) -> String? {
        do {
            let loaded = try StubLoader.load(path)
            if loaded.count == 0, !loaded.notices.isEmpty { return loaded.notices.joined(separator: "; ") }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The value of a catalog step `PREFIX"…"` as the run reads it (its `\"` unescaped), or nil when the step is not one.
    private static func quoted(_ text: String, after prefix: String) -> String? {
        guard text.hasPrefix(prefix + "\""), let (definition, captures) = StepCatalog.find(text),
            definition.example.hasPrefix("Given " + prefix + "\""), let value = captures.first
        else { return nil }
        return value
    }

    /// The first word of a `When I run "…"` step when it is a name PATH finds (no `/`, every `${NAME}` known).
    private static func command(_ text: String, _ value: (String) -> String?) -> String? {
        guard let (definition, captures) = StepCatalog.find(text), definition.example.hasPrefix("When I run \""),
            let words = try? ShellWords.split(captures[0]), let first = words.first, let word = expand(first, value),
            !word.isEmpty, !word.contains("/")
        else { return nil }
        return word
    }

    /// `written` with its `${NAME}`s, or nil when one of them has no value yet.
    private static func expand(_ written: String, _ value: (String) -> String?) -> String? {
        guard StepVariables.names(in: written).allSatisfy({ value($0) != nil }) else { return nil }
        return StepVariables.substitute(written) { value($0) ?? "" }
    }

    /// An input path as the run resolves it (``ScenarioRun/featurePath(_:)``).
    private static func path(_ written: String, _ directory: String, _ value: (String) -> String?) -> String? {
        guard let expanded = expand(written, value) else { return nil }
        return expanded.hasPrefix("/") || written.hasPrefix("${") ? expanded : FileSystem.joined(directory, expanded)
    }
}
