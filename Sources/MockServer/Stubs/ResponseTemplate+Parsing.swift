import AutomationSupport

// MARK: - Parsing

extension ResponseTemplate {
    struct Parser {
        let source: String
        init(_ source: String) { self.source = source }

        private struct Frame {
            var name: String
            var expression: Expression
            var parameters: [String]
            var body: [Node] = []
            var inverse: [Node] = []
            var inElse = false
            /// Opened by `{{else if …}}`: closed by the `{{/…}}` of the block it continues.
            var chained = false

            var node: Node { .block(name: name, expression: expression, parameters: parameters, body: body, inverse: inverse) }
        }

        /// The tree being built: the nodes at the top, the blocks open around the next node, and the block
        /// parameters (`as |item index|`) each open block names.
        private struct Tree {
            var root: [Node] = []
            var stack: [Frame] = []
            var aliases: [[String]] = []

            var names: [String] { aliases.flatMap { $0 } }

            mutating func append(_ node: Node) {
                if stack.isEmpty {
                    root.append(node)
                } else if stack[stack.count - 1].inElse {
                    stack[stack.count - 1].inverse.append(node)
                } else {
                    stack[stack.count - 1].body.append(node)
                }
            }

            mutating func push(_ frame: Frame) {
                stack.append(frame)
                aliases.append(frame.parameters)
            }

            /// `{{#name …}}` or `{{#name … as |a b|}}` (`opening` without the `#`).
            mutating func open(_ text: String) throws(Error) {
                guard stack.count < maxDepth else { throw Error("blocks nest more than \(maxDepth) deep") }
                var opening = text
                var parameters: [String] = []
                if let asRange = opening.firstRange(of: " as |"), opening.hasSuffix("|") {
                    parameters = opening[asRange.upperBound...].dropLast().split(separator: " ").map(String.init)
                    opening = String(opening[..<asRange.lowerBound])
                }
                let words = try Parser.words(opening)
                guard let name = words.first else { throw Error("an empty {{#}}") }
                guard blocks.contains(name) || conditions.contains(name) else {
                    throw Error("the block {{#\(name)}} is not supported; \(supported)")
                }
                if parameters.count > 2 || (name != "each" && name != "with" && !parameters.isEmpty) {
                    throw Error(
                        "{{#\(name) … as |\(parameters.joined(separator: " "))|}}: only #each (item, index) and #with (one name) take block parameters"
                    )
                }
                let call: Expression
                if conditions.contains(name) {
                    call = try Parser.call(name, words.dropFirst(), aliases: names)
                } else {
                    guard words.count >= 2 else { throw Error("{{#\(name)}} needs a value, like {{#\(name) request.query.id}}") }
                    call = try Parser.operand(words.dropFirst(), aliases: names)
                }
                push(Frame(name: name, expression: call, parameters: parameters))
            }

            /// `{{/name}}`: closes the block `name` and the `{{else if}}` blocks chained to it.
            mutating func close(_ name: String) throws(Error) {
                while let frame = stack.last, frame.chained {
                    stack.removeLast()
                    aliases.removeLast()
                    append(frame.node)
                }
                guard let frame = stack.popLast() else { throw Error("{{/\(name)}} closes no block") }
                guard frame.name == name else { throw Error("{{/\(name)}} closes {{#\(frame.name)}}") }
                aliases.removeLast()
                append(frame.node)
            }

            /// `{{else}}`.
            mutating func openElse() throws(Error) {
                guard !stack.isEmpty, !stack[stack.count - 1].inElse else { throw Error("{{else}} outside a block (or a second one)") }
                stack[stack.count - 1].inElse = true
            }

            /// `{{else if b}}`: the rest of the block is an `{{#if b}}` inside its {{else}}.
            mutating func openElseIf(_ expression: String) throws(Error) {
                guard !stack.isEmpty, !stack[stack.count - 1].inElse else {
                    throw Error("{{\(expression)}} outside a block (or after its {{else}})")
                }
                guard stack.count < maxDepth else { throw Error("blocks nest more than \(maxDepth) deep") }
                let words = try Parser.words(String(expression.dropFirst(5)))
                guard let name = words.first, name == "if" || name == "unless" || conditions.contains(name) else {
                    throw Error("{{\(expression)}}: only else if, else unless and else with a condition are supported")
                }
                let call =
                    conditions.contains(name)
                    ? try Parser.call(name, words.dropFirst(), aliases: names)
                    : try Parser.operand(words.dropFirst(), aliases: names)
                stack[stack.count - 1].inElse = true
                var frame = Frame(name: name, expression: call, parameters: [])
                frame.chained = true
                push(frame)
            }
        }

