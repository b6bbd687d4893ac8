import Testing

@testable import Scenarios

/// ``UserStepIndex`` finds what trying every pattern finds: the same first match, the same clashes, over patterns
/// with parameters, optional text, alternations and escapes at every place, and texts made from their samples.
@Suite struct UserStepIndexTests {
    static let pieces = ["a", "ab", " ", "{int}", "{}", "{string}", "b(c)", "(x)a", "a/b", "ab/c", "\\(", "\\/", "é", "{word}", "c"]

    /// Patterns from a fixed pseudo-random walk (the same every run), each 1 to 5 pieces.
    static func patterns(_ count: Int) -> [String] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in (0...next(5)).map { _ in pieces[next(pieces.count)] }.joined() }
    }

    static func steps(_ patterns: [String]) -> [UserStep] {
        patterns.enumerated().compactMap { index, pattern in
            try? UserStep(pattern: pattern, run: ["true"], source: "t.steps.json:\(index + 1)", directory: ".")
        }
    }

    @Test func headsAreTheLiteralTextBeforeTheFirstVariablePart() throws {
        let heads = try ["the user {int} has", "a b/c d", "cucumber(s) x", "\\{x\\} y {int}", "plain text", "{int} x", "a  b"].map {
            try CucumberExpression($0).head
        }
        #expect(heads == ["the user ", "a ", "cucumber", "{x} y ", "plain text", "", "a  b"])
    }

    @Test func theIndexFindsWhatTryingEveryPatternFinds() {
        let steps = Self.steps(Self.patterns(400))
        let index = UserStepIndex(steps)
        let texts = steps.map(\.expression.sample) + ["a", "ab", "a 1", "abc", "(a", "/", "b", "x a", "\"q\"", ""]
        for text in texts {
            let linear = steps.first { $0.match(text) != nil }
            #expect(index.first(matching: text)?.step.source == linear?.source, "\(text)")
            let candidates = Set(index.candidates(for: text).map(\.source))
            #expect(steps.filter { $0.match(text) != nil }.allSatisfy { candidates.contains($0.source) }, "\(text)")
        }
    }

    @Test func theClashCheckFindsTheSameEarlierStep() {
        let steps = Self.steps(Self.patterns(300))
        var index = UserStepIndex()
        for (position, step) in steps.enumerated() {
            let linear = UserSteps.clash(step, among: Array(steps[..<position]))
            let indexed = UserSteps.clash(step, among: index.related(toHead: step.expression.head))
            #expect(indexed == linear, "\(step.pattern)")
            index.append(step)
        }
    }
}
