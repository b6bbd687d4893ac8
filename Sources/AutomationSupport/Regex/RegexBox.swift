/// A compiled regular expression, shared across threads (matching does not mutate it).
package final class RegexBox: Sendable {
    let regex: LinearRegex
    package let source: String
    private let warned = Locked(false)

    /// - Throws: ``LinearRegex/Error`` naming the position and what is not supported.
    package init(_ source: String) throws {
        self.source = source
        self.regex = try LinearRegex(source)
    }
    /// Whole-string match, as Java's `matches()` (WireMock's semantics).
    package func matchesWhole(_ text: String) -> Bool { decide(regex.matches(text, whole: true), text) }
    /// Somewhere in the text.
    package func matchesPart(_ text: String) -> Bool { decide(regex.matches(text, whole: false), text) }

    /// A match that spent its step budget (a huge body against a large pattern) is no match, said once.
    private func decide(_ answer: Bool?, _ text: String) -> Bool {
        if let answer { return answer }
        if warned.withLock({ warned in defer { warned = true }; return !warned }) {
            StandardStreams.error("sut-launch: warning: /\(source)/ gave up on a \(text.utf8.count)-byte input after its step budget; treated as no match\n")
        }
        return false
    }
}
