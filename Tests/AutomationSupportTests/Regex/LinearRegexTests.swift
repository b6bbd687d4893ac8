import Foundation
import Testing

@testable import AutomationSupport

@Suite struct LinearRegexTests {
    /// Patterns stubs use, with inputs; the expected answers are Java's (and Python's, the oracle below).
    static let cases: [(String, String, Bool)] = [
        ("/users/[0-9]+", "/users/42", true), ("/users/[0-9]+", "/users/x", false),
        ("/api/.*", "/api/a/b?c=d", true), ("/api/.*", "/apx", false),
        ("[a-z]+@example\\.com", "ada@example.com", true), ("[a-z]+@example\\.com", "ada@exampleXcom", false),
        ("(GET|POST) /x", "POST /x", true), ("(GET|POST) /x", "PUT /x", false),
        ("a{2,3}", "aa", true), ("a{2,3}", "aaaa", false), ("a{2}", "aa", true), ("a{2,}", "aaaaa", true),
        ("\\d{3}-\\d{4}", "555-1234", true), ("\\w+\\s\\w+", "hello world", true), ("\\D+", "abc1", false),
        ("[^/]+", "segment", true), ("[^/]+", "a/b", false), ("(?i)hello", "HeLLo", true), ("hello", "HELLO", false),
        ("(?:ab)+", "ababab", true), ("(?<id>[0-9]+)", "123", true), ("x*?y", "xxy", true), ("\\Q.*\\E", ".*", true),
        ("\\Q.*\\E", "ab", false), ("a|", "", true), ("^/path$", "/path", true), ("colou?r", "color", true),
        ("[\\-.a]+", "a-.a", true), ("\\x41\\u0042", "AB", true), ("caf\u{E9}", "caf\u{E9}", true), (".", "\n", false),
        ("(?s).", "\n", true), ("\\bword\\b", "word", true), ("[a-c&&b]", "b", false),
    ]

    @Test func matchesLikeJava() throws {
        for (pattern, input, expected) in Self.cases where pattern != "[a-c&&b]" {
            let regex = try RegexBox(pattern)
            #expect(regex.matchesWhole(input) == expected, "/\(pattern)/ on \"\(input)\"")
        }
    }

    @Test func findsAPartLikeFind() throws {
        #expect(try RegexBox("token: [a-z0-9]+").matchesPart("login ok, token: ab12 issued"))
        #expect(try !RegexBox("^token").matchesPart("a token"))
        #expect(try RegexBox("end$").matchesPart("the end\n"))
    }

    /// The pattern from the report: 396 s with a backtracking engine, all other requests stalled.
    @Test func catastrophicPatternsAnswerAtOnce() throws {
        let regex = try RegexBox("/r/(a+)+$")
        #expect(!regex.matchesWhole("/r/" + String(repeating: "a", count: 22) + "!"))
        #expect(regex.matchesWhole("/r/" + String(repeating: "a", count: 10_000)))
        #expect(try !RegexBox("(x+x+)+y").matchesWhole(String(repeating: "x", count: 50_000)))
        #expect(try !RegexBox("(.*a){20}").matchesWhole(String(repeating: "a", count: 19)))
    }

    @Test(arguments: [
        ("(a)\\1", "backreferences"), ("(?=a)a", "lookahead"), ("(?<=a)b", "lookbehind"), ("(?>a)", "atomic"),
        ("a{1001}", "above 1000"), ("(a", "unclosed group"), ("a)", "unmatched )"), ("[a", "unclosed character class"),
        ("*a", "needs something to repeat"), ("\\p{Alpha}", "Unicode classes"), ("(a{1000}){1000}", "too large"),
        ("[a-c&&b]", "intersections"), ("\\", "cannot end with"),
        ("[a[bc]]", "nested classes"), ("[[:alpha:]]", "nested classes"), ("[^[a]]", "nested classes"),
    ])
    func unsupportedPatternsAreRefusedByName(pattern: String, says: String) {
        #expect { try RegexBox(pattern) } throws: { "\($0)".contains(says) }
    }

    /// Thousands of nested groups or brackets: refused or literal, never a crash of the parser's stack.
    @Test func deepNestingCannotOverflowTheStack() throws {
        #expect { try RegexBox(String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000)) } throws: {
            "\($0)".contains("nested deeper than 64")
        }
        #expect { try RegexBox("[" + String(repeating: "[", count: 5000) + "]") } throws: { "\($0)".contains("nested classes") }
        #expect(try RegexBox(String(repeating: "(?:a|", count: 60) + "b" + String(repeating: ")", count: 60)).matchesWhole("b"))
    }

    /// Differential check against Python's re (fullmatch): same answers on every case above.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
                || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3"), "needs python3"))
    func agreesWithPythonsRe() throws {
        let cases = Self.cases.filter { !$0.0.contains("\\Q") && !$0.0.contains("\\u") && !$0.0.contains("&&") }
        let script = "import json,re,sys\nfor p,s in json.load(sys.stdin): print(1 if re.fullmatch(p.replace('(?<','(?P<'),s) else 0)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: cases.map { [$0.0, $0.1] }))
        try input.fileHandleForWriting.close()
        let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(answers.count == cases.count)
        for (index, (pattern, text, _)) in cases.enumerated() where index < answers.count {
            #expect(
                try RegexBox(pattern).matchesWhole(text) == (answers[index] == "1"),
                "/\(pattern)/ on \"\(text)\": python says \(answers[index])")
        }
    }
}

/// Found by a hostile review: a match that spent its step budget counted as "no match", so a WireMock
/// `doesNotMatch` held for a body that matched (201 where the mapping must not answer; exit 0 under --strict).
@Suite struct RegexBudgetTests {
    @Test func aSpentBudgetHoldsNeitherWay() throws {
        let regex = try RegexBox(".*[a-z]{0,50}a")
        let body = String(repeating: "a", count: 2_000)
        #expect(regex.matchesWhole(body))
        #expect(!regex.doesNotMatchWhole(body))
        #expect(!regex.doesNotMatchWhole(body, budget: 1_000)) // no answer: the negated matcher does not hold
        #expect(regex.doesNotMatchWhole("1234"))
    }
}
