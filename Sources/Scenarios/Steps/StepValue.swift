import AutomationSupport

/// How a built-in step's value is expanded when the step runs. Every capture, doc string and table cell of a
/// built-in step goes through ``ScenarioRun/expandedValues(_:_:_:)`` before the step sees it, so no step can
/// forget `${NAME}` (a request count on `"DELETE /users/${ID}"` compared against the text as written once
/// passed after the program sent `DELETE /users/7`).
package enum StepValue: Sendable, Equatable {
    /// `${NAME}` replaced by its value, in one pass.
    case text
    /// An assertion's expected text: as ``text``, and a `${NAME}` whose value is empty fails the step wherever it
    /// stands in the value (`"myapp ${VERSION}"` with `-D VERSION=` would check only `"myapp "`).
    case expected
    /// An output pattern (`the output is:`, `the file … is:`): as ``expected``, and what a value brings is text, never
    /// a wildcard: a line that is a pattern only because of a value (`${V}` with `V=...` or `[..]`) is written escaped;
    /// a value holding `[..]`, a line break or a leading `\` inside a line that is a pattern itself fails the step.
    case expectedPattern
    /// As written: the step expands it in its own way (a command line is split into words first, an input path is
    /// relative to the feature file unless it starts with `${NAME}`, a variable's name is checked at load).
    case raw
    /// A regular expression: each value is matched literally (escaped), as Cucumber users expect of a value; an
    /// empty value fails as ``expected`` does.
    case regex
    /// A JSON doc string: `${NAME}` inside its strings only (a value holding `"` cannot change its shape).
    case json
    /// A JSON doc string the step compares with: `${NAME}` inside its strings only, and empty values fail as ``expected``.
    case expectedJSON
    /// A name (a snapshot's): as ``text``, and a value that leaves it empty fails naming the value (`${N}`), never "needs a name".
    case name(String)
    /// ``json`` when capture N is not empty (`… answers 200 with JSON:`), else ``text``.
    case jsonWhen(Int)
}

extension ScenarioRun {
    /// A built-in step's captures and step with every `${NAME}` expanded as `definition` says (``StepValue``).
    func expandedValues(
        _ definition: StepDefinition, _ captures: [String], _ step: GherkinDocument.Step
    ) throws(StepFailure) -> ([String], GherkinDocument.Step) {
        var values: [String] = []
        for (index, capture) in captures.enumerated() {
            // `within ${T}` with an empty T would read as no `within` at all (no bound): a duration written is one.
            if definition.durationCaptures.contains(index) {
                try refuseEmptyExpansion(capture, "duration (not one like 500ms or 2s: it would mean no bound at all)")
            }
            values.append(try expandValue(capture, as: definition.values[index] ?? .text))
        }
        var step = step
        if let content = step.docString?.content {
            var kind = definition.docString
            if case .jsonWhen(let index) = kind { kind = index < captures.count && !captures[index].isEmpty ? .json : .text }
            step.docString?.content = try expandValue(content, as: kind)
        }
        if var table = step.dataTable {
            table.rows = table.rows.map { $0.map(expand) }
            step.dataTable = table
        }
        return (values, step)
    }

    /// One value expanded as `kind` says.
    func expandValue(_ text: String, as kind: StepValue) throws(StepFailure) -> String {
        switch kind {
        case .raw: return text
        case .name(let what):
            try refuseEmptyExpansion(text, what)
            return expand(text)
        case .text, .jsonWhen: return expand(text)
        case .expected:
            try refuseEmptyValues(in: text)
            return expand(text)
        case .regex:
            try refuseEmptyValues(in: text)
            return StepVariables.substitute(text) { StepVariables.regexLiteral(variable($0) ?? "") }
        case .expectedPattern:
            try refuseEmptyValues(in: text)
            return try expandPattern(text)
        case .json: return try expandJSON(text)
        case .expectedJSON:
            try refuseEmptyValues(in: text)
            return try expandJSON(text)
        }
    }

    /// An output pattern expanded line by line (``StepValue/expectedPattern``).
    func expandPattern(_ text: String) throws(StepFailure) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let expanded = expand(line)
            guard expanded != line else {
                lines.append(line)
                continue
            }
            guard line == "..." || line.contains("[..]") || line.hasPrefix("\\") else {
                // Text as written: what the values made of it is compared as text.
                lines.append(String(decoding: OutputPattern.escaped(Array(expanded.utf8)), as: UTF8.self))
                continue
            }
            for name in StepVariables.names(in: line) {
                let value = variable(name) ?? ""
                guard value.contains("[..]") || value.contains("\n") || value.hasPrefix("\\") else { continue }
                throw StepFailure(
                    "\"\(line.prefix(120).escapingControlCharacters())\": the value of ${\(name)} holds [..], a line break or a leading \\, "
                        + "which this pattern line would read as syntax, not text; compare it in a line without [..] of its own",
                    kind: .error)
            }
            lines.append(expanded)
        }
        return lines.joined(separator: "\n")
    }

    /// Fails when `written` holds a `${NAME}` and comes out empty: the step would name no `what` (no file, no duration,
    /// no snapshot), and would fail for a reason that is not the one (`: no such directory`) or mean something else.
    func refuseEmptyExpansion(_ written: String, _ what: String) throws(StepFailure) {
        guard !written.isEmpty, expand(written).isEmpty else { return }
        let names = StepVariables.names(in: written).map { "${\($0)}" }
        throw StepFailure(
            "\"\(written.prefix(60).escapingControlCharacters())\": \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") empty, "
                + "so this step names no \(what); give \(names.count == 1 ? "it" : "them") a value", kind: .error)
    }

    /// Fails when a `${NAME}` in an expected value has an empty value: the step would check less than it says.
    func refuseEmptyValues(in text: String) throws(StepFailure) {
        var empty: [String] = []
        for name in StepVariables.names(in: text) where (variable(name) ?? "").isEmpty && !empty.contains("${\(name)}") {
            empty.append("${\(name)}")
        }
        guard !empty.isEmpty else { return }
        let shown = text.count > 120 ? String(text.prefix(120)) + "…" : text
        throw StepFailure(
            "\"\(shown.escapingControlCharacters())\": \(empty.joined(separator: ", ")) \(empty.count == 1 ? "is" : "are") empty, so this step "
                + "would check less than it says (a -D VERSION=\"$VERSION\" with the variable unset?); give \(empty.count == 1 ? "it" : "them") a value",
            kind: .error)
    }
}
