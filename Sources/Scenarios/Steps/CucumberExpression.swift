import AutomationSupport

/// A Cucumber Expression (the pattern language of Cucumber's step definitions), compiled to a regular expression
/// the way Cucumber's reference implementation compiles it: `I have {int} cucumber(s) in my belly/stomach`.
///
/// - Parameters `{int}`, `{float}`, `{word}`, `{string}` (in double or single quotes, `\"` and `\'` inside),
///   `{}` (anything), and the reference's aliases `{biginteger}`, `{byte}`, `{short}`, `{long}`, `{double}`,
///   `{bigdecimal}`. Any other name is an error.
/// - Optional text in parentheses, `cucumber(s)`; alternatives with `/` between words, `belly/stomach`.
/// - `\` escapes `(`, `)`, `{`, `}`, `/`, `\` and whitespace; everything else is literal, whitespace included.
///
/// The reference's rules for what is an error are kept (an empty optional, a parameter or an alternation inside an
/// optional, an empty alternative, an alternative of optionals only, a `(` or `{` that is not closed), each with
/// the column it points at. Checked against PyPI cucumber-expressions by `CucumberExpressionTests`.
package struct CucumberExpression: Sendable {
    /// What a parameter captures, and how its text becomes the value handed to the step.
    package enum Parameter: String, Sendable {
        case int, float, word, string, anonymous

        /// The reference's regular expressions, with its Python classes: `\d` any Unicode digit, `\s` any Unicode
        /// space (``ReferenceClasses``).
        var pattern: String {
            let digit = ReferenceClasses.digitClass
            return switch self {
            case .int: "(?:-?\(digit)+)|(?:\(digit)+)"
            case .float: "[-+]?(?:\(digit)+(?:\\.\(digit)+)?|\\.\(digit)+)(?:[E][+-]?\(digit)+)?"
            case .word: ReferenceClasses.notSpaceClass + "+"
            case .string: #""(?:[^"\\]*(?:\\.[^"\\]*)*)"|'(?:[^'\\]*(?:\\.[^'\\]*)*)'"#
            case .anonymous: ".*"
            }
        }

        var sample: String {
            switch self {
            case .int: "1"
            case .float: "1.5"
            case .word, .anonymous: "x"
            case .string: "\"x\""
            }
        }

        static func named(_ name: String) -> Parameter? {
            switch name {
            case "int", "biginteger", "byte", "short", "long": .int
            case "float", "double", "bigdecimal": .float
            case "word": .word
            case "string": .string
            case "": .anonymous
            default: nil
            }
        }
    }

    /// What is wrong with an expression, and where (a column, from 1).
    package struct Problem: Error, Sendable, CustomStringConvertible {
        package let column: Int
        package let message: String
        package var description: String { "column \(column): \(message)" }
    }

    package let source: String
    /// The regular expression, without anchors: one capture group per parameter, in order.
    package let pattern: String
    package let parameters: [Parameter]
    /// A text the expression matches (first alternatives, optional text included, a sample value per parameter):
    /// two steps clash when one matches the other's sample.
    package let sample: String
    /// The literal text every match begins with: the pattern up to its first parameter, optional text or alternation
    /// (an alternation's word left out whole). A text that does not start with it cannot match (``UserStepIndex``).
    package let head: String

    /// The longest pattern accepted (a step file is text anyone can write; its patterns also appear in messages).
    package static let maxLength = 1_000

    package init(_ source: String) throws(Problem) {
        guard source.utf8.count <= Self.maxLength else {
            throw Problem(column: Self.maxLength + 1, message: "a step pattern may be at most \(Self.maxLength) bytes long")
        }
        self.source = source
        let nodes = try Self.parse(Self.tokenize(source))
        var pattern = ""
        var sample = ""
        var parameters: [Parameter] = []
        var segment: [Node] = []
        var head = ""
        var headEnded = false
        func flush() throws(Problem) {
            defer { segment = [] }
            guard segment.contains(where: { if case .slash = $0 { true } else { false } }) else {
                for node in segment {
                    pattern += node.pattern
                    sample += node.sample
                    if case .text(let text, _) = node, !headEnded { head += text } else { headEnded = true }
                }
                return
            }
            headEnded = true
            // An alternation: the words between whitespace or parameters, split at each `/`.
            var alternatives: [[Node]] = [[]]
            var slashColumns: [Int] = []
            for node in segment {
                if case .slash(let column) = node {
                    alternatives.append([])
                    slashColumns.append(column)
                } else {
                    alternatives[alternatives.count - 1].append(node)
                }
            }
            for (index, alternative) in alternatives.enumerated() {
                if alternative.isEmpty {
                    let column = index < slashColumns.count ? slashColumns[index] : slashColumns[index - 1]
                    throw Problem(column: column, message: "an alternative may not be empty; write \\/ for a plain /")
                }
                if !alternative.contains(where: { if case .text = $0 { true } else { false } }) {
                    throw Problem(column: alternative[0].column, message: "an alternative may not consist of optional text only")
                }
            }
            pattern += "(?:" + alternatives.map { $0.map(\.pattern).joined() }.joined(separator: "|") + ")"
            sample += alternatives[0].map(\.sample).joined()
        }
        for node in nodes {
            switch node {
            case .space(let text, _):
                try flush()
                pattern += node.pattern
                sample += node.sample
                if !headEnded { head += text }
            case .parameter(let name, let column):
                try flush()
                headEnded = true
                guard let parameter = Parameter.named(name) else {
                    throw Problem(column: column, message: "no parameter type {\(name)}; there are {int}, {float}, {word}, {string} and {}")
                }
                parameters.append(parameter)
                pattern += "(" + parameter.pattern + ")"
                sample += parameter.sample
            default:
                segment.append(node)
            }
        }
        try flush()
        self.pattern = pattern
        self.parameters = parameters
        self.sample = sample
        self.head = head
    }

    /// `pattern` for a message: a long one is cut after 80 characters.
    package static func abbreviated(_ pattern: String) -> String {
        pattern.count > 80 ? pattern.prefix(80) + "…" : pattern
    }

    /// The values of the parameters from the texts their groups captured: a string loses its quotes and the
    /// backslashes before quotes inside it, as in Cucumber.
    package func values(_ captured: [Substring]) -> [String] {
        zip(parameters, captured).map { parameter, text in
            // A number in other digits (`٣`, `５`) arrives as the reference's int()/float() reads it: 3, 5.
            if parameter == .int || parameter == .float { return ReferenceClasses.asciiDigits(text) }
            guard parameter == .string, text.count >= 2 else { return String(text) }
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(
                of: "\\'", with: "'")
        }
    }

    // MARK: Tokens and nodes

    private enum Token {
        case text(String, column: Int)
        case space(String, column: Int)
        case open(Int)
        case close(Int)
        case beginParameter(Int)
        case endParameter(Int)
        case slash(Int)
    }

    private indirect enum Node {
        case text(String, column: Int)
        case space(String, column: Int)
        case optional(String, column: Int)
        case parameter(String, column: Int)
        case slash(Int)

        var column: Int {
            switch self {
            case .text(_, let column), .space(_, let column), .optional(_, let column), .parameter(_, let column): column
            case .slash(let column): column
            }
        }
        var pattern: String {
            switch self {
            case .text(let text, _), .space(let text, _): Self.escape(text)
            case .optional(let text, _): "(?:" + Self.escape(text) + ")?"
            case .parameter, .slash: ""
            }
        }
        var sample: String {
            switch self {
            case .text(let text, _), .space(let text, _), .optional(let text, _): text
            case .parameter, .slash: ""
            }
        }
        static func escape(_ text: String) -> String {
            var result = ""
            for character in text {
                if "\\^$.|?*+()[]{}/".contains(character) { result.append("\\") }
                result.append(character)
            }
            return result
        }
    }

    private static func tokenize(_ source: String) throws(Problem) -> [Token] {
        var tokens: [Token] = []
        var escaped = false
        for (offset, character) in source.enumerated() {
            let column = offset + 1
            if escaped {
                escaped = false
                guard "(){}/\\".contains(character) || character.isWhitespace else {
                    throw Problem(column: column - 1, message: "only ( ) { } / \\ and whitespace can be escaped; write \\\\ for a plain \\")
                }
                appendText(String(character), column: column, to: &tokens)
                continue
            }
            switch character {
            case "\\": escaped = true
            case "(": tokens.append(.open(column))
            case ")": tokens.append(.close(column))
            case "{": tokens.append(.beginParameter(column))
            case "}": tokens.append(.endParameter(column))
            case "/": tokens.append(.slash(column))
            case _ where character.isWhitespace:
                if case .space(let text, let start)? = tokens.last {
                    tokens[tokens.count - 1] = .space(text + String(character), column: start)
                } else {
                    tokens.append(.space(String(character), column: column))
                }
            default: appendText(String(character), column: column, to: &tokens)
            }
        }
        if escaped { throw Problem(column: source.count, message: "the end of the expression cannot be escaped") }
        return tokens
    }

    private static func appendText(_ text: String, column: Int, to tokens: inout [Token]) {
        if case .text(let previous, let start)? = tokens.last {
            tokens[tokens.count - 1] = .text(previous + text, column: start)
        } else {
            tokens.append(.text(text, column: column))
        }
    }

    private static func parse(_ tokens: [Token]) throws(Problem) -> [Node] {
        var nodes: [Node] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let text, let column): nodes.append(.text(text, column: column))
            case .space(let text, let column): nodes.append(.space(text, column: column))
            case .close(let column): nodes.append(.text(")", column: column))
            case .endParameter(let column): nodes.append(.text("}", column: column))
            case .slash(let column): nodes.append(.slash(column))
            case .open(let column):
                guard let inner = group(tokens, &index, closedBy: { if case .close = $0 { true } else { false } }) else {
                    throw Problem(column: column, message: "the ( has no matching ); write \\( for a plain (")
                }
                var text = ""
                for token in inner {
                    switch token {
                    case .text(let part, _), .space(let part, _): text += part
                    case .endParameter: text += "}"
                    case .close: break
                    case .open(let at):
                        throw Problem(column: at, message: "an optional may not contain another optional; write \\( for a plain (")
                    case .beginParameter(let at):
                        throw Problem(column: at, message: "an optional may not contain a parameter; write \\{ for a plain {")
                    case .slash(let at):
                        throw Problem(column: at, message: "an alternation cannot be used inside an optional; write \\/ for a plain /")
                    }
                }
                guard !text.isEmpty else {
                    throw Problem(column: column, message: "an optional must contain some text; write \\( for a plain (")
                }
                nodes.append(.optional(text, column: column))
            case .beginParameter(let column):
                guard let inner = group(tokens, &index, closedBy: { if case .endParameter = $0 { true } else { false } }) else {
                    throw Problem(column: column, message: "the { has no matching }; write \\{ for a plain {")
                }
                var name = ""
                for token in inner {
                    switch token {
                    case .text(let part, _), .space(let part, _): name += part
                    default: throw Problem(column: column, message: "a parameter name may not contain { } ( ) \\ or /")
                    }
                }
                if name.contains(where: { "{}()\\/".contains($0) }) {
                    throw Problem(column: column, message: "a parameter name may not contain { } ( ) \\ or /")
                }
                nodes.append(.parameter(name, column: column))
            }
        }
        return nodes
    }

    /// The tokens from `index` up to the first that `isClose` accepts (consumed, not returned); nil when none does.
    private static func group(_ tokens: [Token], _ index: inout Int, closedBy isClose: (Token) -> Bool) -> [Token]? {
        guard let end = tokens[index...].firstIndex(where: isClose) else { return nil }
        defer { index = end + 1 }
        return Array(tokens[index..<end])
    }
}
