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
            /// Names helpers assign (`{{regexExtract … 'parts'}}`), known to the tags after the one that assigns.
            var variables: [String] = []

            /// Block parameters, variables, and inside `#each`/`#with` the marker that lets a bare name mean a
            /// member of `this` (as Handlebars resolves `{{name}}` against the block's context).
            var names: [String] {
                aliases.flatMap { $0 } + variables + (stack.contains { $0.name == "each" || $0.name == "with" } ? [Parser.contextual] : [])
            }

            /// `{{#assign 'name'}}` and `{{#parseJson 'name'}}` assign their first argument, a quoted literal.
            mutating func assignsInSection(_ name: String, _ call: Expression) throws(Error) {
                guard name == "assign" || name == "parseJson", case .call(_, let arguments, _) = call else { return }
                guard let first = arguments.first else {
                    if name == "assign" { throw Error("{{#assign}} needs the variable's name, like {{#assign 'greeting'}}") }
                    return
                }
                guard case .literal(.string(let variable)) = first else {
                    throw Error("{{#\(name)}}: the name of the variable it assigns must be a quoted literal, like 'parts'")
                }
                let checked = try Parser.variableName(variable, name)
                if !variables.contains(checked) { variables.append(checked) }
            }

            /// Registers what `expression` assigns, once it is parsed.
            mutating func assigns(_ expression: Expression) throws(Error) {
                guard let name = try Parser.assignedName(expression) else { return }
                if !variables.contains(name) { variables.append(name) }
            }

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
                guard blocks.contains(name) || conditions.contains(name) || sectionHelpers.contains(name) else {
                    if let why = refused[name] { throw Error("{{#\(name)}}: \(why)") }
                    throw Error("the block {{#\(name)}} is not supported; \(supported)")
                }
                if parameters.count > 2 || (name != "each" && name != "with" && !parameters.isEmpty) {
                    throw Error(
                        "{{#\(name) … as |\(parameters.joined(separator: " "))|}}: only #each (item, index) and #with (one name) take block parameters"
                    )
                }
                let call: Expression
                if conditions.contains(name) || sectionHelpers.contains(name) {
                    call = try Parser.call(name, words.dropFirst(), aliases: names, section: sectionHelpers.contains(name))
                    try assignsInSection(name, call)
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
                // `}}` inside a quoted literal (`{{parseJson '{"a":{"b":1}}'}}`) does not close the tag.
                guard let close = (comment ? nil : Self.closing(closing, in: inside)) ?? inside.firstRange(of: closing) else {
                    throw Error("{{ without \(closing)")
                }
                var content = inside[..<close.lowerBound]
                rest = inside[close.upperBound...]
                // `~` is read and, as WireMock 2.35 does, the whitespace around it is kept.
                if content.hasPrefix("~") { content = content.dropFirst() }
                if content.hasSuffix("~") { content = content.dropLast() }
                if !text.isEmpty { tree.append(.text(text)) }
                if comment { continue }
                let expression = String(content).trimmingSpaces()
                if raw {
                    let parsed = try Self.expression(expression, aliases: tree.names)
                    tree.append(.value(parsed, escaped: false))
                    try tree.assigns(parsed)
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
                    let parsed = try Self.expression(expression, aliases: tree.names)
                    tree.append(.value(parsed, escaped: true))
                    try tree.assigns(parsed)
                }
            }
            if !rest.isEmpty { tree.append(.text(String(rest))) }
            if let open = tree.stack.last { throw Error("{{#\(open.name)}} is not closed with {{/\(open.name)}}") }
            return tree.root
        }

        /// Where `closing` first occurs in `text` outside single or double quotes; nil when it does not.
        static func closing(_ closing: String, in text: Substring) -> Range<Substring.Index>? {
            let wanted = Array(closing.utf8)
            var quote: UInt8?
            var index = text.utf8.startIndex
            while index < text.utf8.endIndex {
                let byte = text.utf8[index]
                if let open = quote {
                    if byte == open && text.utf8[text.utf8.index(before: index)] != UInt8(ascii: "\\") { quote = nil }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == wanted[0], text.utf8[index...].starts(with: wanted) {
                    return index..<text.utf8.index(index, offsetBy: wanted.count)
                }
                index = text.utf8.index(after: index)
            }
            return nil
        }

        /// The inside of `{{…}}`: a value, a literal, or a helper with arguments.
        static func expression(_ text: String, aliases: [String]) throws(Error) -> Expression {
            let words = try self.words(text)
            guard let first = words.first else { throw Error("an empty {{}}") }
            if valueHelpers.contains(first) || conditions.contains(first) { return try call(first, words.dropFirst(), aliases: aliases) }
            if let why = refused[first] { throw Error("{{\(first)}}: \(why)") }
            if sectionHelpers.contains(first) { throw Error("{{\(first)}} is a block: write {{#\(first) …}}…{{/\(first)}}") }
            guard words.count == 1 else {
                throw Error("{{\(text)}}: \(first) is not a helper; \(supported)")
            }
            return try operand(words[...], aliases: aliases)
        }

        static func call(_ helper: String, _ words: ArraySlice<String>, aliases: [String], section: Bool = false) throws(Error)
            -> Expression
        {
            var arguments: [Expression] = []
            var options: [String: Expression] = [:]
            for word in words {
                if let equals = word.firstIndex(of: "="), !word.hasPrefix("'"), !word.hasPrefix("\""), !word.hasPrefix("(") {
                    let name = String(word[..<equals])
                    do {
                        options[name] = try operand([String(word[word.index(after: equals)...])][...], aliases: aliases)
                    } catch {
                        throw Error("{{\(helper) \(name)=…}}: " + error.description.dropFirst("template: ".count))
                    }
                } else {
                    arguments.append(try operand([word][...], aliases: aliases))
                }
            }
            try checkLiterals(helper, arguments, options, section: section)
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
                    if let helper = inner.first, let why = refused[helper] { throw Error("(\(helper)): \(why)") }
                    throw Error("(\(inner.first ?? "")) is not a helper; \(supported)")
                }
                return try call(helper, inner.dropFirst(), aliases: aliases)
            }
            if word.count >= 2, (word.hasPrefix("'") && word.hasSuffix("'")) || (word.hasPrefix("\"") && word.hasSuffix("\"")) {
                let quote = String(word.prefix(1))
                return .literal(.string(String(word.dropFirst().dropLast()).replacing("\\" + quote, with: quote)))
            }
            if word == "true" || word == "false" { return .literal(.bool(word == "true")) }
            if word == "null" { return .literal(.null) }
            if word.first.map({ $0.isNumber || $0 == "-" }) == true { return .literal(try number(word)) }
            let segments = word.split(separator: ".", omittingEmptySubsequences: false).map { part -> String in
                part.hasPrefix("[") && part.hasSuffix("]") ? String(part.dropFirst().dropLast()) : String(part)
            }
            if word.hasPrefix("../") {
                throw Error(
                    "{{\(word.prefix(80))}}: ../ (the enclosing block's context) is not supported by sut-launch; name the value from the top, like request.body or @root.request.body"
                )
            }
            guard let head = segments.first, !segments.contains(where: \.isEmpty) else { throw Error("\(word) is not a value") }
            for segment in segments.dropFirst() where segment.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                guard position(segment) != nil else {
                    throw Error("{{\(word.prefix(80))}}: .[\(segment.prefix(40))] is not a position from 0 to \(maxPosition)")
                }
            }
            guard head == "request" || head == "this" || head.hasPrefix("@") || aliases.contains(head) else {
                if aliases.contains(contextual) { return .path([contextual] + segments) }
                throw Error("{{\(word)}} is not supported; \(supported)")
            }
            return .path(segments)
        }

        /// A number literal as Handlebars.java reads it: whole numbers that fit in 32 bits are Integers, the
        /// others (and decimals) Doubles. Exponents are refused, as Handlebars.java's grammar has none. A literal a
        /// Double cannot hold exactly (`9007199254740993`, `0.1234567890123456789`) is refused by name: WireMock would
        /// compute with the rounded Double, silently; quoted, it is text that `math` reads exactly (BigDecimal).
        static func number(_ word: String) throws(Error) -> Value {
            let finite = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
            guard !word.contains(where: { $0 == "e" || $0 == "E" }), let number = BoundedNumber.decimal(word, in: finite) else {
                throw Error("'\(word.prefix(40))' is not a number (write decimal digits, like 16 or -2.5, within Double's range)")
            }
            if !word.contains("."), let whole = BoundedNumber.integer(word, in: Int(Int32.min)...Int(Int32.max)) { return .integer(whole) }
            guard let written = JavaDecimal(word), let read = JavaDecimal(JavaNumberText.double(number)), written.sameValue(as: read) else {
                throw Error(
                    "'\(word.prefix(40))' cannot be read exactly: a number literal past 32 bits or with a point is a Double (\(JavaNumberText.double(number))); quote it ('\(word.prefix(40))') for math to read it exactly"
                )
            }
            return .real(number)
        }

        /// The variable a tag assigns: the name, a quoted literal, of `{{regexExtract text 'regex' 'name'}}`,
        /// `{{formData text 'name'}}`, `{{parseJson text 'name'}}`, `{{val x assign='name'}}`, `{{#parseJson 'name'}}`
        /// and `{{#assign 'name'}}`.
        static func assignedName(_ expression: Expression) throws(Error) -> String? {
            guard case .call(let helper, let arguments, let options) = expression else { return nil }
            let named: Expression?
            switch helper {
            case "regexExtract": named = arguments.count > 2 ? arguments[2] : nil
            case "formData", "parseJson": named = arguments.count > 1 ? arguments[1] : nil
            case "val": named = options["assign"]
            default: named = nil
            }
            guard let named else { return nil }
            guard case .literal(.string(let name)) = named else {
                throw Error("{{\(helper)}}: the name of the variable it assigns must be a quoted literal, like 'parts'")
            }
            return try variableName(name, helper)
        }

        /// A name a helper may assign: a Handlebars identifier that is not `request` or `this`.
        static func variableName(_ name: String, _ helper: String) throws(Error) -> String {
            let allowed = name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "$")
            }
            guard !name.isEmpty, name.utf8.count <= 100, allowed, name != "request", name != "this",
                !(name.first?.isNumber ?? true)
            else {
                throw Error("{{\(helper)}}: '\(name.prefix(40))' cannot be a variable name (letters, digits, _ and -; not request or this)")
            }
            return name
        }

        /// In the names a tag may use: it is inside `#each` or `#with`, where `{{name}}` is `{{this.name}}`, or when
        /// `this` has no such member, the variable of that name (a path's head when compiled so).
        static let contextual = "\u{0}this"

        /// Splits on spaces outside quotes and parentheses.
        static func words(_ text: String) throws(Error) -> [String] {
            var words: [String] = []
            var word = ""
            var quote: Character?
            var depth = 0
            var previous: Character?
            for character in text {
                defer { previous = character }
                if let open = quote {
                    word.append(character)
                    if character == open && previous != "\\" { quote = nil } // Handlebars.java reads \' inside '…'
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

    /// A position `.[n]` (a segment of digits): 0 through ``maxPosition``, else nil.
    static func position(_ text: some StringProtocol) -> Int? {
        BoundedNumber.integer(text, in: 0...maxPosition)
    }
}
