import AutomationSupport
import MockServer
import ProcessEngine

/// What `check` and `test` both refuse in feature files before anything runs, so `check` passes exactly
/// what `test` accepts: files that do not parse, `@timeout=` tags and step durations that are not
/// durations. `check` also names undefined steps (`test` reports them per scenario, as Cucumber does).
package enum ScenarioLint {
    /// A feature file as read: its text and what it parsed to (for Cucumber Messages).
    package struct Source {
        package let uri: String
        package let text: String
        /// The document and its pickles, or why it does not parse.
        package let document: Result<(document: GherkinDocument, pickles: [Pickle]), GherkinError>
    }

    /// Reads and compiles feature files.
    /// - Returns: the pickles, in file order, and one `file:line: message` per problem.
    package static func load(_ paths: [String]) -> (pickles: [Pickle], problems: [String]) {
        let (pickles, problems, _) = loadWithSources(paths)
        return (pickles, problems)
    }

    /// The same, with each file as read (its warnings printed unless `printingWarnings` is false).
    package static func loadWithSources(_ paths: [String], printingWarnings: Bool = true) -> (
        pickles: [Pickle], problems: [String], sources: [Source]
    ) {
        var pickles: [Pickle] = []
        var problems: [String] = []
        var sources: [Source] = []
        var messagesBytes = 0
        for path in paths {
            guard let bytes = FileSystem.read(path) else {
                problems.append("\(path): cannot read the file (\(FileSystem.unreadable(path)))")
                continue
            }
            if let problem = sizeProblem(path, bytes: bytes.count) {
                problems.append(problem)
                continue
            }
            // As Cucumber's reference parser, which cannot read it either: never decoded to U+FFFD.
            if let problem = UTF8Position.problem(path, bytes, what: "feature file") {
                problems.append(problem)
                continue
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do throws(GherkinError) {
                let document = try GherkinParser.parse(text, uri: path)
                // What Cucumber accepts but the author likely did not mean: said, never fatal (files stay portable).
                let compiled = Pickle.compile(document)
                let outlines = OutlineLint.check(document)
                if printingWarnings {
                    for warning in document.warnings + outlines.warnings + TimeoutTags.warnings(compiled) {
                        // Console.line keeps line breaks: a LF in the file's name must not start a line of its own.
                        let shown = warning.hasPrefix(path) ? path.escapingControlCharacters() + warning.dropFirst(path.count) : warning
                        Console.line("warning: " + shown)
                    }
                }
                // A file whose scenarios would make the run's Messages too large to read back: refused with no pickle,
                // so no report is made that large either (its Messages carry a parseError instead).
                // The text twice (its source and its gherkinDocument), then the pickles up to what is left.
                let textBytes = 2 * Self.escapedBytes(text)
                let bytes = textBytes + Self.messagesBytes(compiled, upTo: messagesBytesLimit - messagesBytes - textBytes)
                if let problem = expansionProblem(bytes: bytes, before: messagesBytes) {
                    messagesBytes = messagesBytesLimit + 1
                    throw GherkinError(file: path, problem)
                }
                if let (line, problem) = pickleProblem(compiled) { throw GherkinError(file: path, line: line, problem) }
                messagesBytes += bytes
                sources.append(Source(uri: path, text: text, document: .success((document, compiled))))
                // Cucumber accepts a file without scenarios; nothing would run from it, which is almost never what its
                // author meant (CR line endings, a misspelt keyword): `check` and `test` both refuse it (exit 3).
                if compiled.isEmpty { problems.append("\(path): no scenarios: " + whyEmpty(document, text: text)) }
                problems += outlines.problems
                problems += stepProblems(compiled)
                problems += snapshotCollisions(compiled)
                problems += terminalStderrProblems(compiled)
                problems += terminalInputProblems(compiled)
                problems += pressWithoutTerminalProblems(compiled)
                pickles += compiled
            } catch {
                sources.append(Source(uri: path, text: text, document: .failure(error)))
                problems.append("\(error)")
            }
        }
        return (pickles, problems, sources)
    }

    /// Cucumber Messages for what was read: each file's source, then its gherkinDocument and pickles, or its parseError.
    package static func messages(_ sources: [Source]) -> CucumberMessages {
        var messages = CucumberMessages()
        messages.meta(version: SutLaunch.version)
        for source in sources {
            messages.source(uri: source.uri, text: source.text)
            switch source.document {
            case .success(let parsed): messages.document(parsed.document, pickles: parsed.pickles)
            case .failure(let error): messages.parseError(uri: source.uri, error)
            }
        }
        return messages
    }

    /// `@timeout=` tags and duration captures that do not parse, and each step's own load-time check
    /// (numbers out of their range, paths out of the scenario's directory, snapshot names, signal names,
    /// unterminated quotes), once per line. `ScenarioRunner.runOne` asks again, for callers that skip loading.
    /// Whether `step` is defined: a step over ``StepCatalog/maxStepBytes`` is neither (``stepProblems(_:)`` names it).
    static func isUndefined(_ step: GherkinDocument.Step, userSteps: UserStepIndex) -> Bool {
        step.text.utf8.count <= StepCatalog.maxStepBytes && StepCatalog.find(step.text) == nil
            && !userSteps.mayMatch(step.text) // one past its budget is named by ambiguousSteps
    }

    static func stepProblems(_ pickles: [Pickle]) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        func add(_ problem: String) { if seen.insert(problem).inserted { problems.append(problem) } }
        for pickle in pickles {
            if let problem = pickle.problem { add(problem) }
            for problem in ScenarioRunner.retriesProblems(pickle) { add(problem) }
            for problem in TimeoutTags.problems(pickle) { add(problem) }
            for problem in flagProblems(pickle) { add(problem) }
            for tag in pickle.tags where tag.hasPrefix(timeoutTag) {
                let value = String(tag.dropFirst(timeoutTag.count))
                if DurationParser.parse(value) == nil {
                    add(
                        "\(pickle.location): tag \(tag.prefix(50)): '\(value.prefix(40))' is not a duration from 0 to 1000000000 seconds; write 500ms, 30s, 2m, 1h or 1m30s"
                    )
                }
            }
            for step in pickle.steps {
                if step.text.utf8.count > StepCatalog.maxStepBytes {
                    add(
                        "\(pickle.uri):\(step.line): the step \"\(step.keyword)\(step.text.prefix(60))…\" is \(step.text.utf8.count) bytes long, over the"
                            + " limit of \(ByteSize.text(StepCatalog.maxStepBytes)) for one step line; put long text in a doc string (\"\"\") or a file"
                    )
                    continue
                }
                guard let (definition, captures) = StepCatalog.find(step.text) else { continue }
                if let problem = definition.check(captures) { add("\(pickle.uri):\(step.line): \(problem)") }
                if let problem = argumentProblem(definition, step, captures: captures, uri: pickle.uri) { add(problem) }
                for problem in jsonDocStringProblems(definition, captures, step) { add("\(pickle.uri):\(step.line): \(problem)") }
                if definition.docString == .expectedPattern, let text = step.docString?.content,
                    OutputPattern.matchesAnything(Array(text.utf8))
                {
                    add("\(pickle.uri):\(step.line): \(OutputPattern.matchesAnythingProblem)")
                }
                for index in definition.durationCaptures where index < captures.count {
                    let value = captures[index]
                    if !value.isEmpty, !value.contains("${"), DurationParser.parse(value) == nil {
                        add(
                            "\(pickle.uri):\(step.line): '\(value.prefix(40))' is not a duration from 0 to 1000000000 seconds; write 500ms, 30s, 2m, 1h or 1m30s"
                        )
                    }
                }
            }
        }
        return problems
    }

    /// Snapshot names more than one pickle of a file uses (two scenarios, or the rows of an outline whose name has
    /// no placeholder), or one scenario uses twice: under `--update-snapshots` the last writer wins and the other fails on the next run. A name
    /// with `${…}` is left to run time (a variable may differ per scenario). Names are one when they differ only by
    /// Unicode normalisation or by case (`Out` and `out`): one file on macOS's and Windows' case-insensitive disks.
    static func snapshotCollisions(_ pickles: [Pickle]) -> [String] {
        var first: [String: (pickle: Pickle, stepLine: Int, name: String)] = [:]
        var reported: Set<String> = []
        var problems: [String] = []
        for pickle in pickles {
            var names: [String: (line: Int, name: String)] = [:]
            for step in pickle.steps {
                guard let (definition, captures) = StepCatalog.find(step.text), definition.source.contains("matches the snapshot"),
                    let name = captures.last, !name.contains("${")
                else { continue }
                let key = Snapshots.fileSystemKey(name)
                // Twice in one scenario: the second write replaces the first under --update-snapshots.
                if let (line, other) = names[key] {
                    if line != step.line, reported.insert("\u{1}\(pickle.uri):\(line):\(step.line)").inserted {
                        problems.append(
                            "\(pickle.uri):\(step.line): the snapshot \(described(other, name)) used twice in one scenario, at lines \(line) and \(step.line): the"
                                + " second would replace the first under --update-snapshots and the first fail on the next run; give each its own name"
                        )
                    }
                    continue
                }
                names[key] = (step.line, name)
                guard let earlier = first[key] else {
                    first[key] = (pickle, step.line, name)
                    continue
                }
                guard reported.insert(key).inserted else { continue }
                func place(_ pickle: Pickle, _ line: Int) -> String {
                    "\(pickle.uri):\(line) (\(pickle.line == pickle.scenarioLine ? "scenario" : "Examples row") at line \(pickle.line))"
                }
                problems.append(
                    "\(pickle.uri):\(step.line): the snapshot \(described(earlier.name, name)) used by more than one scenario, \(place(earlier.pickle, earlier.stepLine))"
                        + " and \(place(pickle, step.line)): the last to update it would win and the other fail; give each its own name"
                        + " (in a Scenario Outline, a placeholder that differs per row, like \"\(name)-<v>\")")
            }
        }
        return problems
    }

    /// `"out" is` for one name (or two that differ only by normalisation), `"Out" (as "out", which differs only by
    /// case: …) is` for two that differ by case.
    private static func described(_ first: String, _ second: String) -> String {
        guard first != second else { return "\"\(first)\" is" }
        return "\"\(first)\" (as \"\(second)\", which differs only by case: one file on macOS's and Windows' case-insensitive disks) is"
    }

    /// Why a feature file that parses gives no scenario, for `check`.
    package static func whyEmpty(_ document: GherkinDocument, text: String) -> String {
        if text.utf8.contains(UInt8(ascii: "\r")) && !text.utf8.contains(UInt8(ascii: "\n")) {
            return "its lines end in CR alone; Cucumber ends lines at LF (or CRLF), so the file is one line"
        }
        guard let feature = document.feature else { return "the file has no Feature line (it is empty or only comments)" }
        let scenarios = feature.scenarios.count + feature.rules.reduce(0) { $0 + $1.scenarios.count }
        if scenarios == 0 { return "the Feature has no Scenario, Example or Scenario Outline (a misspelt keyword is description text)" }
        return "its Scenario Outlines' Examples have no rows"
    }

    /// `file:line: undefined step "…"; closest: …`, once per line.
    package static func undefinedSteps(_ pickles: [Pickle], userSteps: [UserStep] = []) -> [String] {
        var problems: [String] = []
        var reported: Set<String> = []
        // What to say of one undefined text is worked out once: a file repeats its steps.
        var advice: [String: String] = [:]
        let index = UserStepIndex(userSteps)
        for pickle in pickles {
            for step in pickle.steps
            where isUndefined(step, userSteps: index) && reported.insert("\(pickle.uri):\(step.line)").inserted {
                let said = "\(step.keyword)\(step.text)"
                if advice[said] == nil {
                    let closest = StepCatalog.closest(to: said, count: 1).first?.split(separator: "\n").first.map(String.init) ?? ""
                    advice[said] =
                        "closest: \(closest); or in a *.steps.json: \(UserSteps.snippet(for: step.text)); or in Swift: \(UserSteps.swiftSnippet(for: step.text))"
                }
                problems.append("\(pickle.uri):\(step.line): undefined step \"\(said)\"; \(advice[said]!)")
            }
        }
        return problems
    }

    /// The scenario timeout tag's prefix: `@timeout=10s`.
    static let timeoutTag = "@timeout="
}
