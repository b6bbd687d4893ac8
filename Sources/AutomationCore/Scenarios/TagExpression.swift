/// A boolean tag filter: `@smoke and not (@slow or @flaky)`. Precedence: not > and > or.
public indirect enum TagExpression: Sendable, Hashable, CustomStringConvertible {
    case tag(String)
    case not(TagExpression)
    case and(TagExpression, TagExpression)
    case or(TagExpression, TagExpression)

    /// Whether a scenario with these tags is selected.
    public func matches(_ tags: [String]) -> Bool {
        switch self {
        case .tag(let name): tags.contains(name)
        case .not(let inner): !inner.matches(tags)
        case .and(let left, let right): left.matches(tags) && right.matches(tags)
        case .or(let left, let right): left.matches(tags) || right.matches(tags)
        }
    }

    public var description: String {
        switch self {
        case .tag(let name): name
        case .not(let inner): "not \(inner)"
        case .and(let left, let right): "(\(left) and \(right))"
        case .or(let left, let right): "(\(left) or \(right))"
        }
    }

    /// Parses a tag expression.
    /// - Throws: ``UsageError`` naming the token that does not fit.
    public static func parse(_ text: String) throws(UsageError) -> TagExpression {
        var tokens: [String] = []
        var word = ""
        for character in text {
            if character == "(" || character == ")" || character == " " || character == "\t" {
                if !word.isEmpty { tokens.append(word); word = "" }
                if character == "(" || character == ")" { tokens.append(String(character)) }
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        var parser = Parser(tokens: tokens, text: text)
        let expression = try parser.or()
        if parser.position < tokens.count {
            throw UsageError("--tags \"\(text)\": unexpected \"\(tokens[parser.position])\"")
        }
        return expression
    }

    private struct Parser {
        let tokens: [String]
        let text: String
        var position = 0

        mutating func or() throws(UsageError) -> TagExpression {
            var left = try and()
            while position < tokens.count, tokens[position] == "or" {
                position += 1
                left = .or(left, try and())
            }
            return left
        }

        mutating func and() throws(UsageError) -> TagExpression {
            var left = try unary()
            while position < tokens.count, tokens[position] == "and" {
                position += 1
                left = .and(left, try unary())
            }
            return left
        }

        mutating func unary() throws(UsageError) -> TagExpression {
            guard position < tokens.count else { throw UsageError("--tags \"\(text)\": expected a tag, not, or ( at the end") }
            let token = tokens[position]
            position += 1
            switch token {
            case "not": return .not(try unary())
            case "(":
                let inner = try or()
                guard position < tokens.count, tokens[position] == ")" else { throw UsageError("--tags \"\(text)\": missing )") }
                position += 1
                return inner
            default:
                guard token.hasPrefix("@"), token.count > 1 else {
                    throw UsageError("--tags \"\(text)\": expected a tag like @smoke, found \"\(token)\"")
                }
                return .tag(token)
            }
        }
    }
}
