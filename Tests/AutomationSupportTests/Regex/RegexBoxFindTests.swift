import Testing

@testable import AutomationSupport

/// Java's `find()` from a position, with the caller's budget: anchors and `\b` still see the whole input, and a
/// spent budget is an answer of its own (never a stall, never read as no match).
@Suite struct RegexBoxFindTests {
    @Test func findContinuesWhereTheLastMatchEnded() throws {
        let regex = try RegexBox("(([a-z])([0-9]))", groups: true)
        let text = Array("a1-b2".unicodeScalars)
        var budget = 1_000_000
        #expect(regex.find(in: text, from: 0, budget: &budget) == .match([0..<2, 0..<1, 1..<2]))
        #expect(regex.find(in: text, from: 2, budget: &budget) == .match([3..<5, 3..<4, 4..<5]))
        #expect(regex.find(in: text, from: 5, budget: &budget) == .none)
        #expect(budget < 1_000_000)
        let anchored = try RegexBox("(^a)", groups: true)
        #expect(anchored.find(in: Array("aa".unicodeScalars), from: 1, budget: &budget) == .none)
        let word = try RegexBox("(\\bb)", groups: true)
        #expect(word.find(in: Array("ab b".unicodeScalars), from: 1, budget: &budget) == .match([3..<4]))
    }

    @Test func aSpentBudgetIsAnAnswerOfItsOwn() throws {
        let regex = try RegexBox("((a|aa)*b)", groups: true)
        let text = Array(String(repeating: "a", count: 100_000).unicodeScalars)
        var budget = 10_000
        #expect(regex.find(in: text, from: 0, budget: &budget) == .gaveUp)
        #expect(budget <= 0)
        var small = 1000
        #expect(regex.matches(text, whole: true, budget: &small) == nil)
        var enough = 100_000_000
        #expect(regex.matches(Array("aab".unicodeScalars), whole: true, budget: &enough) == true)
    }
}
