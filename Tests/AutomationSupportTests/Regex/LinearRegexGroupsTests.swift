import Foundation
import Testing

@testable import AutomationSupport

/// Capture groups of the Pike VM, held against Swift's own (backtracking) `Regex` on the patterns steps use:
/// the built-in catalog's, Cucumber Expressions compiled, and the leftmost-first corners (greedy and lazy
/// rounds, first alternatives, groups that took no part, the last round of a repeated group).
@Suite struct LinearRegexGroupsTests {
    static let quoted = #""((?:[^"\\]|\\.)*)""#
    static let cucumberString = #"("(?:[^"\\]*(?:\\.[^"\\]*)*)"|'(?:[^'\\]*(?:\\.[^'\\]*)*)')"#

    /// (pattern, texts): every text is tried as a whole match and as a search.
    static let table: [(String, [String])] = [
        ("^the program \(quoted)$", [#"the program "./client.py""#, #"the program "a \"b\" c""#, #"the program "x"#]),
        (
            "^I see \(quoted)( on stderr)?(?: within (\\S+))?$",
            [#"I see "x""#, #"I see "x" on stderr within 5s"#, #"I see "a" b" within 2s"#, #"I see "x" within"#]
        ),
        (
            "^the program runs in a terminal(?: of (\\d+)x(\\d+))?$",
            ["the program runs in a terminal", "the program runs in a terminal of 100x30"]
        ),
        (
            "^the route \"([A-Z]+) (\\S+)\" answers (\\d{3})(?: with( JSON)?:)?$",
            [#"the route "GET /m" answers 200"#, #"the route "POST /l" answers 201 with JSON:"#, #"the route "GET /m" answers 2000"#]
        ),
        (
            "^the (output|error output|file \(quoted)) matches the snapshot \(quoted)$",
            [#"the file "o.csv" matches the snapshot "r""#, #"the error output matches the snapshot "u""#]
        ),
        (
            "^a user \(cucumberString) has ((?:-?\\d+)|(?:\\d+)) cucumber(?:s)? in my (?:belly|stomach)$",
            [
                #"a user "ada" has 3 cucumbers in my belly"#, "a user 'b\\'o' has -1 cucumber in my stomach",
                #"a user "a" has x cucumbers in my belly"#,
            ]
        ),
        ("^x(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)y$", ["xabcy", "xy", "xyyy", "xaby y"]),
        ("^(.*) and (.*)$", ["a and b and c", "and  and "]),
        ("^(.*?) and (.*)$", ["a and b and c"]),
        ("^(a|ab)(c|bcd)(d*)$", ["abcd", "acd"]),
        ("(a|ab)(c|bcd)?", ["xabcd", "ab"]),
        ("^(a+)(a*)$", ["aaaa"]),
        ("^(a+?)(a*)$", ["aaaa"]),
        ("^(a{2,3}?)(a*)$", ["aaaa"]),
        ("^(a{2,3})(a*)$", ["aaaa"]),
        ("^(?:(a)|b)+$", ["ab", "ba"]),
        ("^((a)|b)+$", ["ab", "bb"]),
        ("^(a)?b$", ["b", "ab"]),
        ("^(\\d+)(?:\\.(\\d+))?$", ["12", "12.5", "12."]),
        ("^(?<name>\\w+)-(\\d{2,3})$", ["ab-123", "ab-1234"]),
        ("(\\d+)", ["ab 12 34", "none"]),
        ("^([^\\s]+) ([^\\s]+)$", ["one two", "one  two"]),
        ("^I have ([-+]?(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:[E][+-]?\\d+)?) and (.*)$", ["I have 1.5E3 and more", "I have .5 and "]),
    ]

    @Test func capturesAgreeWithSwiftRegex() throws {
        for (pattern, texts) in Self.table {
            let linear = try LinearRegex(pattern, groups: true)
            let swift = try Regex(pattern)
            for text in texts {
                for whole in [true, false] {
                    let expected: [String?]? = (whole ? try swift.wholeMatch(in: text) : try swift.firstMatch(in: text))
                        .map { $0.output.dropFirst().map { $0.substring.map(String.init) } }
                    let answer = linear.groups(in: Array(text.unicodeScalars), whole: whole)
                    let actual: [String?]?
                    switch answer {
                    case .matched(let ranges):
                        let scalars = Array(text.unicodeScalars)
                        actual = ranges.map { $0.map { String(String.UnicodeScalarView(scalars[$0])) } }
                    case .noMatch: actual = nil
                    case .gaveUp: actual = ["gave up"]
                    }
                    #expect(actual == expected, "/\(pattern)/ \(whole ? "whole" : "search") on \"\(text)\"")
                }
            }
        }
    }

    @Test func groupsAreRangesOfTheTextForRegexBox() throws {
        let box = try RegexBox("^caf(é) (\\S+)(!)?$", groups: true)
        let text = "café olé"
        let groups = try #require(box.groups(whole: text))
        #expect(groups.map { $0.map { String(text.unicodeScalars[$0]) } } == ["é", "olé", nil])
        #expect(box.groups(whole: "cafe x") == nil)
        #expect(box.groupCount == 3)
        #expect(try RegexBox("(a)(b)").groupCount == 0, "a yes/no matcher records no groups")
    }

    /// Many unbounded groups before a literal the text lacks: a backtracking engine tries every split of the text
    /// (O(n^8): Swift's Regex does not answer on 100 characters); the Pike VM answers in one pass, with or
    /// without a final match.
    @Test func manyGroupsOnHostileTextAnswerInLinearTime() throws {
        let regex = try RegexBox("^x(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)y$", groups: true)
        let hostile = "x" + String(repeating: "a", count: 3_000)
        let start = ContinuousClock.now
        #expect(regex.groups(whole: hostile) == nil)
        let groups = try #require(regex.groups(whole: hostile + "y"))
        #expect(groups.first??.isEmpty == false)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(10), "took \(elapsed)")
    }
}
