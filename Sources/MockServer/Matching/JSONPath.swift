import AutomationSupport

/// The subset of JSONPath that `matchesJsonPath` supports:
/// `$`, `.name`, `['name']`, `[0]`, `[-1]`, `[*]`, `.*`, `..name` (recursive descent), and filters
/// `[?(@.field)]`, `[?(@.field == 'text')]`, `[?(@.field == 3)]`, `!=`, `<`, `>`, `<=`, `>=`, and
/// `[?(@.field =~ /regex/flags)]` (the whole value, flags `i`, `s`, `m`).
struct JSONPath: Sendable {
    enum Step: Sendable {
        case child(String)
        case index(Int)
        case wildcard
        case descendant(String)
        /// `field` is a path of names and indexes from the element (`@.a.b[0]` read as `$.a.b[0]`).
        /// `number` is a numeric operand's exact value, as written (Jayway compares numbers as BigDecimal).
        case filter(field: JSONPath, comparison: String?, operand: JSONNode?, number: ExactNumber?)
        case regexFilter(field: JSONPath, regex: RegexBox)
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
                // Jayway reads $..* as every descendant; read as a key named "*" it matched almost nothing.
                guard name != "*" else {
                    throw Error(message: "JSONPath \"\(source)\": ..* (every descendant) is not supported; name a key: $..name")
                }
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
                } else if inside.first.map({ $0.isNumber || $0 == "-" }) == true, !inside.contains(":") {
                    guard let number = BoundedNumber.integer(inside, in: -Self.maxIndex...Self.maxIndex) else {
                        throw Self.refused(inside, "(an index) is not a whole number from -\(Self.maxIndex) to \(Self.maxIndex)", source)
                    }
                    steps.append(.index(number))
                } else if (inside.hasPrefix("'") && inside.hasSuffix("'")) || (inside.hasPrefix("\"") && inside.hasSuffix("\"")),
                    inside.count >= 2
                {
                    // `['a','c']` (several names) is outside the subset: refused, never read as the name `a','c`.
                    guard !inside.dropFirst().dropLast().contains(inside.first!) else {
                        throw Self.refused(inside, "names several members; match each with its own ['name']", source)
                    }
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

    /// The largest index `[n]` (either way).
    static let maxIndex = Int(Int32.max)
    /// The JSON values one match may visit: a path like `$..a..a..a` over a client's deeply nested body
    /// visits polynomially many, and a match that would visit more does not match.
    static let matchBudget = 1_000_000

    /// The `]` that closes the `[` text starts with: quotes skipped, inner brackets counted (a filter's own
    /// `@.a[0]`, seen in a public project's mappings).
    private static func closingBracket(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        var depth = 0
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                if depth == 0 { return index }
                depth -= 1
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func parseFilter(_ expression: String, source: String) throws(Error) -> Step {
        if let regex = try regexFilter(expression, source: source) { return regex }
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
        let field = try fieldPath(left, source: source)
        if comparison == nil,
            expression.contains("=~") || expression.contains("&&") || expression.contains("||") || expression.contains(" in ")
        {
            throw Error(message: "JSONPath \"\(source)\": the filter [?(\(expression))] is not supported; supported: \(supported)")
        }
        var operand: JSONNode?
        var number: ExactNumber?
        if var text = right {
            if text.hasPrefix("'") && text.hasSuffix("'") && text.count >= 2 { text = "\"" + text.dropFirst().dropLast() + "\"" }
            guard let parsed = try? JSONParser.parse(text) else {
                throw Error(message: "JSONPath \"\(source)\": cannot read the filter value \(right ?? "")")
            }
            operand = parsed
            if parsed.double != nil { number = ExactNumber(literal: text) }
        }
        return .filter(field: field, comparison: comparison, operand: operand, number: number)
    }

    /// `@.field =~ /regex/flags` (Jayway's): the field's whole text must match; flags `i`, `s` and `m` are Java's.
    /// The regex is checked first, as it may hold `==` or `<` itself.
    private static func regexFilter(_ expression: String, source: String) throws(Error) -> Step? {
        guard let range = expression.firstRange(of: "=~") else { return nil }
        let left = expression[..<range.lowerBound].trimmingSpaces()
        let right = expression[range.upperBound...].trimmingSpaces()
        guard left.hasPrefix("@"), right.hasPrefix("/"), let close = right.lastIndex(of: "/"), close > right.startIndex else {
            throw Error(message: "JSONPath \"\(source)\": the filter [?(\(expression))] is not supported; supported: \(supported)")
        }
        let flags = right[right.index(after: close)...]
        guard flags.allSatisfy({ "ism".contains($0) }) else {
            throw Error(message: "JSONPath \"\(source)\": the regex flags \"\(flags)\" are not supported; supported: i, s, m")
        }
        let pattern = right[right.index(after: right.startIndex)..<close]
        let field = try fieldPath(left, source: source)
        do {
            return .regexFilter(field: field, regex: try RegexBox((flags.isEmpty ? "" : "(?\(flags))") + pattern))
        } catch {
            throw Error(message: "JSONPath \"\(source)\": the regex /\(pattern)/: \(error)")
        }
    }

    /// The path a filter tests, from `@`: names and indexes only (`@.a.b`, `@.a[0].b`, `@['a']`), read as a path
    /// from `$`; wildcards, deep scans and filters inside a filter are refused.
    private static func fieldPath(_ left: String, source: String) throws(Error) -> JSONPath {
        let path: JSONPath
        do {
            path = try JSONPath("$" + left.dropFirst())
        } catch {
            throw Error(message: "JSONPath \"\(source)\": in the filter's \(left): \(error.message)")
        }
        guard path.isDefinite else {
            throw Error(message: "JSONPath \"\(source)\": a filter tests names and indexes (@.a.b[0]); \(left) is not supported")
        }
        return path
    }

    /// The value a definite `field` path finds from `node`, if any.
    private static func value(at field: JSONPath, in node: JSONNode) -> JSONNode? {
        var value: JSONNode? = node
        for step in field.steps {
            switch step {
            case .child(let name): value = value?[name]
            case .index(let index):
                guard let elements = value?.elements else { return nil }
                let resolved = index < 0 ? elements.count + index : index
                value = elements.indices.contains(resolved) ? elements[resolved] : nil
            default: return nil
            }
        }
        return value
    }

    /// The text Jayway tests a value against with `=~`: a string itself, a number as Java prints it, a boolean as
    /// `true`/`false`; anything else (null, an array, an object, nothing there) is the empty text.
    private static func regexInput(_ node: JSONNode?) -> String {
        switch node?.value {
        case .string(let text)?: text
        case .int(let number)?: String(number)
        case .double(let number)?: javaText(number)
        case .bool(let flag)?: flag ? "true" : "false"
        default: ""
        }
    }

    /// A path of names and indexes only selects at most one value (Jayway's "definite" path); wildcards, deep
    /// scans and filters select a list.
    var isDefinite: Bool {
        steps.allSatisfy { if case .child = $0 { true } else if case .index = $0 { true } else { false } }
    }

    /// The nodes the path selects in `document`.
    func evaluate(_ document: JSONNode) -> [JSONNode] {
        var unlimited = Int.max
        return evaluate(document, budget: &unlimited) ?? []
    }

    /// The nodes the path selects in `document`, taking one from `budget` for each value visited or
    /// selected; nil when the budget runs out first.
    func evaluate(_ document: JSONNode, budget: inout Int) -> [JSONNode]? {
        var current = [document]
        for step in steps {
            var next: [JSONNode] = []
            for node in current {
                let before = next.count
                budget -= 1
                switch step {
                case .child(let name):
                    budget -= node.members?.count ?? 0
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
                    guard Self.collect(name, in: node, into: &next, budget: &budget) else { return nil }
                case .filter(let field, let comparison, let operand, let number):
                    // An array filters its elements; an object is tested itself (Jayway, WireMock's engine).
                    let candidates = node.elements ?? (node.members != nil ? [node] : [])
                    budget -= candidates.count * (field.steps.count + 1)
                    guard budget >= 0 else { return nil }
                    next += candidates.filter {
                        Self.test($0, field: field, comparison: comparison, operand: operand, number: number)
                    }
                case .regexFilter(let field, let regex):
                    let candidates = node.elements ?? (node.members != nil ? [node] : [])
                    budget -= candidates.count * (field.steps.count + 1)
                    guard budget >= 0 else { return nil }
                    // A regular expression's pass costs its text's length (the engine is linear in it): counted, so
                    // `=~` over a large body stops at the budget, never a minute of CPU per request.
                    for candidate in candidates {
                        let text = Self.regexInput(Self.value(at: field, in: candidate))
                        budget -= text.utf8.count
                        guard budget >= 0 else { return nil }
                        // Its steps too (a text × the pattern's states), from the same budget.
                        guard let matched = regex.matchesWhole(text, budget: &budget) else { return nil }
                        if matched { next.append(candidate) }
                    }
                }
                budget -= next.count - before
                guard budget >= 0 else { return nil }
            }
            current = next
        }
        return current
    }

    /// Appends every member named `name` below `node`; false when the budget runs out.
    private static func collect(_ name: String, in node: JSONNode, into result: inout [JSONNode], budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        if let members = node.members {
            for member in members {
                if member.key.utf8.elementsEqual(name.utf8) { result.append(member.value) }
                guard collect(name, in: member.value, into: &result, budget: &budget) else { return false }
            }
        } else if let elements = node.elements {
            for element in elements {
                guard collect(name, in: element, into: &result, budget: &budget) else { return false }
            }
        }
        return true
    }

    private static func test(_ node: JSONNode, field: JSONPath, comparison: String?, operand: JSONNode?, number: ExactNumber?) -> Bool {
        guard let value = value(at: field, in: node) else { return false }
        guard let comparison, let operand else { return true }
        if let number, let exact = ExactNumber(value) { return exact.holds(comparison, number) }
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
        // Text compares as Java's Strings do, UTF-16 unit by unit: Swift's == and < on String follow canonical
        // equivalence, so `'café'` (U+00E9) matched "cafe" + U+0301 here alone (R4a-7); equalTo and the rest did not.
        if let a = value.string, let b = operand.string {
            switch comparison {
            case "==": return a.utf16.elementsEqual(b.utf16)
            case "!=": return !a.utf16.elementsEqual(b.utf16)
            case "<": return a.utf16.lexicographicallyPrecedes(b.utf16)
            case ">": return b.utf16.lexicographicallyPrecedes(a.utf16)
            case "<=": return !b.utf16.lexicographicallyPrecedes(a.utf16)
            default: return !a.utf16.lexicographicallyPrecedes(b.utf16)
            }
        }
        switch comparison {
        case "==": return value.value == operand.value
        case "!=": return value.value != operand.value
        default: return false
        }
    }
}
