import AutomationSupport
import Scenarios

/// The steps that may name an input (`Given the files from "DIR"`, `Given the stubs "PATH"`, `Given the program
/// "PATH"`), found two ways: in the feature files' text before they are parsed, so the outputs are checked and their
/// placeholders written before the (possibly long) load; and in the parsed scenarios, checked again after it.
extension TestReadFiles {
    /// A step line that may name an input: its feature file, its line, and its text from the step's words on.
    struct NamedStep {
        var uri: String
        var line: Int
        var text: String
        /// What the scenario's earlier `Given the environment variable` steps set, as its `${NAME}` will read them.
        var variables: [String: String] = [:]
        /// Names whose value is the run's own (`${HOME}`, `${SUT_MOCK_SERVER_CA}`, or a variable set from one): a
        /// directory made fresh for the scenario, where no output can be.
        var runOwned: Set<String> = []
    }

    /// What the steps of `pickles` say, as written once an outline's values are filled in, each with the variables
    /// the scenario's earlier `Given the environment variable` steps set (a `--define` still comes first, as it runs).
    static func namedSteps(_ pickles: [Pickle], defines: [String: String] = [:], environment: [String: String] = [:]) -> [NamedStep] {
        pickles.flatMap { pickle in
            var variables: [String: String] = [:]
            var runOwned: Set<String> = []
            return pickle.steps.map { step in
                let named = NamedStep(uri: pickle.uri, line: step.line, text: step.text, variables: variables, runOwned: runOwned)
                if let (name, raw) = StepVariables.environmentStep(step.text), defines[name] == nil {
                    let names = StepVariables.names(in: raw)
                    if names.contains(where: { defines[$0] == nil && variables[$0] == nil && StepVariables.runOwned.contains($0) })
                        || names.contains(where: runOwned.contains)
                    {
                        runOwned.insert(name)
                    } else {
                        runOwned.remove(name)
                    }
                    variables[name] = StepVariables.substitute(raw) { defines[$0] ?? variables[$0] ?? environment[$0] ?? "" }
                }
                return named
            }
        }
    }

    /// Whether the feature files' text leaves a path a step reads unknown until they are parsed: an outline's
    /// `<placeholder>` in it (a whole step from a row, `Given <setup>`, is found in the row's text), or a `${NAME}`
    /// that a `Given the environment variable` step may set. Then the outputs are checked against the parsed scenarios
    /// before any placeholder is written or `--coverage DIR` cleared, not after.
    static func needsParsedSteps(_ files: [String], textSteps: [NamedStep], defines: [String: String]) -> Bool {
        let paths = textSteps.map { step in String(step.text.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" }) }
        if paths.contains(where: { $0.contains("<") }) { return true }
        let named = paths.flatMap(StepVariables.names(in:)).filter { defines[$0] == nil }
        guard !named.isEmpty else { return false }
        return files.contains { file in
            FileSystem.read(file).map { String(decoding: $0, as: UTF8.self).contains("the environment variable \"") } ?? false
        }
    }

    /// The steps' words as the feature files' text holds them, read line by line before any file is parsed: every
    /// line (comments aside) where `the files from "`, `the stubs "` or `the program "` starts, from there on. An
    /// outline's `<placeholder>` stays as written here; the parsed scenarios are checked again after loading.
    static func namedSteps(inTextOf files: [String]) -> [NamedStep] {
        let starts = ["the files from \"", "the stubs \"", "the program \""]
        var steps: [NamedStep] = []
        for file in files {
            guard let bytes = FileSystem.read(file) else { continue } // the load names an unreadable file
            var number = 0
            // Split on LF as bytes: as Characters, CR LF is one and a CRLF file would be one line.
            for piece in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                number += 1
                let line = Substring(String(decoding: piece, as: UTF8.self))
                guard !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") else { continue }
                for start in starts {
                    for range in line.ranges(of: start) {
                        steps.append(NamedStep(uri: file, line: number, text: String(line[range.lowerBound...])))
                    }
                }
            }
        }
        return steps
    }
}