        func parse() throws(Error) -> [Node] {
            var tree = Tree()
            var rest = Substring(source)
            while let open = rest.firstRange(of: "{{") {
                let text = String(rest[..<open.lowerBound])
                var inside = rest[open.upperBound...]
                let raw = inside.hasPrefix("{")
                if raw { inside = inside.dropFirst() }
                let comment = inside.hasPrefix("!")
                let closing = raw ? "}}}" : (inside.hasPrefix("!--") ? "--}}" : "}}")
                guard let close = inside.firstRange(of: closing) else { throw Error("{{ without \(closing)") }
                var content = inside[..<close.lowerBound]
                rest = inside[close.upperBound...]
                // `~` is read and, as WireMock 2.35 does, the whitespace around it is kept.
                if content.hasPrefix("~") { content = content.dropFirst() }
                if content.hasSuffix("~") { content = content.dropLast() }
                if !text.isEmpty { tree.append(.text(text)) }
                if comment { continue }
                let expression = String(content).trimmingSpaces()
                if raw {
                    tree.append(.value(try Self.expression(expression, aliases: tree.names), escaped: false))
                } else if expression.hasPrefix("#") {
                    try tree.open(String(expression.dropFirst()))
                } else if expression.hasPrefix("/") {
                    try tree.close(expression.dropFirst().trimmingSpaces())
                } else if expression == "else" {
                    try tree.openElse()
                } else if expression.hasPrefix("else ") {
                    try tree.openElseIf(expression)
                } else if expression.hasPrefix("^") {
                    throw Error("{{\(expression)}} is not supported; use {{#unless}}")
                } else {
                    tree.append(.value(try Self.expression(expression, aliases: tree.names), escaped: true))
                }
            }
            if !rest.isEmpty { tree.append(.text(String(rest))) }
            if let open = tree.stack.last { throw Error("{{#\(open.name)}} is not closed with {{/\(open.name)}}") }
            return tree.root
        }

        /// The inside of `{{…}}`: a value, a literal, or a helper with arguments.
        static func expression(_ text: String, aliases: [String]) throws(Error) -> Expression {
            let words = try self.words(text)
            guard let first = words.first else { throw Error("an empty {{}}") }
            if valueHelpers.contains(first) || conditions.contains(first) { return try call(first, words.dropFirst(), aliases: aliases) }
            guard words.count == 1 else {
                throw Error("{{\(text)}}: \(first) is not a helper; \(supported)")
            }
            return try operand(words[...], aliases: aliases)
        }

        static func call(_ helper: String, _ words: ArraySlice<String>, aliases: [String]) throws(Error) -> Expression {
            var arguments: [Expression] = []
            var options: [String: Expression] = [:]
            for word in words {
                if let equals = word.firstIndex(of: "="), !word.hasPrefix("'"), !word.hasPrefix("\""), !word.hasPrefix("(") {
                    options[String(word[..<equals])] = try operand([String(word[word.index(after: equals)...])][...], aliases: aliases)
                } else {
                    arguments.append(try operand([word][...], aliases: aliases))
                }
            }
            try checkLiterals(helper, arguments, options)
            return .call(helper, arguments, options)
        }

        /// One argument: a subexpression `(helper …)`, a quoted string, a number, true/false/null, or a path.
        static func operand(_ words: ArraySlice<String>, aliases: [String], depth: Int = 0) throws(Error) -> Expression {
            guard words.count == 1, let word = words.first else {
                throw Error("expected one value, found \"\(words.joined(separator: " "))\"")
            }
            if word.hasPrefix("(") && word.hasSuffix(")") {
                guard depth < maxDepth else { throw Error("subexpressions nest more than \(maxDepth) deep") }
                let inner = try self.words(String(word.dropFirst().dropLast()))
                guard let helper = inner.first, valueHelpers.contains(helper) || conditions.contains(helper) else {
                    throw Error("(\(inner.first ?? "")) is not a helper; \(supported)")
                }
                return try call(helper, inner.dropFirst(), aliases: aliases)
            }
            if word.count >= 2, (word.hasPrefix("'") && word.hasSuffix("'")) || (word.hasPrefix("\"") && word.hasSuffix("\"")) {
                return .literal(.string(String(word.dropFirst().dropLast())))
            }
            if word == "true" || word == "false" { return .literal(.bool(word == "true")) }
            if word == "null" { return .literal(.null) }
            if word.first.map({ $0.isNumber || $0 == "-" }) == true {
                guard let number = BoundedNumber.decimal(word, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else {
                    throw Error("'\(word.prefix(40))' is not a number (write decimal digits, like 16 or -2.5, within Double's range)")
                }
                return .literal(.number(number))
            }
            let segments = word.split(separator: ".", omittingEmptySubsequences: false).map { part -> String in
                part.hasPrefix("[") && part.hasSuffix("]") ? String(part.dropFirst().dropLast()) : String(part)
            }
            guard let head = segments.first, !segments.contains(where: \.isEmpty) else { throw Error("\(word) is not a value") }
            for segment in segments.dropFirst() where segment.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                guard position(segment) != nil else {
                    throw Error("{{\(word.prefix(80))}}: .[\(segment.prefix(40))] is not a position from 0 to \(maxPosition)")
                }
            }
            guard head == "request" || head == "this" || head.hasPrefix("@") || aliases.contains(head) else {
                throw Error("{{\(word)}} is not supported; \(supported)")
            }
            return .path(segments)
        }

