import Testing

@testable import AutomationSupport

/// The yes/no matcher's fast path (closures computed when the pattern compiles) answers as the general Pike VM does,
/// whole and in part, on every pattern it takes; patterns with assertions keep the general path.
@Suite struct RegexClosuresTests {
    static let patterns = [
        ".*zz.*", "(a|aa)+b", "(?i)[a-z]+[0-9]*Q", "a{2,3}", "(x+x+)+y", "[^/]+", "(?s).", ".", "a|", "(?:ab)*c?",
        "[\\-.a]+", "\\d{3}-\\d{4}", "\\w+\\s\\w+", "(?i)caf\u{C9}", "x*?y", "(a*)*", "[a-c]*[b-d]+", "\u{E9}+", "(?i)[^b]a",
    ]
    static let alphabet: [Unicode.Scalar] = ["a", "b", "z", "y", "x", "Q", "1", "-", "\n", "/", " ", "\u{E9}", "\u{C9}", "A"]

    @Test func theFastPathAnswersAsTheGeneralOne() throws {
        var random = SplitMix64(seed: 28)
        for pattern in Self.patterns {
            let regex = try LinearRegex(pattern)
            #expect(regex.closures != nil, "/\(pattern)/ has no assertion: it takes the fast path")
            for length in 0..<14 {
                for _ in 0..<12 {
                    let input = (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }
                    for whole in [true, false] {
                        var fast = 0
                        var general = 0
                        let expected = regex.generalMatches(input, whole: whole, budget: 1_000_000, spent: &general)
                        let answer = regex.matches(input, whole: whole, budget: 1_000_000, spent: &fast)
                        #expect(answer == expected, "/\(pattern)/ on \(input) whole: \(whole)")
                        #expect(fast <= general, "/\(pattern)/: the fast path counts only states that read input")
                    }
                }
            }
        }
    }

    @Test func patternsWithAssertionsKeepTheGeneralPath() throws {
        for pattern in ["^/path$", "\\bword\\b", "(?m)^a$", "a\\B"] {
            #expect(try LinearRegex(pattern).closures == nil, "/\(pattern)/")
        }
    }

    /// The budget stops the fast path as it stops the general one: no answer once spent, never a stall.
    @Test func aSpentBudgetIsNoAnswer() throws {
        let regex = try LinearRegex(".*zz.*")
        let input = Array(String(repeating: "a", count: 100_000).unicodeScalars)
        var spent = 0
        #expect(regex.matches(input, whole: true, budget: 50_000, spent: &spent) == nil)
        #expect(spent > 50_000 && spent < 50_010)
        #expect(regex.matches(input + ["z", "z"], whole: true, budget: 1_000_000, spent: &spent) == true)
    }
}
