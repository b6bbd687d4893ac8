import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// Our Cucumber Messages against the reference parser's (PyPI gherkin-official): for every file it accepts, the
/// gherkinDocument and pickle envelopes are equal, ids included, locations to the column, descriptions, comments.
@Suite struct CucumberMessagesTests {
    static let hasReference = pythonCanImport("gherkin.stream.gherkin_events")

    static let texts: [String] =
        GherkinConformanceTests.cases.map(\.text) + [
            """
            # a comment before anything
            @ft @billing
            Feature: Messages
              A description
                indented, with a # comment below
              # a comment inside the description

              Background: setup
                Given a background step

              @t
              Scenario Outline: outline <x>
                Given a <x>
                  | head | <x> |
                  |  a   |   b |
                When a doc string
                  ```text
                  body <x>
                  ```
                Then done

                @ex
                Examples: first
                  | x |
                  | 1 |
                  | 2 |

              Rule: a rule
                Background:
                  Given the rule's background
                Scenario: plain
                  * a star
                  But a but
            """,
            "# language: it\nFunzionalità: f\n  Scenario: s\n    Dato un passo\n    E un altro\n",
            // Tags: indented with tabs and spaces, non-ASCII, a comment after a space and after a tab.
            "\t @ünï  @b\t@c #a comment @notatag\nFeature: tags\n\t@x\t#tab comment\n  Scenario: s\n    Given a step\n",
        ]

    @Test(.enabled(if: hasReference, "needs the reference parser: pip install gherkin-official (scripts/install-test-deps.sh installs it)"))
    func documentsAndPicklesAreTheReferenceParsers() throws {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("messages-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: Self.texts).write(to: input)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Gherkin/reference_messages.py").path
        let references = try #require(try JSONSerialization.jsonObject(with: try runPython(script, [input.path])) as? [[[String: Any]]])
        try #require(references.count == Self.texts.count)
        var compared = 0
        for (index, (text, reference)) in zip(Self.texts, references).enumerated() {
            guard reference.allSatisfy({ $0["parseError"] == nil }) else { continue } // rejected: GherkinConformanceTests
            let uri = "case\(index).feature"
            let document = try GherkinParser.parse(text, uri: uri)
            var messages = CucumberMessages()
            messages.document(document, pickles: Pickle.compile(document))
            let ours = try messages.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
            #expect(Self.canonical(ours) == Self.canonical(reference), "case \(index):\n\(text)")
            compared += 1
        }
        #expect(compared >= 15)
    }

