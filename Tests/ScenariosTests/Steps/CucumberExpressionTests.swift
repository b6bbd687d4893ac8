import AutomationSupport
import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// Step patterns are Cucumber Expressions: examples, and expressions held against Cucumber's reference
/// implementation (PyPI cucumber-expressions): the same ones refused, the same texts matched, the same values.
@Suite struct CucumberExpressionTests {
    static let hasReference = pythonCanImport("cucumber_expressions")

    private func values(_ pattern: String, _ text: String) throws -> [String]? {
        try UserStep(pattern: pattern, run: ["true"], source: "test", directory: "/").match(text)
    }

    @Test func optionalsAlternativesParametersAndEscapes() throws {
        #expect(try values("I have {int} cucumber(s) in my belly/stomach", "I have 5 cucumbers in my stomach") == ["5"])
        #expect(try values("I have {int} cucumber(s) in my belly/stomach", "I have 1 cucumber in my belly") == ["1"])
        #expect(try values("I have {int} cucumber(s) in my belly/stomach", "I have 1 cucumber in my head") == nil)
        #expect(try values("a user {string} says {string}", #"a user "ada" says 'it\'s "fine"'"#) == ["ada", #"it's "fine""#])
        #expect(try values("a {float} and a {word} and {}", "a -.5 and a x-y and the rest of it") == ["-.5", "x-y", "the rest of it"])
        #expect(try values(#"a \(literal\) \{int} x\/y"#, "a (literal) {int} x/y") == [])
        #expect(try values("grow(s)/shrink(s) now", "shrinks now") == [])
        #expect(try values("{int}{int}", "12") == ["1", "2"])
    }

