import Testing

@testable import Scenarios

/// Assertions that could not fail (round 4b findings Z, V, H): what a snapshot writes reads back as exactly that
/// text, a line pattern that matches empty text is refused, and a request target the server never compares is refused.
@Suite struct AssertionShapesTests {
    /// Z: output holding `...`, `[..]` or a leading `\` is escaped when written, then compared literally: it matches
    /// itself, and no other output (a `...` line of the program's is not a wildcard in its own snapshot).
    @Test func escapedOutputMatchesItselfAndNothingElse() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["...", "[..]", "\\", "a", " ", ".", "[", "]", "\\\\", ".."]
        for _ in 0..<3_000 {
            let lines = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let actual = Array((lines.joined(separator: "\n") + "\n").utf8)
            let written = OutputPattern.escaped(actual)
            #expect(
                OutputPattern.mismatch(expected: written, actual: actual) == nil,
                "\(lines) written as \(String(decoding: written, as: UTF8.self))")
            var other = lines
            other[Int.random(in: 0..<other.count, using: &generator)] += "X"
            #expect(
                OutputPattern.mismatch(expected: written, actual: Array((other.joined(separator: "\n") + "\n").utf8)) != nil,
                "\(lines) written as \(String(decoding: written, as: UTF8.self)) matched \(other)")
        }
    }

    /// Z: the escape is backward compatible: `...` and `[..]` written by hand stay wildcards, a `\` before other text
    /// is that text as written.
    @Test func handWrittenPatternsKeepTheirMeaning() {
        func matches(_ expected: String, _ actual: String) -> Bool {
            OutputPattern.mismatch(expected: expected, actual: Array(actual.utf8)) == nil
        }
        #expect(matches("start\n...\nend\n", "start\nERROR\nFATAL\nend\n"))
        #expect(matches("status: [..]\n", "status: FAILED\n"))
        #expect(matches("\\begin{x}\n", "\\begin{x}\n"))
        #expect(matches("\\...\n", "...\n") && !matches("\\...\n", "ERROR\n"))
        #expect(matches("\\status: [..]\n", "status: [..]\n") && !matches("\\status: [..]\n", "status: FAILED\n"))
        #expect(matches("\\\\x\n", "\\x\n") && !matches("\\\\x\n", "\\\\x\n"))
        #expect(
            String(decoding: OutputPattern.escaped(Array("a\n...\n[..]\n\\x\n\\\\y\n\\...\n".utf8)), as: UTF8.self)
                == "a\n\\...\n\\[..]\n\\x\n\\\\\\y\n\\\\...\n")
    }

    /// V: a line pattern that matches empty text inside a line matches every line; `^$` (an empty line) may stay.
    @Test(arguments: ["", "x*", "(zzz)?", "error: .*|", ".*", "\\b", "^", "$", "a|", "(a)?b?"])
    func aLinePatternMatchingEmptyTextIsRefused(pattern: String) {
        #expect(StepCatalog.regexProblem(pattern)?.contains("can match empty text") == true, "/\(pattern)/")
    }

    @Test(arguments: ["^$", "^\\s*$", "a", "x+", "token: [a-z0-9]+", "^DONE$", "(a|b)c?"])
    func aLinePatternThatNeedsTextIsAccepted(pattern: String) {
        #expect(StepCatalog.regexProblem(pattern) == nil, "/\(pattern)/")
    }

    /// H: what the server never compares is refused; route templates and `${NAME}` are not.
    @Test(arguments: [
        ("/x?a=1", "query string"), ("http://127.0.0.1/x", "is a URL"), ("/x#frag", "#fragment"), ("/a/../x", ". or .. segment"),
        ("/a/./x", ". or .. segment"), ("x", "must start with /"), ("/a/**/b", "** must be the last"), ("/u/${ID}?q=1", "query string"),
    ])
    func aRequestTargetTheServerNeverComparesIsRefused(path: String, problem: String) {
        #expect(RouteTarget.problem(path)?.contains(problem) == true, "\(path): \(RouteTarget.problem(path) ?? "accepted")")
    }

    @Test(arguments: ["/", "/x", "/users/{id}", "/files/*", "/static/**", "/caf%C3%A9", "//x", "/x/", "${BASE}/x", "/a/${Q}"])
    func aRouteTemplateIsAccepted(path: String) {
        #expect(RouteTarget.problem(path) == nil, "\(path): \(RouteTarget.problem(path) ?? "")")
    }
}

/// The hostile shapes of the same surfaces (class 6): a run of `${` in a request target, and an outline whose values
/// fill one another (Cucumber's column-by-column order) without end.
@Suite struct AssertionShapesBudgetTests {
    @Test func aRunOfNameOpeningsInATargetIsCheckedInLinearTime() {
        let started = ContinuousClock.now
        #expect(RouteTarget.problem("/" + String(repeating: "${", count: 300_000) + "?") != nil)
        #expect(RouteTarget.withoutNames("/a${X}b${Y}c${") == "/abc${")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func valuesThatFillEachOtherPastTheLimitAreRefusedByNameNeverBuilt() throws {
        // Each column's value holds the next one's placeholder 4,000 times: 4,000^3 bytes if built.
        let header = ["a", "b", "c", "d"]
        let values = [
            "<b>", String(repeating: "<c>", count: 4_000), String(repeating: "<d>", count: 4_000), String(repeating: "x", count: 4_000),
        ]
        let text = """
            Feature: F
              Scenario Outline: o
                Given <a>
                Examples:
                  | \(header.joined(separator: " | ")) |
                  | \(values.joined(separator: " | ")) |
            """
        let started = ContinuousClock.now
        let pickles = Pickle.compile(try GherkinParser.parse(text, uri: "f.feature"))
        #expect(pickles.count == 1)
        #expect(pickles.first?.problem?.hasPrefix("f.feature:6: this Examples row's values fill placeholders in one another") == true)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(ScenarioLint.stepProblems(pickles).contains { $0.hasPrefix("f.feature:6: this Examples row") })
    }
}
