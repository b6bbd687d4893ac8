import AutomationSupport
import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// `--tags` against Cucumber's tag expressions: examples, and random expressions held against the reference
/// implementation (PyPI cucumber-tag-expressions) on every combination of tags.
@Suite struct TagExpressionTests {
    static let hasReference = pythonCanImport("cucumber_tag_expressions")

    @Test func precedenceParenthesesAndEscapes() throws {
        let expression = try TagExpression.parse("@a and not (@b or @c)")
        #expect(expression.matches(["@a"]) && !expression.matches(["@a", "@c"]) && !expression.matches([]))
        #expect(try TagExpression.parse("@x or not @y and @z").matches(["@x", "@y"]))
        #expect(try TagExpression.parse(#"@with\ space"#).matches(["@with space"]))
        #expect(try TagExpression.parse(#"@f\(1\)"#).matches(["@f(1)"]))
        #expect(try TagExpression.parse(#"@back\\slash"#).matches([#"@back\slash"#]))
        // Empty selects everything (Cucumber's rule, so --tags "$TAGS" with TAGS unset runs all).
        #expect(try TagExpression.parse("").matches([]) && TagExpression.parse("  ").matches(["@a"]))
    }

    @Test(arguments: [
        ("@a and", "expected a tag, not, or ( at the end"), ("(@a", "missing )"), ("@a)", "unexpected \")\""),
        ("@a @b", "unexpected \"@b\""), (#"@a\b"#, "illegal escape before \"b\""), ("smoke", "expected a tag like @smoke"),
        ("and @a", "found \"and\""), ("()", "found \")\""),
    ])
    func mistakesAreNamed(text: String, message: String) {
        #expect { try TagExpression.parse(text) } throws: { "\($0)".contains(message) }
    }

    /// Parsing, matching and freeing recurse per level and per operand: deep or long expressions are refused,
    /// not a crash (a 128 KiB argument of parentheses overflowed the stack).
    @Test func deepOrLongExpressionsAreRefusedByName() throws {
        let deep = String(repeating: "(", count: 65) + "@a" + String(repeating: ")", count: 65)
        #expect { try TagExpression.parse(deep) } throws: { "\($0)".contains("nested deeper than 64 levels") }
        #expect { try TagExpression.parse(String(repeating: "not ", count: 100) + "@a") } throws: { "\($0)".contains("nested deeper") }
        let long = Array(repeating: "@a", count: 600).joined(separator: " and ")
        #expect { try TagExpression.parse(long) } throws: { "\($0)".contains("at most 1000") }
        #expect(try TagExpression.parse(String(repeating: "(", count: 64) + "@a" + String(repeating: ")", count: 64)).matches(["@a"]))
    }

    @Test(.enabled(if: hasReference, "needs PyPI cucumber-tag-expressions (scripts/install-test-deps.sh installs it)"))
    func randomExpressionsAgreeWithTheReference() throws {
        var random = SplitMix64(seed: 0x7A65)
        let tags = ["@a", "@b", "@c", #"@d\ e"#]
        let tagSets: [[String]] = (0..<16).map { bits in
            ["@a", "@b", "@c", "@d e"].enumerated().filter { bits >> $0.offset & 1 == 1 }.map(\.element)
        }
        func expression(_ depth: Int) -> [String] {
            switch Int.random(in: 0..<(depth > 3 ? 1 : 5), using: &random) {
            case 0: return [tags.randomElement(using: &random)!]
            case 1: return ["not"] + expression(depth + 1)
            case 2: return ["("] + expression(depth + 1) + [")"]
            default: return expression(depth + 1) + [Bool.random(using: &random) ? "and" : "or"] + expression(depth + 1)
            }
        }
        var expressions: [String] = []
        for _ in 0..<400 {
            var tokens = expression(0)
            if Int.random(in: 0..<4, using: &random) == 0 { // a mistake: a token dropped or an operator added
                if Bool.random(using: &random), tokens.count > 1 {
                    tokens.remove(at: Int.random(in: 0..<tokens.count, using: &random))
                } else {
                    tokens.insert(
                        ["and", "or", "not", "(", ")"].randomElement(using: &random)!, at: Int.random(in: 0...tokens.count, using: &random))
                }
            }
            // Parentheses sometimes touch their neighbours, as people write them.
            expressions.append(
                tokens.joined(separator: " ").replacingOccurrences(of: Bool.random(using: &random) ? "( " : "\u{1}", with: "("))
        }
        // Cucumber splits on the space alone and takes a TAB as an operand of its own: `@a<TAB>and @b` is refused.
        expressions += ["@a\tand @b", "@a\tb", "@a and\t@b", "(@a\t)", "@a\t", "not\t@a", "@a\\ b"]
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: ["expressions": expressions, "tagSets": tagSets]).write(to: input)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference_tag_expressions.py").path
        let answers = try #require(try JSONSerialization.jsonObject(with: try runPython(script, [input.path])) as? [Any])
        try #require(answers.count == expressions.count)
        var refused = 0
        for (text, answer) in zip(expressions, answers) {
            let ours = try? TagExpression.parse(text)
            if let verdicts = answer as? [Bool] {
                let mine = try #require(ours, "the reference accepts \"\(text)\"")
                #expect(tagSets.map { mine.matches($0) } == verdicts, "\"\(text)\"")
            } else {
                refused += 1
                #expect(ours == nil, "the reference refuses \"\(text)\"")
            }
        }
        #expect(refused > 20 && refused < 300, "both kinds are exercised: \(refused) refused")
    }
}
