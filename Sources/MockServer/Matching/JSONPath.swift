import AutomationSupport
/// The subset of JSONPath that `matchesJsonPath` supports:
/// `$`, `.name`, `['name']`, `[0]`, `[-1]`, `[*]`, `.*`, `..name` (recursive descent), and filters
/// `[?(@.field)]`, `[?(@.field == 'text')]`, `[?(@.field == 3)]`, `!=`, `<`, `>`, `<=`, `>=`.
struct JSONPath: Sendable {
    enum Step: Sendable {
        case child(String)
        case index(Int)
        case wildcard
        case descendant(String)
        case filter(field: [String], comparison: String?, operand: JSONNode?)
    }

    let source: String
    let steps: [Step]

    struct Error: Swift.Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    init(_ source: String) throws(Error) {
        self.source = source
        var steps: [Step] = []
        var rest = Substring(source.trimmingSpaces())
        guard rest.first == "$" else { throw Error(message: "JSONPath \"\(source)\" must start with $") }
        rest = rest.dropFirst()
        while !rest.isEmpty {
            if rest.hasPrefix("..") {
                rest = rest.dropFirst(2)
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw Error(message: "JSONPath \"\(source)\": expected a name after ..") }
                try Self.checkName(name, source: source)
                steps.append(.descendant(String(name)))
                rest = rest.dropFirst(name.count)
            } else if rest.hasPrefix(".") {
                rest = rest.dropFirst()
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw Error(message: "JSONPath \"\(source)\": expected a name after .") }
                if name != "*" { try Self.checkName(name, source: source) }
                steps.append(name == "*" ? .wildcard : .child(String(name)))
                rest = rest.dropFirst(name.count)
            } else if rest.hasPrefix("[") {
                guard let close = Self.closingBracket(rest) else { throw Error(message: "JSONPath \"\(source)\": unclosed [") }
                let inside = rest[rest.index(after: rest.startIndex)..<close].trimmingSpaces()
                rest = rest[rest.index(after: close)...]
                if inside == "*" {
                    steps.append(.wildcard)
                } else if let number = Int(inside) {
                    steps.append(.index(number))
                } else if (inside.hasPrefix("'") && inside.hasSuffix("'")) || (inside.hasPrefix("\"") && inside.hasSuffix("\"")), inside.count >= 2 {
                    steps.append(.child(String(inside.dropFirst().dropLast())))
                } else if inside.hasPrefix("?(") && inside.hasSuffix(")") {
                    steps.append(try Self.parseFilter(String(inside.dropFirst(2).dropLast()), source: source))
                } else {
                    throw Error(message: "JSONPath \"\(source)\": unsupported selector [\(inside)]")
                }
            } else {
                throw Error(message: "JSONPath \"\(source)\": unexpected \"\(rest.prefix(10))\"")
            }
        }
        self.steps = steps
    }

    /// The subset, for messages.
    static let supported = "$, .name, ['name'], [0], [-1], [*], .*, ..name and filters [?(@.a.b)] / [?(@.a == 'x')] with == != < > <= >="

    /// A member name after `.` or `..`: anything that looks like a function (`size()`), an operator or
    /// a quote is outside the subset, refused at load rather than silently never matching.
    private static func checkName(_ name: Substring, source: String) throws(Error) {
        if let bad = name.first(where: { "()=~!<>?@,:'\" \\/|&".contains($0) }) {
            let what = name.contains("(") ? "functions like \(name) are" : "'\(bad)' in a member name is"
            throw Error(message: "JSONPath \"\(source)\": \(what) not supported; supported: \(supported)")
        }
    }

    private static func closingBracket(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "]" {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func parseFilter(_ expression: String, source: String) throws(Error) -> Step {
        let operators = ["==", "!=", "<=", ">=", "<", ">"]
        var comparison: String?
        var left = expression.trimmingSpaces()
        var right: String?
        for candidate in operators {
            if let range = expression.firstRange(of: candidate) {
                comparison = candidate
                left = expression[..<range.lowerBound].trimmingSpaces()
                right = expression[range.upperBound...].trimmingSpaces()
                break
            }
        }
        guard left.hasPrefix("@") else { throw Error(message: "JSONPath \"\(source)\": a filter must test @.field") }
        let field = left.dropFirst().split(separator: ".").map(String.init)
        if comparison == nil, expression.contains("=~") || expression.contains("&&") || expression.contains("||") || expression.contains(" in ") {
            throw Error(message: "JSONPath \"\(source)\": the filter [?(\(expression))] is not supported; supported: \(supported)")
        }
        for name in field { try checkName(Substring(name), source: source) }
        var operand: JSONNode?
        if var text = right {
            if text.hasPrefix("'") && text.hasSuffix("'") && text.count >= 2 { text = "\"" + text.dropFirst().dropLast() + "\"" }
            guard let parsed = try? JSONParser.parse(text) else {
                throw Error(message: "JSONPath \"\(source)\": cannot read the filter value \(right ?? "")")
            }
            operand = parsed
        }
        return .filter(field: field, comparison: comparison, operand: operand)
    }

    /// The nodes the path selects in `document`.
    func evaluate(_ document: JSONNode) -> [JSONNode] {
        var current = [document]
        for step in steps {
            var next: [JSONNode] = []
            for node in current {
                switch step {
                case .child(let name):
                    if let value = node[name] { next.append(value) }
                case .index(let index):
                    if let elements = node.elements {
                        let resolved = index < 0 ? elements.count + index : index
                        if elements.indices.contains(resolved) { next.append(elements[resolved]) }
                    }
                case .wildcard:
                    if let elements = node.elements { next += elements }
                    if let members = node.members { next += members.map(\.value) }
                case .descendant(let name):
                    Self.collect(name, in: node, into: &next)
                case .filter(let field, let comparison, let operand):
                    // An array filters its elements; an object is tested itself (Jayway, WireMock's engine).
                    let candidates = node.elements ?? (node.members != nil ? [node] : [])
                    next += candidates.filter { Self.test($0, field: field, comparison: comparison, operand: operand) }
                }
            }
            current = next
        }
        return current
    }

    private static func collect(_ name: String, in node: JSONNode, into result: inout [JSONNode]) {
        if let members = node.members {
            for member in members {
                if member.key == name { result.append(member.value) }
                collect(name, in: member.value, into: &result)
            }
        } else if let elements = node.elements {
            for element in elements { collect(name, in: element, into: &result) }
        }
    }

    private static func test(_ node: JSONNode, field: [String], comparison: String?, operand: JSONNode?) -> Bool {
        var value: JSONNode? = node
        for name in field where !name.isEmpty { value = value?[name] }
        guard let value else { return false }
        guard let comparison, let operand else { return true }
        if let a = value.double, let b = operand.double {
            switch comparison {
            case "==": return a == b
            case "!=": return a != b
            case "<": return a < b
            case ">": return a > b
            case "<=": return a <= b
            default: return a >= b
            }
        }
        switch comparison {
        case "==": return value.value == operand.value
        case "!=": return value.value != operand.value
        default:
            guard let a = value.string, let b = operand.string else { return false }
            switch comparison {
            case "<": return a < b
            case ">": return a > b
            case "<=": return a <= b
            default: return a >= b
            }
        }
    }
}
