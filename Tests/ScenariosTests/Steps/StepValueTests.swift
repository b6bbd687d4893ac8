import AutomationSupport
import Testing

@testable import Scenarios

/// `${NAME}` in every built-in step: each goes through one expansion (`ScenarioRun.expandedValues`), so a step
/// cannot compare or send the text as written (hostile review r4b, finding C: `0 requests to "DELETE /users/${ID}"`
/// passed after `DELETE /users/7`; flag keys, entry points, routes and snapshot names kept `${…}` too).
@Suite struct StepValueTests {
    /// The captures a step expands in its own way, each with why (and an end-to-end test of its own): a command
    /// line is split into words before `${NAME}` is replaced in each; an input path starting with `${NAME}` is the
    /// value as given, not relative to the feature file; a variable's name is checked at load, so never expanded.
    static let expandedByTheStep: [String: Set<Int>] = [
        "the program \"": [0], "the files from \"": [0], "the stubs \"": [0], "I run \"": [0], "I launch the program(": [0],
        "the environment variable \"": [0],
    ]

    /// Every catalog step, with `${X}` added to each of its quoted values, its doc string and its table: nothing
    /// of `${X}` is left in what the step gets, but for the captures above (and `a file "…" with:`'s content,
    /// written as it stands).
    @Test func everyBuiltInStepGetsItsValuesExpanded() throws {
        var options = ScenarioOptions()
        options.defines["X"] = "vx"
        var walked = 0
        for definition in StepCatalog.all {
            let example = UserSteps.withoutKeyword(String(definition.example.split(separator: "\n")[0]))
            let text = example.replacing(/"((?:[^"\\]|\\.)*)"/) { "\"\($0.output.1)${X}\"" }
            guard text != example else { continue } // no quoted value (I press Ctrl-C, the exit code is 0)
            walked += 1
            let feature = "Feature: f\n  Scenario: s\n    Given \(text)\n      \"\"\"\n      { \"a\": \"${X}\" }\n      \"\"\"\n"
            let tabled = "Feature: f\n  Scenario: s\n    Given \(text)\n      | k${X} | v${X} |\n"
            for source in [feature, tabled] {
                let pickle = try #require(Pickle.compile(try GherkinParser.parse(source, uri: "/nonexistent/f.feature")).first)
                let step = pickle.steps[0]
                let (found, captures) = try #require(StepCatalog.find(step.text), "\(text)")
                #expect(found.source == definition.source, "\(text) found \(found.source)")
                let run = ScenarioRun(pickle: pickle, options: options, rootDirectory: "/nonexistent", timeout: .seconds(5))
                let (values, expanded) = try run.expandedValues(found, captures, step)
                let own = Self.expandedByTheStep.first { definition.source.hasPrefix($0.key) }?.value ?? []
                for (index, value) in values.enumerated() where captures[index].contains("${X}") {
                    if own.contains(index) {
                        #expect(value == captures[index], "\(text): capture \(index) is the step's to expand")
                    } else {
                        #expect(!value.contains("${X}") && value.contains("vx"), "\(text): capture \(index) is \(value)")
                    }
                }
                if let content = expanded.docString?.content {
                    let kept = definition.source.hasPrefix("a file ")
                    #expect(content.contains("${X}") == kept, "\(text): doc string \(content)")
                }
                if let rows = expanded.dataTable?.rows { #expect(rows == [["kvx", "vvx"]], "\(text): table \(rows)") }
            }
        }
        #expect(walked >= 29, "only \(walked) steps have quoted values")
    }

    /// An expected value with an empty `${NAME}` anywhere in it fails (not only when it is the whole value), in
    /// every assertion: text, regular expression, doc string and JSON.
    @Test func anEmptyValueAnywhereInAnExpectedValueFails() throws {
        var options = ScenarioOptions()
        options.defines["V"] = ""
        let source = "Feature: f\n  Scenario: s\n    Then I see \"app ${V}\"\n"
        let pickle = try #require(Pickle.compile(try GherkinParser.parse(source, uri: "/nonexistent/f.feature")).first)
        let run = ScenarioRun(pickle: pickle, options: options, rootDirectory: "/nonexistent", timeout: .seconds(5))
        for kind in [StepValue.expected, .regex, .expectedJSON] {
            let text = kind == .expectedJSON ? "{ \"a\": \"x${V}\" }" : "app ${V} ok"
            #expect(throws: StepFailure.self) { try run.expandValue(text, as: kind) }
        }
        #expect(try run.expandValue("app ${V}", as: .text) == "app ")
    }

    /// A value in a regular expression matches itself: its metacharacters are escaped.
    @Test func aValueInARegularExpressionIsLiteral() throws {
        #expect(StepVariables.regexLiteral("1.2 (a|b)*") == "1\\.2\\ \\(a\\|b\\)\\*")
        let regex = try RegexBox("v " + StepVariables.regexLiteral("1.2+[x]"))
        #expect(regex.matchesWhole("v 1.2+[x]"))
        #expect(!regex.matchesWhole("v 1x22x"))
    }

    /// `${NAME}` in a JSON doc string (R8B-6): inside a string, text (a quote stays inside it); standing as a value,
    /// its value read as one JSON value (never a member added); a value that is no JSON value is refused naming it.
    @Test func aValueStandingAsAJSONValueIsReadAsOne() throws {
        let values = ["N": "42", "L": "[1, {\"b\": null}]", "Q": "x\", \"y\": \"z", "S": "${N}", "BAD": "5, \"c\": 1"]
        func substituted(_ text: String) throws -> String { try StepVariables.substituteInJSON(text) { values[$0] ?? "" } }
        #expect(
            try substituted(#"{"a": ${N}, "l": ${L}, "q": "${Q}", "n": "${N}"}"#)
                == #"{"a":42,"l":[1,{"b":null}],"q":"x\", \"y\": \"z","n":"42"}"#)
        #expect(try substituted("[\n  ${N},\n  \"${S}\", ${L}\n]") == #"[42,"${N}",[1,{"b":null}]]"#)
        #expect(throws: StepVariables.JSONValueError.self) { try substituted(#"{"a": ${BAD}}"#) }
        #expect(StepVariables.jsonDocumentProblem(#"{"a": ${N}}"#) == nil)
        #expect(StepVariables.jsonDocumentProblem(#"{"h": 1, "h": 2}"#)?.hasPrefix("the doc string is not JSON: 1:") == true)
        #expect(StepVariables.jsonDocumentProblem(#"{"a": ${N} ${N}}"#) != nil)
    }
}
