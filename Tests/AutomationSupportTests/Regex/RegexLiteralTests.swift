import Testing

@testable import AutomationSupport

/// The literal a search looks for with memmem before it runs the VM: never text some match lacks (a line with a
/// match would be skipped, a false "not seen"), and long enough to skip most lines.
@Suite struct RegexLiteralTests {
    @Test(arguments: [
        ("^DONE$", "DONE"), ("token: [a-z0-9]+", "token: "), ("a|b", ""), ("(?i)abc", ""), ("ab*c", "a"),
        ("x(yz)+w", "yz"), ("x(?:yz){1}w", "xyzw"), ("(?:abc)?d", "d"), ("a\\bcd", "acd"), ("\\Q.*\\E!", ".*!"),
        ("[ab]cd.ef", "cd"), ("caf\u{E9}s", "caf\u{E9}s"), ("\u{FFFD}x", "x"), ("", ""), ("(a|b)ccc", "ccc"),
        ("(?:x{2,}|y)zz", "zz"),
    ])
    func requiredLiterals(pattern: String, literal: String) throws {
        #expect(try RegexBox(pattern).requiredLiteral == Array(literal.utf8))
    }

    /// Random patterns over a small alphabet, matched against random texts: every text a pattern matches holds
    /// its literal, and every answer (`^…` searches try position 0 only) is Swift's backtracking `Regex`'s.
    @Test func everyMatchHoldsTheLiteral() throws {
        var generator = SystemRandomNumberGenerator()
        let atoms = ["a", "b", "ab", "(a|b)", "[ab]", "a*", "(ab)+", "b?", ".", "(?:ba){2}", "\\b", "^", "$", "(?i)a"]
        var checked = 0
        for _ in 0..<2_000 {
            let pattern = (0..<Int.random(in: 1...5, using: &generator)).map { _ in atoms.randomElement(using: &generator)! }.joined()
            guard let regex = try? RegexBox(pattern) else { continue }
            // Swift's \b follows Unicode's word rules, not Java's: compared without it.
            let swift = pattern.contains("\\b") ? nil : try? Regex(pattern)
            for _ in 0..<10 {
                let text = String((0..<Int.random(in: 0...8, using: &generator)).map { _ in "abA ".randomElement(using: &generator)! })
                if let swift { #expect(regex.matchesPart(text) == text.contains(swift), "/\(pattern)/ on \"\(text)\" as Swift's Regex") }
                guard regex.matchesPart(text) else { continue }
                checked += 1
                let literal = String(decoding: regex.requiredLiteral, as: UTF8.self)
                #expect(literal.isEmpty || text.contains(literal), "/\(pattern)/ matched \"\(text)\" without \"\(literal)\"")
                let bytes = Array(text.utf8)
                #expect(bytes.withUnsafeBufferPointer { regex.matchesPart(utf8: $0) }, "/\(pattern)/ on bytes of \"\(text)\"")
            }
        }
        #expect(checked > 1_000)
    }

    @Test(arguments: [("^ab", "xab", false), ("^ab", "abx", true), ("(?m)^ab", "x\nab", true), ("\\Aab|b", "xb", true), ("^", "", true)])
    func searchesAnchoredAtTheStart(pattern: String, text: String, matches: Bool) throws {
        #expect(try RegexBox(pattern).matchesPart(text) == matches)
    }

    @Test func bytesThatAreNotUTF8ReadAsReplacementCharacters() throws {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(bytes.withUnsafeBufferPointer { try! RegexBox("a\u{FFFD}b").matchesPart(utf8: $0) })
        #expect(bytes.withUnsafeBufferPointer { try! RegexBox("^a.b$").matchesPart(utf8: $0) })
    }
}