    @Test func aRunWritesEveryEnvelopeWithConsistentIds() throws {
        let text = "Feature: f\n  Scenario: passes\n    Given a step\n  Scenario: fails\n    Given a step\n    When another\n"
        let document = try GherkinParser.parse(text, uri: "f.feature")
        let pickles = Pickle.compile(document)
        var messages = ScenarioLint.messages([
            ScenarioLint.Source(uri: "f.feature", text: text, document: .success((document, Pickle.compile(document))))
        ])
        messages.testRunStarted(atMs: 1_000)
        let passed = ScenarioResult(
            pickle: pickles[0], status: .passed, duration: .milliseconds(5), trail: ["✓ Given a step"], outputTail: "",
            unexpectedRequests: [])
        var failed = ScenarioResult(
            pickle: pickles[1], status: .failed, duration: .milliseconds(7), trail: ["✗ Given a step", "- When another"], outputTail: "",
            unexpectedRequests: [])
        failed.message = "expected x"
        messages.testCase(passed, startedAtMs: 1_000)
        messages.testCase(failed, startedAtMs: 1_005)
        messages.testRunFinished(success: false, atMs: 1_020)
        let envelopes = try messages.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(envelopes.allSatisfy { $0.count == 1 }, "one message per envelope")
        #expect(
            envelopes.compactMap(\.keys.first) == [
                "meta", "source", "gherkinDocument", "pickle", "pickle", "testRunStarted",
                "testCase", "testCaseStarted", "testStepStarted", "testStepFinished", "testCaseFinished",
                "testCase", "testCaseStarted", "testStepStarted", "testStepFinished", "testStepStarted", "testStepFinished",
                "testCaseFinished",
                "testRunFinished",
            ])
        let pickleIds = Set(envelopes.compactMap { ($0["pickle"] as? [String: Any])?["id"] as? String })
        let cases = envelopes.compactMap { $0["testCase"] as? [String: Any] }
        #expect(cases.allSatisfy { pickleIds.contains($0["pickleId"] as? String ?? "") })
        let statuses = envelopes.compactMap {
            (($0["testStepFinished"] as? [String: Any])?["testStepResult"] as? [String: Any])?["status"] as? String
        }
        #expect(statuses == ["PASSED", "FAILED", "SKIPPED"])
        #expect((envelopes.last?["testRunFinished"] as? [String: Any])?["success"] as? Bool == false)
    }

    /// An undefined step is UNDEFINED wherever it is; the steps around it are SKIPPED.
    @Test func anUndefinedStepIsMarkedWhereItIs() throws {
        let text = "Feature: f\n  Scenario: s\n    When I run \"true\"\n    Then nobody knows this\n    And the exit code is 0\n"
        let document = try GherkinParser.parse(text, uri: "f.feature")
        let pickle = try #require(Pickle.compile(document).first)
        var result = ScenarioResult(
            pickle: pickle, status: .error, duration: .zero, trail: ["- a", "- b", "- c"], outputTail: "", unexpectedRequests: [])
        result.failedStep = "f.feature:4: Then nobody knows this"
        result.message = "undefined step: Then nobody knows this"
        var messages = ScenarioLint.messages([
            ScenarioLint.Source(uri: "f.feature", text: text, document: .success((document, Pickle.compile(document))))
        ])
        messages.testCase(result, startedAtMs: 0)
        let statuses = messages.lines.compactMap { $0.firstMatch(of: #/"status":"([A-Z]+)"/#)?.output.1 }.map(String.init)
        #expect(statuses == ["SKIPPED", "UNDEFINED", "SKIPPED"])
    }

    /// A test step names its step definition and where the captured values sit in the step's text.
    @Test func testStepsCarryTheirDefinitionAndArguments() throws {
        let text = "Feature: f\n  Scenario: s\n    When I run \"echo hi\"\n"
        let document = try GherkinParser.parse(text, uri: "f.feature")
        let pickle = try #require(Pickle.compile(document).first)
        var messages = ScenarioLint.messages([
            ScenarioLint.Source(uri: "f.feature", text: text, document: .success((document, Pickle.compile(document))))
        ])
        messages.stepDefinitions(userSteps: [])
        messages.testCase(
            ScenarioResult(
                pickle: pickle, status: .passed, duration: .zero, trail: ["✓ When I run \"echo hi\""],
                outputTail: "", unexpectedRequests: []), startedAtMs: 0)
        let testCase = try #require(messages.lines.first { $0.hasPrefix(#"{"testCase""#) })
        #expect(testCase.contains(#""stepMatchArguments":[{"group":{"start":7,"value":"echo hi","children":[]}}]"#), "\(testCase)")
        let definitionId = try #require(testCase.firstMatch(of: #/"stepDefinitionIds":\["(\d+)"\]/#)?.output.1)
        #expect(messages.lines.contains { $0.hasPrefix(#"{"stepDefinition":{"id":"\#(definitionId)""#) && $0.contains(#"I run "#) })
    }

    /// JSON with ids renamed in order of first appearance (sorted keys, depth first), so two writers that
    /// number differently but consistently compare equal; key order does not matter.
    static func canonical(_ value: Any) -> String {
        var names: [String: String] = [:]
        func rename(_ id: String) -> String {
            if let known = names[id] { return known }
            names[id] = "#\(names.count)"
            return names[id]!
        }
        func walk(_ value: Any, key: String?) -> Any {
            if let object = value as? [String: Any] {
                var result: [String: Any] = [:]
                for name in object.keys.sorted() { result[name] = walk(object[name]!, key: name) }
                return result
            }
            if let array = value as? [Any] { return array.map { walk($0, key: key) } }
            if let text = value as? String, ["id", "astNodeIds", "astNodeId", "pickleId", "pickleStepId"].contains(key ?? "") {
                return rename(text)
            }
            return value
        }
        let walked = walk(value, key: nil)
        let data = (try? JSONSerialization.data(withJSONObject: walked, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
