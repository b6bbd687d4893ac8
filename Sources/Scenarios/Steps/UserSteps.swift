package import AutomationSupport

/// A step a team defines as a shell command, in a `*.steps.json` file beside its feature files (or named
/// with `--steps FILE`):
///
/// ```json
/// [ { "step": "a user {string} exists", "run": ["./scripts/add-user.sh", "{1}"] } ]
/// ```
/// The pattern is a Cucumber Expression (``CucumberExpression``): `{string}` (a value in double or single quotes),
/// `{int}`, `{float}`, `{word}`, `{}`, optional text `cucumber(s)`, alternatives `belly/stomach`; the rest is
/// literal. `{1}`, `{2}`… in `run` are the values. The command
/// runs in the scenario's directory with its environment; a doc string arrives on stdin as text, a table as
/// JSON rows (both: one object, `{"docString": …, "dataTable": …}`). Exit 0 passes; anything else fails the step with the command's output.
package struct UserStep: @unchecked Sendable {
    let pattern: String
    let expression: CucumberExpression
    /// Matched by the linear-time Pike VM with capture groups: a pattern like `x{}{}{}{}{}{}{}{}y` cannot
    /// backtrack (Swift's `Regex` took seconds on it).
    package let regex: RegexBox
    /// The command a step file names; empty for a step written in Swift (``code``).
    let run: [String]
    /// A step written in Swift (`StepLibrary`): called with the scenario and the captured values.
    var code: (@Sendable (StepContext, [String]) throws -> Void)?
    /// `steps.json:3` (the file and the position of the entry), for messages.
    package let source: String
    /// The step file's directory: a relative `run[0]` with a `/` is found from there.
    let directory: String

    /// The captured values when `text` is this step (nil as well when the match spent ``matchBudget``: the load
    /// refuses such a step by name through ``budgetProblem(_:)``, so a run never gets there).
    package func match(_ text: String) -> [String]? {
        guard case .matched(let groups) = regex.groups(whole: text, budget: Self.matchBudget) else { return nil }
        return expression.values(groups.map { $0.map { Substring(text.unicodeScalars[$0]) } ?? "" })
    }

    /// Whether `text` matches, or could not be told within ``matchBudget`` (not "undefined": the budget is the problem).
    package func mayMatch(_ text: String) -> Bool {
        if case .noMatch = regex.groups(whole: text, budget: Self.matchBudget) { return false }
        return true
    }

    /// The most work one step text may cost against one pattern: a unit per capture slot carried one scalar further
    /// (HOSTILE class 6, "many `{}`": a 16 KB step against `{} {} … zz` with 40 `{}` took 12 s, and a step line may be
    /// 1 MiB). Ordinary steps spend thousands; 8 million is about a second of a slow machine's time.
    package static let matchBudget = 8_000_000

    /// Why matching `text` against this step could not be decided within ``matchBudget`` (said at load by
    /// ``ScenarioLint/ambiguousSteps(_:userSteps:)``, which tries every step against every pattern).
    package func budgetProblem(_ text: String) -> String {
        return "matching this \(text.utf8.count)-byte step against step \"\(CucumberExpression.abbreviated(pattern))\" (\(source)) "
            + "takes more than the work budget of one step match (\(Self.matchBudget) units; \(expression.parameters.count) "
            + "parameters, each tried at every position); shorten the step, or give the pattern fewer {} and more literal words"
    }

    /// The step file this step comes from (``source`` without its line).
    package var file: String {
        guard let colon = source.lastIndex(of: ":") else { return source }
        return String(source[..<colon])
    }

    /// The most work matching all the steps of a run against the patterns of one step file may cost, in the units of
    /// ``matchBudget``: thousands of patterns each within their own budget still took minutes in all (every step
    /// tried against every pattern that could match it). About 16 s of a slow machine's time; a suite of 100,000 steps
    /// on ordinary patterns spends under a hundred million.
    package static let fileBudget = 128_000_000

    /// Why the steps of a run could not be matched against `file`'s patterns within ``fileBudget``.
    package static func fileBudgetProblem(_ file: String, patterns: Int, budget: Int = fileBudget) -> String {
        "\(file): matching the run's steps against this step file's \(patterns) pattern\(patterns == 1 ? "" : "s") takes more than the "
            + "work budget of one step file (\(budget) units in all); give the patterns more literal words before their first {…}, "
            + "( or /, so that each step tries fewer of them, or use fewer patterns"
    }

    /// Compiles `pattern`; the problem, when it is not a Cucumber Expression, names the column.
    package init(pattern: String, run: [String], source: String, directory: String) throws(CucumberExpression.Problem) {
        let expression = try CucumberExpression(pattern)
        guard let regex = try? RegexBox("^" + expression.pattern + "$", groups: true) else {
            throw CucumberExpression.Problem(column: 1, message: "cannot be compiled")
        }
        self.pattern = pattern
        self.expression = expression
        self.regex = regex
        self.run = run
        self.source = source
        self.directory = directory
    }
}

