import AutomationSupport
import ProcessEngine

/// Steps that read the program's output. Each reads the stream from its first byte as it arrives (not a
/// prefix, not a snapshot): past the memory capture the bytes come from the spool, and where even that
/// stopped the step fails naming the cap. A wait cut short by the scenario's deadline never passes.
extension StepCatalog {
    static let output: [StepDefinition] = [
        StepDefinition(
            "I see \(quoted)( on stderr)?(?: within (\\S+))?", example: "Then I see \"logged in as ada\"",
            durationCaptures: [2], values: [0: .expected], check: { emptyTextProblem($0[0]) }
        ) { run, captures, _ in
            let text = captures[0]
            let stream: StandardStream = captures[1].isEmpty ? .stdout : .stderr
            try run.within(captures[2]) {
                var matcher = TextMatcher(text)
                let budget = run.waitBudget()
                switch try run.watch(stream, timeout: budget.limit, &matcher) {
                case .matched: return
                case .cut(let why): throw StepFailure("expected \"\(text)\" on \(stream.rawValue): not found before the cap: \(why)")
                case .ended, .timedOut: throw StepFailure("expected \"\(text)\" on \(stream.rawValue): \(notSeen(run, budget))")
                }
            }
        },
        StepDefinition(
            "the screen shows \(quoted)(?: within (\\S+))?", example: "Then the screen shows \"ready\"", durationCaptures: [1],
            values: [0: .expected], check: { emptyTextProblem($0[0]) }
        ) { run, captures, _ in
            let text = captures[0]
            guard let size = run.terminal else {
                throw StepFailure("the screen needs Given the program runs in a terminal before the launch", kind: .error)
            }
            try run.within(captures[1]) {
                let budget = run.waitBudget()
                switch try run.watchScreen(showing: text, timeout: budget.limit) {
                case .matched: return
                case .cut(let why): throw StepFailure("expected the screen to show \"\(text)\": the screen stopped at the cap: \(why)")
                case .ended, .timedOut:
                    throw StepFailure(
                        "expected the screen to show \"\(text)\": \(notSeen(run, budget))\n--- screen (\(size.columns)x\(size.rows)) ---\n\(run.screen()?.text ?? "")"
                    )
                }
            }
        },
        StepDefinition(
            "I see a line matching \(quoted)( on stderr)?", example: "Then I see a line matching \"token: [a-z0-9]+\"",
            values: [0: .regex], check: { regexProblem(StepVariables.substitute($0[0]) { _ in "x" }) }
        ) { run, captures, _ in
            let source = captures[0]
            let regex: RegexBox
            if let problem = regexProblem(source) { throw StepFailure(problem, kind: .error) } // checked at load too
            do { regex = try RegexBox(source) } catch { throw StepFailure("invalid \(error)", kind: .error) }
            let stream: StandardStream = captures[1].isEmpty ? .stdout : .stderr
            let budget = run.waitBudget()
            // The matching answers to the step's deadline too: a pattern slow on long lines stops there, not lines later.
            var matcher = LineMatcher(regex, deadline: .now + budget.limit)
            switch try run.watch(stream, timeout: budget.limit, &matcher) {
            case .matched:
                guard matcher.stoppedAtDeadline else { return }
                throw StepFailure(
                    "expected a line of \(stream.rawValue) matching /\(source)/: the pattern was still working on the output at "
                        + "\(budget.cut ?? run.stepLimitName(budget.limit)); make it simpler\(matcher.note)")
            case .cut(let why): throw StepFailure("expected a line of \(stream.rawValue) matching /\(source)/: none before the cap: \(why)")
            case .ended, .timedOut:
                throw StepFailure("expected a line of \(stream.rawValue) matching /\(source)/: \(notSeen(run, budget))\(matcher.note)")
            }
        },
        StepDefinition(
            "I do not see \(quoted)( on stderr)?(?: within (\\S+))?", example: "Then I do not see \"error\"",
            durationCaptures: [2], values: [0: .expected], check: { emptyTextProblem($0[0]) }
        ) { run, captures, _ in
            let text = captures[0]
            let stream: StandardStream = captures[1].isEmpty ? .stdout : .stderr
            var matcher = TextMatcher(text)
            // With `within`: watch for the whole period (or until the program ends); without: all output so far.
            let budget = captures[2].isEmpty ? (limit: Duration.zero, cut: nil) : try run.within(captures[2]) { run.waitBudget() }
            switch try run.watch(stream, timeout: budget.limit, &matcher) {
            case .matched:
                throw StepFailure("\"\(text)\" appeared on \(stream.rawValue)\(captures[2].isEmpty ? "" : " within \(captures[2])")")
            case .cut(let why): throw StepFailure("cannot tell that \"\(text)\" did not appear on \(stream.rawValue): \(why)")
            case .ended: return
            case .timedOut:
                if let cut = budget.cut { throw StepFailure("\"\(text)\" was watched for on \(stream.rawValue) only until \(cut)") }
            }
        },
    ]

    /// An empty expected text is found in any output (and never absent from it): such a step cannot fail.
    static func emptyTextProblem(_ text: String) -> String? {
        text.isEmpty ? "the expected text is empty, so this step could never fail; write the text to look for" : nil
    }

    /// Why a step's regular expression cannot be used (found at load, by check, test and --dry-run), or nil.
    package static func regexProblem(_ source: String) -> String? {
        do { _ = try RegexBox(source) } catch { return "invalid \(error)" }
        // A pattern that matches empty text inside a line (`""`, `x*`, `(a)?`, `error|`) matches every line: the
        // step could never fail. Tried as redactions are, at every position of their probe texts (not the empty
        // one: `^$` asks for an empty line, and may).
        guard let wrapped = try? RegexBox("(" + source + ")", groups: true) else { return nil }
        var budget = 1_000_000
        for probe in Redaction.emptyProbes where !probe.isEmpty {
            let scalars = Array(probe.unicodeScalars)
            for start in 0...scalars.count {
                switch wrapped.find(in: scalars, from: start, budget: &budget) {
                case .match(let ranges): if let whole = ranges.first ?? nil, whole.isEmpty { return emptyRegexProblem(source) }
                case .gaveUp: return emptyRegexProblem(source)
                case .none: break
                }
            }
        }
        return nil
    }

    private static func emptyRegexProblem(_ source: String) -> String {
        "the pattern /\(source.prefix(80).escapingControlCharacters())/ can match empty text (as \"\", x*, (a)? or an empty alternative"
            + " do), so it matches every line and the step could never fail; make it match at least one character"
    }

    /// "the program exited with code 0 without printing it", or "it did not appear within 2s" (naming the
    /// scenario's timeout when that cut the wait).
    static func notSeen(_ run: ScenarioRun, _ budget: (limit: Duration, cut: String?)) -> String {
        // Output ends a moment before waitpid reports the exit: give it that moment.
        if let status = run.process?.waitForExit(timeout: .milliseconds(200)) { return "the program \(status) without printing it" }
        if let cut = budget.cut { return "it did not appear before \(cut)" }
        return "it did not appear within \(run.stepLimitName(budget.limit))"
    }
}
