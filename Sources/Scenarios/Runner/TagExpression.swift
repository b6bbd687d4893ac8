import AutomationSupport
package import ProcessEngine

/// A boolean tag filter: `@smoke and not (@slow or @flaky)`. Precedence: not > and > or.
package indirect enum TagExpression: Sendable, Hashable, CustomStringConvertible {
    case tag(String)
    case not(TagExpression)
    case and(TagExpression, TagExpression)
    case or(TagExpression, TagExpression)

    /// Whether a scenario with these tags is selected.
    package func matches(_ tags: [String]) -> Bool {
        switch self {
        case .tag(let name): tags.containsScalars(name) // code points, as Cucumber's library: NFC @café is not NFD
        case .not(let inner): !inner.matches(tags)
        case .and(let left, let right): left.matches(tags) && right.matches(tags)
        case .or(let left, let right): left.matches(tags) || right.matches(tags)
        }
    }

    package var description: String {
        switch self {
        case .tag(let name): name
        case .not(let inner): "not \(inner)"
        case .and(let left, let right): "(\(left) and \(right))"
        case .or(let left, let right): "(\(left) or \(right))"
        }
    }

    /// The most tags, operators and parentheses an expression may have, and the deepest nesting of `not` and `(`.
    static let maxTokens = 1_000
    static let maxDepth = 64

    /// Every scenario: what an empty expression selects (Cucumber's rule, so `--tags "$TAGS"` with TAGS unset
    /// runs everything).
    static let everything = TagExpression.or(.tag("@"), .not(.tag("@")))

    /// Parses a tag expression as Cucumber's tag-expressions library does: `not` > `and` > `or`, parentheses,
    /// and `\` escaping a space, a parenthesis or itself inside a tag (`@with\ space`). One difference, on
    /// purpose: a tag must start with `@` (Cucumber would take `smoke` literally and select nothing), and a lone `\`
    /// at the end is refused (Cucumber drops it).
    /// - Throws: ``UsageError`` naming the token that does not fit.
    package static func parse(_ text: String) throws(UsageError) -> TagExpression {
        var tokens: [Token] = []
        var word = ""
        var escaped = false
        func endWord() {
            if !word.isEmpty { tokens.append(.word(word)) }
            word = ""
        }
        for character in text {
            if escaped {
                guard character == " " || character == "(" || character == ")" || character == "\\" else {
                    throw UsageError("--tags \"\(text)\": illegal escape before \"\(character)\" (\\ escapes a space, ( ) and \\ in a tag)")
                }
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\t" {
                // Cucumber's tokenizer splits on the space alone and takes a TAB as an operand of its own (`@a<TAB>and @b`:
                // "Expected operator after @a"); such an operand is no @tag here, so every TAB is refused.
                throw UsageError(
                    "--tags \"\(text.escapingControlCharacters())\": a TAB; separate tags and operators with spaces, as Cucumber does")
            } else if character == "(" || character == ")" || character == " " {
                endWord()
                if character == "(" { tokens.append(.open) }
                if character == ")" { tokens.append(.close) }
            } else {
                word.append(character)
            }
        }
        // A trailing \ escapes nothing: Cucumber's reference drops it and selects "@a" for "@a\"; refused here
        // on purpose (fail closed), as "@a\ b" cut short by a shell or a script is a selection nobody meant.
        if escaped { throw UsageError("--tags \"\(text)\": a lone \\ at the end (\\ escapes a space, ( ) and \\ in a tag)") }
        endWord()
        if tokens.isEmpty { return everything }
        // Parsing, matching and freeing recurse once per level and per operand: both are bounded.
        if tokens.count > maxTokens {
            throw UsageError(
                "--tags: \(tokens.count) tags, operators and parentheses; at most \(maxTokens) (select with fewer, broader tags)")
        }
        var parser = Parser(tokens: tokens, text: text)
        let expression = try parser.or()
        if parser.position < tokens.count {
            throw UsageError("--tags \"\(text)\": unexpected \"\(tokens[parser.position])\"")
        }
        return expression
    }

    /// A word (a tag or an operator) or a parenthesis; an escaped parenthesis is part of a word.
    private enum Token: Equatable, CustomStringConvertible {
        case word(String)
        case open
        case close
        var description: String {
            switch self {
            case .word(let text): text
            case .open: "("
            case .close: ")"
            }
        }
    }

    private struct Parser {
        let tokens: [Token]
        let text: String
        var position = 0
        var depth = 0

        mutating func or() throws(UsageError) -> TagExpression {
            var left = try and()
            while position < tokens.count, tokens[position] == .word("or") {
                position += 1
                left = .or(left, try and())
            }
            return left
        }

        mutating func and() throws(UsageError) -> TagExpression {
            var left = try unary()
            while position < tokens.count, tokens[position] == .word("and") {
                position += 1
                left = .and(left, try unary())
            }
            return left
        }

        mutating func unary() throws(UsageError) -> TagExpression {
            guard position < tokens.count else { throw UsageError("--tags \"\(text)\": expected a tag, not, or ( at the end") }
            let token = tokens[position]
            position += 1
            if token == .word("not") || token == .open {
                depth += 1
                if depth > TagExpression.maxDepth {
                    throw UsageError("--tags: nested deeper than \(TagExpression.maxDepth) levels of not and (")
                }
            }
            defer { if token == .word("not") || token == .open { depth -= 1 } }
            switch token {
            case .word("not"): return .not(try unary())
            case .open:
                let inner = try or()
                guard position < tokens.count, tokens[position] == .close else { throw UsageError("--tags \"\(text)\": missing )") }
                position += 1
                return inner
            case .close: throw UsageError("--tags \"\(text)\": expected a tag, not, or (, found \")\"")
            case .word(let tag):
                guard tag.hasPrefix("@"), tag.count > 1 else {
                    throw UsageError("--tags \"\(text)\": expected a tag like @smoke, found \"\(tag)\"")
                }
                return .tag(tag)
            }
        }
    }
}