package enum UserSteps {
    /// `*.steps.json` in the directories that hold the feature files.
    package static func files(near featureFiles: [String]) -> [String] {
        let directories = Set(featureFiles.map(FileSystem.directory(of:)))
        return directories.sorted().flatMap { directory in
            FileSystem.list(directory).filter { $0.hasSuffix(".steps.json") }.map { directory + "/" + $0 }
        }
    }

    /// A problem for each directory of the feature files that cannot be listed: its step files cannot be found, and
    /// their steps, hooks and redactions are never left out in silence.
    package static func unlistedDirectories(near featureFiles: [String]) -> [String] {
        Set(featureFiles.map(FileSystem.directory(of:))).sorted().compactMap { directory in
            guard case .failure(let failure) = FileSystem.entries(directory) else { return nil }
            return "\(directory.escapingControlCharacters()): cannot list the directory of the feature files (\(failure)), "
                + "so its step files (*.steps.json) cannot be found; make it readable (chmod u+r)"
        }
    }

    /// An entry of a step file as read, its pattern not compiled yet (``compile(_:)``), or what is wrong with it.
    package enum Entry: Sendable {
        case step(pattern: String, run: [String], source: String, directory: String)
        case problem(String)
    }

    /// Loads step files; duplicates, and clashes with the built-in catalog, are problems naming both places.
    package static func load(_ paths: [String]) -> (steps: [UserStep], problems: [String]) {
        compile(read(paths))
    }

    /// The step files' entries, read and checked for shape, in order (cheap: no pattern is compiled or compared).
    package static func read(_ paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        for path in paths {
            guard let bytes = FileSystem.read(path) else {
                entries.append(.problem("\(path): cannot read the step file (\(FileSystem.unreadable(path)))"))
                continue
            }
            // JSON is UTF-8 (RFC 8259): a bad byte would otherwise become U+FFFD and match a step nobody wrote.
            if let problem = UTF8Position.problem(path, bytes, what: "step file") {
                entries.append(.problem(problem))
                continue
            }
            let root: JSONNode
            do { root = try JSONParser.parse(bytes) } catch {
                entries.append(.problem("\(path):\(error)"))
                continue
            }
            // A file may hold only redactions or hooks (``UserSteps/redactions(_:)``): no steps, then.
            let elements = root.elements ?? root["steps"]?.elements ?? (root["redactions"] != nil || root["hooks"] != nil ? [] : nil)
            guard let elements else {
                entries.append(.problem("\(path):\(root.position): expected [ { \"step\": \"…\", \"run\": [\"command\", …] } ]"))
                continue
            }
            entries += elements.map { entry(of: $0, in: path) }
        }
        return entries
    }

    private static func entry(of entry: JSONNode, in path: String) -> Entry {
        let source = "\(path):\(entry.position.line)"
        guard let pattern = entry["step"]?.string, !pattern.isEmpty,
            let run = entry["run"]?.elements?.compactMap(\.string), !run.isEmpty, run.count == entry["run"]?.elements?.count
        else {
            return .problem("\(source): a step needs \"step\": \"text with {string}\" and \"run\": [\"command\", \"{1}\"]")
        }
        let unknownKeys = (entry.members ?? []).map(\.key).filter { $0 != "step" && $0 != "run" }
        if let key = unknownKeys.first {
            return .problem("\(source): unknown key \"\(key)\"\(Suggestion.didYouMean(key, among: ["step", "run"]))")
        }
        if let problem = StepCatalog.nulProblem(inWords: run) { return .problem("\(source): \(problem)") }
        return .step(pattern: pattern, run: run, source: source, directory: FileSystem.directory(of: path))
    }

    /// The entries' patterns compiled and compared (each with those of the same literal head, ``UserStepIndex``);
    /// problems in the entries' order.
    package static func compile(_ entries: [Entry]) -> (steps: [UserStep], problems: [String]) {
        var index = UserStepIndex()
        var problems: [String] = []
        for entry in entries {
            guard case .step(let pattern, let run, let source, let directory) = entry else {
                if case .problem(let problem) = entry { problems.append(problem) }
                continue
            }
            let step: UserStep
            do {
                step = try UserStep(pattern: pattern, run: run, source: source, directory: directory)
            } catch {
                problems.append("\(source): step \"\(CucumberExpression.abbreviated(pattern))\", \(error)")
                continue
            }
            let count = step.expression.parameters.count
            if let unknown = run.flatMap({ StepVariables.unknownValues(in: $0, count: count) }).first {
                let values = count == 0 ? "no values" : count == 1 ? "one value, {1}" : "\(count) values, {1} to {\(count)}"
                problems.append(
                    "\(source): \"run\" names \(unknown), but step \"\(CucumberExpression.abbreviated(pattern))\" has \(values)")
                continue
            }
            if let problem = clash(step, among: index.related(toHead: step.expression.head)) {
                problems.append(problem)
                continue
            }
            index.append(step)
        }
        return (index.steps, problems)
    }

    /// Why `step` cannot join `steps`: it clashes with one of them or with a built-in step (naming both places).
    package static func clash(_ step: UserStep, among steps: [UserStep]) -> String? {
        let pattern = step.pattern
        let source = step.source
        let sample = step.expression.sample
        if let earlier = steps.first(where: { $0.pattern == pattern || $0.match(sample) != nil || step.match($0.expression.sample) != nil })
        {
            return "\(source): step \"\(pattern)\" clashes with \"\(earlier.pattern)\" (\(earlier.source)); keep one"
        }
        if let (builtIn, _) = StepCatalog.find(sample) {
            return "\(source): step \"\(pattern)\" clashes with the built-in step \"\(builtIn.example.split(separator: "\n").first ?? "")\""
        }
        // A built-in example can only match when it starts with the pattern's literal head.
        let head = step.expression.head.utf8
        if let builtIn = zip(StepCatalog.all, builtInTexts).first(where: { $1.utf8.starts(with: head) && step.match($1) != nil })?.0 {
            return "\(source): step \"\(pattern)\" clashes with the built-in step \"\(builtIn.example.split(separator: "\n").first ?? "")\""
        }
        return nil
    }

    /// Each built-in step's example without its keyword, worked out once (per pattern, it was most of a load's time).
    private static let builtInTexts = StepCatalog.all.map { withoutKeyword($0.example) }

    static func withoutKeyword(_ example: String) -> String {
        let line = String(example.split(separator: "\n").first ?? "")
        for keyword in GherkinParser.stepKeywords where line.hasPrefix(keyword) { return String(line.dropFirst(keyword.count)) }
        return line
    }

    /// The same step for AutomationTesting's `StepLibrary`, typed parameters included.
    package static func swiftSnippet(for text: String) -> String {
        let words = stringParameters(text).split(separator: " ", omittingEmptySubsequences: false)
        let pattern = words.map { word in isWholeNumber(word) ? "{int}" : String(word) }.joined(separator: " ")
        var parameters: [String] = []
        // One pass over the pattern (a regular expression compiled per placeholder took seconds on a long step).
        let bytes = Array(pattern.utf8)
        var position = 0
        while position < bytes.count {
            if bytes[position...].starts(with: "{string}".utf8) {
                parameters.append("text\(parameters.count + 1): String")
                position += 8
            } else if bytes[position...].starts(with: "{int}".utf8) {
                parameters.append("number\(parameters.count + 1): Int")
                position += 5
            } else {
                position += 1
            }
        }
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let parameterList = (["context: StepContext"] + parameters).joined(separator: ", ")
        return "steps.step(\"\(escaped)\") { (\(parameterList)) in /* ... */ }"
    }

    /// Each quoted value (`"[^"]*"`, leftmost first) as `{string}`, in one pass over bytes (Swift's Regex took
    /// seconds on a step of 1 MB of quotes).
    static func stringParameters(_ text: String) -> String {
        let quote = UInt8(ascii: "\"")
        var output: [UInt8] = []
        var bytes = text.utf8[...]
        while let open = bytes.firstIndex(of: quote) {
            let after = bytes.index(after: open)
            guard let close = bytes[after...].firstIndex(of: quote) else { break }
            output += bytes[..<open]
            output += "{string}".utf8
            bytes = bytes[bytes.index(after: close)...]
        }
        output += bytes
        return String(decoding: output, as: UTF8.self)
    }

    /// `-?[0-9]+`, without compiling a regular expression per word (a step of 100,000 words took seconds).
    static func isWholeNumber(_ word: Substring) -> Bool {
        let digits = word.utf8.first == UInt8(ascii: "-") ? word.utf8.dropFirst() : word.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (48...57).contains($0) }
    }

    /// The entry to paste into a step file for an undefined step.
    package static func snippet(for text: String) -> String {
        // Quoted values become {string}, whole numbers {int}, as Cucumber's snippets do.
        let words = stringParameters(text).split(separator: " ", omittingEmptySubsequences: false)
        let pattern = words.map { word in isWholeNumber(word) ? "{int}" : String(word) }.joined(separator: " ")
        let plain = pattern.replacingOccurrences(of: "{string}", with: "").replacingOccurrences(of: "{int}", with: "").lowercased()
        let dashed = String(plain.map { character -> Character in character.isLetter || character.isNumber ? character : "-" })
        let name: String = dashed.split(separator: "-").map(String.init).joined(separator: "-")
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "{ \"step\": \"\(escaped)\", \"run\": [\"./steps/\(name.prefix(40)).sh\"] }"
    }
}
