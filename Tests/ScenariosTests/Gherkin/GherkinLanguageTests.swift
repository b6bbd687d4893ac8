import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// Every language of Gherkin's official keyword list, against the reference parser (PyPI gherkin-official):
/// the same feature text (each kind of keyword, a Background, a Scenario Outline) must give the same pickles.
@Suite struct GherkinLanguageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("official_pickles.py").path

    static let hasReference = pythonCanImport("gherkin.parser, gherkin.pickles.compiler")

    @Test(.enabled(if: hasReference, "needs the reference parser: pip install gherkin-official (scripts/install-test-deps.sh installs it)"))
    func everyLanguageParsesAsTheReferenceParserDoes() throws {
        let data = try runPython(Self.script)
        let cases = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(cases.count == GherkinDialect.all.count, "the reference knows \(cases.count) languages, we \(GherkinDialect.all.count)")
        for testCase in cases {
            let code = testCase["code"] as? String ?? "?"
            let text = testCase["text"] as? String ?? ""
            let expected = (testCase["pickles"] as? [[String: Any]] ?? []).map { pickle in
                (pickle["name"] as? String ?? "", (pickle["steps"] as? [[String]] ?? []).map { $0.joined(separator: " | ") })
            }
            let pickles: [Pickle]
            do {
                pickles = Pickle.compile(try GherkinParser.parse(text, uri: "\(code).feature"))
            } catch {
                Issue.record("\(code): \(error)\n\(text)")
                continue
            }
            let actual = pickles.map { pickle in
                (pickle.specName, pickle.steps.map { "\($0.text) | \($0.pickleType)" })
            }
            #expect(actual.count == expected.count, "\(code): \(actual.count) pickles, the reference \(expected.count)")
            for (ours, theirs) in zip(actual, expected) {
                #expect(ours.1 == theirs.1, "\(code): steps differ\n\(text)")
                #expect(ours.0 == theirs.0, "\(code): pickle name")
            }
        }
    }

    @Test func anUnknownLanguageIsNamedWithTheNearestCode() {
        #expect(throws: GherkinError.self) { try GherkinParser.parse("# language: itx\nFunzionalità: x\n", uri: "f.feature") }
        do {
            _ = try GherkinParser.parse("# language: itx\nFunzionalità: x\n", uri: "f.feature")
        } catch {
            #expect("\(error)".contains(##"f.feature:1: unknown language "itx" in "# language:"; did you mean "it"?"##), "\(error)")
        }
    }

    @Test func anItalianFeatureRunsWithTheCatalog() throws {
        let document = try GherkinParser.parse(
            """
            # language: it
            Funzionalità: saluti
              Schema dello scenario: saluto <parola>
                Quando I run "echo <parola>"
                Allora I see "<parola>"
                Esempi:
                  | parola |
                  | ciao   |
            """, uri: "it.feature")
        let pickles = Pickle.compile(document)
        #expect(pickles.map(\.name) == ["saluto ciao"])
        #expect(pickles.first?.steps.map(\.text) == [#"I run "echo ciao""#, #"I see "ciao""#])
        #expect(pickles.first?.steps.map(\.kind) == ["When", "Then"])
    }
}