    @Test(arguments: [
        ("a (b", "column 3: the ( has no matching )"), ("a {int", "column 3: the { has no matching }"),
        ("a ()", "an optional must contain some text"), ("a (b{int})", "may not contain a parameter"),
        ("a ((b))", "may not contain another optional"), ("a (b/c)", "alternation cannot be used inside an optional"),
        ("a/ b", "column 2: an alternative may not be empty"), ("a (x)/b c", "optional text only"),
        ("a {foo}", "column 3: no parameter type {foo}"), (#"a \x"#, "column 3: only ( ) { } / \\ and whitespace can be escaped"),
        ("a\\", "cannot be escaped"), (String(repeating: "a/", count: 600) + "b", "at most 1000 bytes"),
    ])
    func mistakesNameTheirColumn(pattern: String, message: String) {
        #expect { try CucumberExpression(pattern) } throws: { "\($0)".contains(message) }
    }

    @Test(.enabled(if: hasReference, "needs PyPI cucumber-expressions (scripts/install-test-deps.sh installs it)"))
    func expressionsAgreeWithTheReference() throws {
        var random = SplitMix64(seed: 0xC0C0)
        let pieces = [
            "a", "b", "cucumber", "(s)", "(x)", "/", "/c", " ", "  ", "{int}", "{float}", "{word}", "{string}", "{}",
            "(", ")", "{", "}", #"\("#, #"\/"#, #"\{"#, "{foo}", "x/y", "big/small", "(y)z", "{biginteger}", "{double}",
        ]
        let words = [
            "a", "b", "cucumber", "cucumbers", "x", "y", "z", "c", "xz", "big", "small", "s", "(", ")", "{", "}", "/",
            "12", "-3", "+4", "1.5", ".5", "1E3", "1e3", "\"q\"", "'r s'", #""t \" u""#, "\"\"", "word-ish", "{int}", "(s)",
        ]
        var cases: [[String: Any]] = [
            [
                "expression": "I have {int} cucumber(s) in my belly/stomach",
                "texts": ["I have 2 cucumbers in my belly", "I have -1 cucumber in my stomach", "I have 2 cucumbers in my"],
            ],
            ["expression": "a {string} b", "texts": [#"a "x \" y" b"#, "a 'it''s' b", "a \"\" b", "a 'x' b"]],
            ["expression": "a {float}", "texts": ["a .5", "a 1e5", "a 1E5", "a -1.5", "a +1", "a 1.", "a 1.50"]],
            ["expression": "a {int}", "texts": ["a +3", "a -0", "a 007", "a 1.0"]],
            // Unicode text (attack r6b finding 12): Python's \d is any decimal digit, its \s any Unicode space.
            [
                "expression": "the count is {int}",
                "texts": [
                    "the count is \u{663}", "the count is \u{FF15}", "the count is -\u{663}\u{664}", "the count is \u{1D7D8}",
                    "the count is \u{B2}", "the count is \u{2167}",
                ],
            ],
            ["expression": "a {float}", "texts": ["a \u{663}.\u{665}", "a \u{FF15}E\u{FF12}", "a \u{966}"]],
            [
                "expression": "the word is {word}",
                "texts": [
                    "the word is a\u{A0}b", "the word is a\u{2003}b", "the word is a\u{1C}b", "the word is a\u{85}b",
                    "the word is caf\u{E9}", "the word is a\u{200B}b", "the word is a\u{3000}b",
                ],
            ],
        ]
        for _ in 0..<400 {
            let expression = (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var texts: [String] = []
            // Texts built from the expression's own pieces (so some match) and from random words.
            for _ in 0..<6 {
                let base = expression.replacingOccurrences(of: "{int}", with: ["12", "-3", "x"].randomElement(using: &random)!)
                    .replacingOccurrences(of: "{string}", with: ["\"q\"", "'r s'", "q"].randomElement(using: &random)!)
                    .replacingOccurrences(of: "{float}", with: ["1.5", ".5", "1E3", "x"].randomElement(using: &random)!)
                    .replacingOccurrences(of: "{word}", with: ["w", "w w", "-"].randomElement(using: &random)!)
                    .replacingOccurrences(of: "{}", with: ["", "any thing"].randomElement(using: &random)!)
                    .replacingOccurrences(of: "(s)", with: ["", "s"].randomElement(using: &random)!)
                    .replacingOccurrences(of: #"\("#, with: "(").replacingOccurrences(of: #"\/"#, with: "/").replacingOccurrences(
                        of: #"\{"#, with: "{")
                texts.append(
                    Bool.random(using: &random)
                        ? base
                        : (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(
                            separator: " "))
            }
            texts += [expression, ""]
            cases.append(["expression": expression, "texts": texts])
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("expressions-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference_cucumber_expressions.py")
            .path
        let answers = try #require(try JSONSerialization.jsonObject(with: try runPython(script, [input.path])) as? [Any])
        try #require(answers.count == cases.count)
        var refused = 0
        var matched = 0
        for (test, answer) in zip(cases, answers) {
            let pattern = test["expression"] as! String
            let step = try? UserStep(pattern: pattern, run: ["true"], source: "test", directory: "/")
            guard let verdicts = answer as? [Any] else {
                refused += 1
                #expect(step == nil, "the reference refuses \"\(pattern)\"")
                continue
            }
            let ours = try #require(step, "the reference accepts \"\(pattern)\"")
            for (text, verdict) in zip(test["texts"] as! [String], verdicts) {
                let mine = ours.match(text)
                guard let theirs = verdict as? [String] else {
                    #expect(mine == nil, "\"\(pattern)\" does not match \"\(text)\" in the reference")
                    continue
                }
                matched += 1
                guard let mine else {
                    Issue.record("\"\(pattern)\" matches \"\(text)\" in the reference: \(theirs)")
                    continue
                }
                // Numbers come back converted by the reference (1.50 reads 1.5): compare those as numbers.
                #expect(
                    mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0 == $1 || Double($0) == Double($1) },
                    "\"\(pattern)\" on \"\(text)\": ours \(mine), reference \(theirs)")
            }
        }
        #expect(refused > 40 && matched > 150, "both kinds are exercised: \(refused) refused, \(matched) matches")
    }
}
