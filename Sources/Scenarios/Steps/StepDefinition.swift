package import AutomationSupport

/// One ready step: its pattern, an example for docs and suggestions, and what it does.
package struct StepDefinition: @unchecked Sendable {
    /// Matched by the linear-time Pike VM with capture groups, as every step pattern is (``UserStep`` too).
    let pattern: RegexBox
    /// The pattern as written (for Cucumber Messages' stepDefinition).
    let source: String
    /// The text every match starts with (the pattern's leading literal characters): checked before the regular
    /// expression, which costs microseconds (loading 20,000 scenarios checks every step against the catalog).
    let literalPrefix: String
    package let example: String
    /// Captures that must be durations (`500ms`, `2s`): checked when a feature file loads, by `check` and `test`.
    let durationCaptures: [Int]
    /// Checks the captures when a feature file loads, before anything runs: the problem, or nil.
    let check: @Sendable ([String]) -> String?
    /// How each capture's `${NAME}`s are expanded before `run` sees it (``StepValue``); a capture not listed is
    /// ``StepValue/text``. Every built-in step goes through ``ScenarioRun/expandedValues(_:_:_:)``: none expands its own.
    let values: [Int: StepValue]
    /// How the step's doc string is expanded (its table's cells are always ``StepValue/text``).
    let docString: StepValue
    /// What the step takes under its line; anything else there is a load error (``ScenarioLint/argumentProblem(_:_:captures:uri:)``).
    let argument: Argument
    /// Throws ``StepFailure`` (any other error counts as a failure with its text).
    let run: (ScenarioRun, [String], GherkinDocument.Step) throws -> Void

    init(
        _ pattern: String, example: String, durationCaptures: [Int] = [], values: [Int: StepValue] = [:], docString: StepValue = .text,
        argument: Argument = .none, check: @escaping @Sendable ([String]) -> String? = { _ in nil },
        _ run: @escaping (ScenarioRun, [String], GherkinDocument.Step) throws -> Void
    ) {
        // Patterns are fixed strings in this file; a bad one is a programming error caught by the catalog test.
        self.pattern = try! RegexBox("^" + pattern + "$", groups: true)
        self.source = pattern
        self.literalPrefix = Self.literalPrefix(of: pattern)
        self.example = example
        self.durationCaptures = durationCaptures
        self.check = check
        self.values = values
        self.docString = docString
        self.argument = argument
        self.run = run
    }

    /// What a step takes under its line. Cucumber refuses an argument its step definition does not take (an arity
    /// mismatch); a table or doc string the step never reads would let `Then I see "a"` over `| b |` pass unread.
    package enum Argument: Sendable, Equatable {
        /// Neither a doc string nor a data table.
        case none
        /// A doc string (without one, the step fails when it runs).
        case docString
        /// A doc string or nothing (`Given the route "GET /" answers 200`).
        case optionalDocString
        /// A data table (without one, the step fails when it runs).
        case table
    }

    /// The leading characters of a pattern that match only themselves; stops before anything a quantifier,
    /// an alternation or a group could change (so "a b?" gives "a ", not "a b").
    package static func literalPrefix(of pattern: String) -> String {
        // A top-level alternation ("a|b") can start with anything: no prefix.
        var depth = 0
        var inClass = false
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            case "|" where !inClass && depth == 0: return ""
            default: break
            }
        }
        var prefix = ""
        var characters = Array(pattern)[...]
        while let character = characters.first {
            if "\\^$.|?*+()[]{}".contains(character) { break }
            if let next = characters.dropFirst().first, "?*+{".contains(next) { break }
            prefix.append(character)
            characters = characters.dropFirst()
        }
        return prefix
    }

    /// Where each captured group starts in `text` (in characters) and what it holds, for Cucumber Messages;
    /// groups that took part in no match are left out.
    package static func arguments(of regex: RegexBox, in text: String) -> [(start: Int, value: String)] {
        guard let groups = regex.groups(whole: text) else { return [] }
        return groups.compactMap { range in
            guard let range else { return nil }
            return (text.distance(from: text.startIndex, to: range.lowerBound), String(text.unicodeScalars[range]))
        }
    }

    /// The captured groups when `text` matches.
    func match(_ text: String) -> [String]? {
        guard text.hasPrefix(literalPrefix), let groups = pattern.groups(whole: text) else { return nil }
        return groups.map { $0.map { String(text.unicodeScalars[$0]) } ?? "" }
    }
}
