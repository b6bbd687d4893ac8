import Testing

@testable import AutomationSupport

/// The capture matcher's fast path (closures with the slots each path saves, computed when the pattern compiles)
/// answers as the general Pike VM does: the same groups, the same no-match, and it gives up only where the general
/// engine would too (it spends no more of the budget). Thousands of random patterns of the supported syntax.
@Suite struct RegexCaptureClosuresTests {
    static let alphabet: [Unicode.Scalar] = ["a", "b", "c", "\n", "1", "A", "\u{E9}", " "]

    /// A random pattern of at most `depth` nested groups: literals, classes, `.`, groups of the three kinds,
    /// alternation, greedy and lazy quantifiers, and the anchors the fast path takes (`^ $ \A \z \Z`).
    static func pattern(_ random: inout SplitMix64, depth: Int = 3) -> String {
        var items: [String] = []
        for _ in 0..<(1 + random.next(upTo: 3)) {
            var atom: String
            switch random.next(upTo: depth > 0 ? 14 : 9) {
            case 0: atom = "a"
            case 1: atom = "b"
            case 2: atom = "."
            case 3: atom = "[ab]"
            case 4: atom = "[^a\\n]"
            case 5: atom = "\\d"
            case 6: atom = ["^", "$", "\\A", "\\z", "\\Z"][random.next(upTo: 5)]
            case 7: atom = "(?i)a"
            case 8: atom = "\\s"
            case 9, 10: atom = "(" + pattern(&random, depth: depth - 1) + ")"
            case 11: atom = "(?:" + pattern(&random, depth: depth - 1) + ")"
            case 12: atom = "(?<n\(random.next(upTo: 1000))>" + pattern(&random, depth: depth - 1) + ")"
            default: atom = "(" + pattern(&random, depth: depth - 1) + "|" + pattern(&random, depth: depth - 1) + ")"
            }
            if !atom.hasPrefix("^") && !atom.hasPrefix("$") && !atom.hasPrefix("\\A") && !atom.hasPrefix("\\z")
                && !atom.hasPrefix("\\Z") && !atom.hasPrefix("(?i)")
            {
                atom += ["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,2}?", "{2,}"][random.next(upTo: 13)]
            }
            items.append(atom)
        }
        return random.next(upTo: 6) == 0 ? items.joined(separator: "|") : items.joined()
    }

    @Test func theFastPathAnswersAsTheGeneralOneOnRandomPatterns() throws {
        var random = SplitMix64(seed: 711)
        var fastPatterns = 0
        var matchedAnswers = 0
        for _ in 0..<2_000 {
            let source = Self.pattern(&random)
            guard let regex = try? LinearRegex(source, groups: true) else { continue }
            let fast = try #require(regex.captureClosures, "/\(source)/ has only anchors the fast path takes")
            fastPatterns += 1
            for _ in 0..<8 {
                let input = (0..<random.next(upTo: 9)).map { _ in Self.alphabet[random.next(upTo: Self.alphabet.count)] }
                let start = random.next(upTo: 4) == 0 ? random.next(upTo: input.count + 1) : 0
                for whole in [true, false] {
                    var generalSpent = 0
                    var fastSpent = 0
                    let expected = regex.generalGroups(in: input, from: start, whole: whole, budget: 1 << 40, spent: &generalSpent)
                    let answer = fast.groups(in: input, from: start, whole: whole, budget: 1 << 40, spent: &fastSpent, deadline: nil)
                    #expect(answer == expected, "/\(source)/ on \(input) from \(start) whole: \(whole)")
                    #expect(fastSpent <= generalSpent, "/\(source)/: the fast path spends no more than the general one")
                    if case .matched = expected { matchedAnswers += 1 }
                    // A budget the general engine spends: the fast path answers the same or gives up no sooner.
                    let tight = random.next(upTo: generalSpent + 1)
                    var spent = 0
                    let generalTight = regex.generalGroups(in: input, from: start, whole: whole, budget: tight, spent: &spent)
                    let fastTight = fast.groups(in: input, from: start, whole: whole, budget: tight, spent: &spent, deadline: nil)
                    #expect(fastTight == generalTight || generalTight == .gaveUp, "/\(source)/ on \(input) within \(tight)")
                }
            }
        }
        #expect(fastPatterns > 1_600 && matchedAnswers > 3_000, "\(fastPatterns) patterns, \(matchedAnswers) matches")
    }

    /// Step patterns are `^…$`: their anchors are closures by kind of position, not a reason for the general path.
    @Test func anchoredPatternsTakeTheFastPathAndOtherAssertionsDoNot() throws {
        for pattern in [#"^I do not see "((?:[^"\\]|\\.)*)"( on stderr)?(?: within (\S+))?$"#, "\\A(a)\\z", "(a)\\Z", "(a)"] {
            #expect(try LinearRegex(pattern, groups: true).captureClosures != nil, "/\(pattern)/")
        }
        for pattern in ["\\b(word)\\b", "(?m)^(a)$", "(a)\\B"] {
            #expect(try LinearRegex(pattern, groups: true).captureClosures == nil, "/\(pattern)/")
        }
        #expect(try LinearRegex("^(a)$").captureClosures == nil, "a yes/no matcher keeps no capture closures")
    }

    /// A long quoted step: every character is carried in one pass, a unit per slot per thread that moves still charged.
    @Test func aLongQuotedStepIsMatchedAndCharged() throws {
        let regex = try LinearRegex(#"^I do not see "((?:[^"\\]|\\.)*)"( on stderr)?(?: within (\S+))?$"#, groups: true)
        let text = Array(("I do not see \"" + String(repeating: "a\\\"", count: 100_000) + "\" within 2s").unicodeScalars)
        var spent = 0
        let answer = regex.groups(in: text, from: 0, whole: true, budget: 100_000_000, spent: &spent)
        #expect(answer == .matched([14..<300_014, nil, 300_023..<300_025]))
        #expect(spent > 6 * 300_000, "a unit per slot per thread carried one character further")
        #expect(regex.groups(in: text, from: 0, whole: true, budget: 1_000_000, spent: &spent) == .gaveUp)
    }
}
