import AutomationSupport

/// `${NAME}` in steps: what a name may be, and substitution in one pass (a value that holds `${…}` or `{2}`
/// is not substituted again).
package enum StepVariables {
    /// Names whose values exist only once the scenario runs: what its program gets in its environment.
    package static let runTime: Set<String> = [
        "SUT_MOCK_SERVER_URL", "SUT_MOCK_SERVER_CA", "SUT_MOCK_PROXY_URL", "SUT_CONTROL_URL", "SUT_UNDER_TEST", "SUT_EPHEMERAL",
        "SUT_AUTOMATION",
    ]

    /// The isolation names each scenario sets to directories of its own (`HOME`, `TMPDIR`, `XDG_*`): `${HOME}` is the
    /// scenario's home, as `$HOME` is to its program (the caller's real home once leaked into steps that wrote there).
    /// A `Given the environment variable` step may set them (its program gets that value, and so does `${NAME}`).
    package static let isolated: Set<String> = Set(ScratchDirectory.isolated.map(\.variable))

    /// Every name the run sets for each scenario: a `-D` of one would change `${NAME}` but not what the program gets.
    package static let runOwned: Set<String> = runTime.union(isolated)

    /// `value` as a regular expression that matches it literally: every ASCII character but letters and digits
    /// escaped (`\.` is the character itself to the linear engine; letters and digits escaped mean classes).
    package static func regexLiteral(_ value: String) -> String {
        var literal = ""
        for scalar in value.unicodeScalars {
            if scalar.isASCII && !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) {
                literal.unicodeScalars.append("\\")
            }
            literal.unicodeScalars.append(scalar)
        }
        return literal
    }

    /// The `${NAME}`s in `text`, in order.
    package static func names(in text: String) -> [String] {
        var names: [String] = []
        _ = substitute(text) {
            names.append($0)
            return ""
        }
        return names
    }

    /// The name of the value from outside the feature that leads `path` (`${NAME}` at its start, from a `--define` or
    /// the caller's environment), or nil. Such a path is that value as given, relative to the current directory, as
    /// every option is; one led by a value the scenario set (`Given the environment variable`, which a `--define` of
    /// the name overrides) is the feature's, relative to its directory. The one rule for where a step's input is read
    /// (`ScenarioRun.featurePath`) and for which files `test` keeps its outputs off (`TestReadFiles`): two copies of it
    /// drifted apart once, and a report could be planted in a fixture.
    /// - Parameters:
    ///   - defined: whether a `--define` gives the name.
    ///   - setByScenario: whether an earlier step of the scenario set it.
    package static func leadingOutsideValue(_ path: String, defined: (String) -> Bool, setByScenario: (String) -> Bool) -> String? {
        guard path.hasPrefix("${"), let name = names(in: path).first, path.hasPrefix("${\(name)}") else { return nil }
        return defined(name) || !setByScenario(name) ? name : nil
    }

    /// `text` with each `${NAME}` replaced by `value(NAME)` and each `{n}` (1-based) by `values[n - 1]`, left to
    /// right in one pass: what was put in is never read again.
    package static func substitute(_ text: String, values: [String] = [], _ value: (String) -> String) -> String {
        guard text.contains("${") || (!values.isEmpty && text.contains("{")) else { return text }
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "$" || $0 == "{" }) {
            output += rest[..<open]
            let after = rest[open...]
            if after.hasPrefix("${"), let close = after.firstIndex(of: "}") {
                output += value(String(after[after.index(open, offsetBy: 2)..<close]))
                rest = after[after.index(after: close)...]
            } else if after.first == "{", !values.isEmpty, let close = after.firstIndex(of: "}"),
                let number = BoundedNumber.integer(after[after.index(after: open)..<close], in: 1...values.count)
            {
                output += values[number - 1]
                rest = after[after.index(after: close)...]
            } else {
                output.append(after.first!)
                rest = after.dropFirst()
            }
        }
        return output + rest
    }

    /// The `{n}`s in a step file's `run` word that name no value (`{0}`, `{3}` of two, `{99999999999999999999}`).
    static func unknownValues(in word: String, count: Int) -> [String] {
        var unknown: [String] = []
        var rest = Substring(word)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).first == "}",
                count == 0 || BoundedNumber.integer(digits, in: 1...count) == nil
            {
                unknown.append("{\(digits.prefix(40))}")
            }
            rest = after
        }
        return unknown
    }

    /// `file:line: ${NAME} is not defined …` for each step naming a variable that is neither defined
    /// (`--define`, the environment, an earlier `Given the environment variable` step) nor a run-time name.
    package static func problems(_ pickles: [Pickle], defines: [String: String], environment: [String: String]) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for pickle in pickles {
            var scenarioNames: Set<String> = []
            for step in pickle.steps {
                for name in names(in: expandedText(of: step))
                where defines[name] == nil && environment[name] == nil
                    && !runOwned.contains(name) && !scenarioNames.contains(name)
                {
                    let problem =
                        "\(pickle.uri):\(step.line): ${\(name)} is not defined; pass --define \(name)=VALUE, set it in the environment, "
                        + "or use one the scenario's program gets (\(runOwned.sorted().joined(separator: ", ")))"
                    if seen.insert(problem).inserted { problems.append(problem) }
                }
                if let name = environmentStepName(step.text) { scenarioNames.insert(name) }
            }
        }
        return problems
    }

    /// The name and the value (escapes read, `${…}` not yet replaced) a step `the environment variable "NAME" is "…"`
    /// sets, or nil for another step: what an output check needs to know where a later `${NAME}` path points.
    package static func environmentStep(_ text: String) -> (name: String, value: String)? {
        guard let name = environmentStepName(text) else { return nil }
        let quoted = text.unicodeScalars.dropFirst("the environment variable \"".unicodeScalars.count + name.unicodeScalars.count)
            .dropFirst("\" is \"".unicodeScalars.count).dropLast()
        return (StepText.unescape(name), StepText.unescape(String(String.UnicodeScalarView(quoted))))
    }

    /// The name a step `the environment variable "NAME" is "…"` sets, or nil for another step: read in one pass
    /// (a regular expression built for each step made loading 100,000 Examples rows take minutes).
    static func environmentStepName(_ text: String) -> String? {
        let prefix = "the environment variable \""
        guard text.hasPrefix(prefix) else { return nil }
        var name = ""
        var rest = text.unicodeScalars.dropFirst(prefix.unicodeScalars.count)
        while let scalar = rest.first, scalar != "\"" {
            rest = rest.dropFirst()
            if scalar == "\\" {
                guard let escaped = rest.first, escaped != "\n" else { return nil }
                name.unicodeScalars.append(scalar)
                name.unicodeScalars.append(escaped)
                rest = rest.dropFirst()
            } else {
                name.unicodeScalars.append(scalar)
            }
        }
        let value = String(String.UnicodeScalarView(rest))
        guard value.hasPrefix("\" is \""), value.unicodeScalars.count >= 7, value.hasSuffix("\""), !value.unicodeScalars.contains("\n")
        else { return nil }
        return name
    }

    /// Everything of a step that is expanded when it runs: its text, its table's cells, its doc string (but for
    /// `a file "…" with:`, whose content is written as it stands: a script keeps its `${HOME}`).
    private static func expandedText(of step: GherkinDocument.Step) -> String {
        var text = step.text
        if let table = step.dataTable { text += "\n" + table.rows.flatMap { $0 }.joined(separator: "\n") }
        if let docString = step.docString, !(step.text.hasPrefix("a file \"") && step.text.hasSuffix(" with:")) {
            text += "\n" + docString.content
        }
        return text
    }
}
