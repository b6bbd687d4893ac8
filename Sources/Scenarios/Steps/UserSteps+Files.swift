import AutomationSupport

/// The files a step file's commands run or name, known when the step files load: an output option must not name
/// one (docs/security.md), and `--coverage DIR` must not hold one.
extension UserSteps {
    /// A step's or hook's `run[0]` as it is started: a relative name with a `/` is found from the step file's
    /// directory (`./hook.sh` beside `steps.json` in `.` is `./hook.sh`, not `././hook.sh`).
    package static func program(_ name: String, from directory: String) -> String {
        name.contains("/") ? FileSystem.joined(directory, name) : name
    }

    /// The files `run` names, `${NAME}` expanded with `variable`: `run[0]` when it holds a `/` (found from
    /// `directory`), and each argument that is an absolute path to an existing file (a script given to `sh`).
    /// Words holding `{n}` (a step's values) are known only as the step runs and are left out.
    package static func namedFiles(_ run: [String], directory: String, variable: (String) -> String?) -> [String] {
        var files: [String] = []
        for (index, word) in run.enumerated() where StepVariables.unknownValues(in: word, count: 0).isEmpty {
            let expanded = StepVariables.substitute(word) { variable($0) ?? "" }
            if index == 0, expanded.contains("/") {
                files.append(program(expanded, from: directory))
            } else if index > 0, expanded.hasPrefix("/"), FileSystem.isRegularFile(expanded) {
                files.append(expanded)
            }
        }
        return files
    }
}

extension UserStep {
    /// The files this step's command runs or names (``UserSteps/namedFiles(_:directory:variable:)``); none for a Swift step.
    package func namedFiles(variable: (String) -> String?) -> [String] {
        code == nil ? UserSteps.namedFiles(run, directory: directory, variable: variable) : []
    }
}

extension Hook {
    /// The files this hook's command runs or names; none for a Swift hook.
    package func namedFiles(variable: (String) -> String?) -> [String] {
        code == nil ? UserSteps.namedFiles(run, directory: directory, variable: variable) : []
    }
}