        /// Refuses at load what a helper could never use: an unknown option, a literal out of its range, a
        /// JSONPath outside the subset. The same readers check values from requests when answering.
        static func checkLiterals(_ helper: String, _ arguments: [Expression], _ options: [String: Expression]) throws(Error) {
            let allowed = ResponseTemplate.options[helper] ?? []
            if let name = options.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw Error(
                    "{{\(helper) \(name)=…}}: \(helper) takes no option \(name)"
                        + (allowed.isEmpty ? "" : "; it takes \(allowed.sorted().joined(separator: ", "))"))
            }
            func literal(_ expression: Expression?) -> String? {
                if case .literal(let value)? = expression { return scalarText(of: value) }
                return nil
            }
            do throws(RenderError) {
                switch helper {
                case "randomValue":
                    if let length = literal(options["length"]) { _ = try randomLength(length) }
                    if let type = literal(options["type"]) { try checkRandomType(type) }
                case "now":
                    if let format = literal(options["format"]) { try checkNowFormat(format) }
                    if let offset = literal(options["offset"]) { _ = try nowOffset(offset) }
                case "jsonPath":
                    guard arguments.count == 2 else {
                        throw RenderError.value("{{jsonPath}} takes a value and a path, like {{jsonPath request.body '$.id'}}")
                    }
                    if let path = literal(arguments[1]) { _ = try compiledPath(path) }
                default: break
                }
            } catch {
                throw Error(String(error.description.dropFirst("template: ".count)))
            }
        }

        /// Splits on spaces outside quotes and parentheses.
        static func words(_ text: String) throws(Error) -> [String] {
            var words: [String] = []
            var word = ""
            var quote: Character?
            var depth = 0
            for character in text {
                if let open = quote {
                    word.append(character)
                    if character == open { quote = nil }
                } else if character == "'" || character == "\"" {
                    quote = character
                    word.append(character)
                } else if character == "(" {
                    depth += 1
                    guard depth <= maxDepth else { throw Error("parentheses nest more than \(maxDepth) deep") }
                    word.append(character)
                } else if character == ")" {
                    depth -= 1
                    guard depth >= 0 else { throw Error("a ) without ( in {{\(text)}}") }
                    word.append(character)
                } else if character == " " && depth == 0 {
                    if !word.isEmpty {
                        words.append(word)
                        word = ""
                    }
                } else {
                    word.append(character)
                }
            }
            if quote != nil { throw Error("unterminated quote in {{\(text)}}") }
            if depth != 0 { throw Error("a ( without ) in {{\(text)}}") }
            if !word.isEmpty { words.append(word) }
            return words
        }
    }

    /// `'3 days'`, `'-2 hours'`: a whole amount (BoundedNumber) of seconds … weeks, at most 100 years either way.
    static func offsetMilliseconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let units: [String: Double] = [
            "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600,
            "day": 86_400, "days": 86_400, "week": 604_800, "weeks": 604_800,
        ]
        let century = 3_155_760_000 // seconds in 100 years
        guard parts.count == 2, let amount = BoundedNumber.integer(parts[0], in: -century...century),
            let unit = units[String(parts[1]).lowercased()]
        else { return nil }
        let shift = Double(amount) * unit * 1000
        return abs(shift) <= Double(century) * 1000 ? shift : nil
    }

    /// A position `.[n]` (a segment of digits): 0 through ``maxPosition``, else nil.
    static func position(_ text: some StringProtocol) -> Int? {
        BoundedNumber.integer(text, in: 0...maxPosition)
    }
}
