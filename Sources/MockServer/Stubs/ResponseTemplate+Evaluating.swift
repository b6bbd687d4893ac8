import AutomationSupport

// MARK: - Evaluating

extension ResponseTemplate {
    /// The text the template makes of `request`.
    package func render(_ request: HTTPRequest) -> String {
        var renderer = Renderer(request: request)
        renderer.render(nodes)
        return renderer.output
    }

    private struct Scope {
        var this: Value
        var names: [String: Value] = [:]
        var data: [String: Value] = [:]
    }

    private struct Renderer {
        let request: HTTPRequest
        var output = ""
        var outputBytes = 0
        var steps = 0
        var scopes: [Scope] = []
        /// The body as text, made once, so `jsonPath request.body …` finds its parse in ``parsed``.
        let body: String
        var parsed: (text: String, node: JSONNode?)?

        init(request: HTTPRequest) {
            self.request = request
            body = request.bodyText
        }

        /// False once the output or step budget is spent: nothing more is rendered.
        private var hasBudget: Bool { outputBytes < maxOutputBytes && steps < maxSteps }

        mutating func render(_ nodes: [Node]) {
            for node in nodes where hasBudget {
                steps += 1
                switch node {
                case .text(let text): emit(text)
                case .value(let expression, let escaped):
                    let text = Self.text(of: evaluate(expression))
                    emit(escaped ? Self.escapeHTML(text) : text)
                case .block(let name, let expression, let parameters, let body, let inverse):
                    block(name, evaluate(expression), parameters, body, inverse)
                }
            }
        }

        private mutating func emit(_ text: String) {
            let count = text.utf8.count
            guard outputBytes + count <= maxOutputBytes else {
                outputBytes = maxOutputBytes
                return
            }
            output += text
            outputBytes += count
        }

        private mutating func block(_ name: String, _ value: Value, _ parameters: [String], _ body: [Node], _ inverse: [Node]) {
            switch name {
            case "each":
                let items: [(key: String?, value: Value)]
                switch value {
                case .list(let values): items = values.map { (nil, $0) }
                case .multi(let values): items = values.map { (nil, .string($0)) }
                case .json(let node) where node.elements != nil: items = node.elements!.map { (nil, .json($0)) }
                case .json(let node) where node.members != nil: items = node.members!.map { ($0.key, .json($0.value)) }
                default: items = []
                }
                guard !items.isEmpty else { return render(inverse) }
                for (index, item) in items.enumerated() where hasBudget {
                    steps += 1
                    var scope = Scope(this: item.value)
                    scope.data = ["index": .number(Double(index)), "first": .bool(index == 0), "last": .bool(index == items.count - 1)]
                    if let key = item.key { scope.data["key"] = .string(key) }
                    if let first = parameters.first { scope.names[first] = item.value }
                    if parameters.count > 1 { scope.names[parameters[1]] = item.key.map(Value.string) ?? .number(Double(index)) }
                    scopes.append(scope)
                    render(body)
                    scopes.removeLast()
                }
            case "with":
                guard Self.isTruthy(value) else { return render(inverse) }
                var scope = Scope(this: value)
                if let first = parameters.first { scope.names[first] = value }
                scopes.append(scope)
                render(body)
                scopes.removeLast()
            case "unless": render(Self.isTruthy(value) ? inverse : body)
            default: render(Self.isTruthy(value) ? body : inverse) // if, and every condition
            }
        }

        mutating func evaluate(_ expression: Expression) -> Value {
            switch expression {
            case .literal(let value): return value
            case .path(let segments): return resolve(segments)
            case .call(let helper, let arguments, let options):
                var values: [Value] = []
                for argument in arguments { values.append(evaluate(argument)) }
                var named: [String: Value] = [:]
                for (name, option) in options { named[name] = evaluate(option) }
                return call(helper, values, named)
            }
        }

        private func resolve(_ segments: [String]) -> Value {
            let head = segments[0]
            if head == "request" { return requestValue(Array(segments.dropFirst())) }
            if head.hasPrefix("@") {
                let key = String(head.dropFirst())
                return scopes.last?.data[key] ?? .null
            }
            var value: Value
            if head == "this" {
                value = scopes.last?.this ?? .null
            } else if let found = scopes.reversed().lazy.compactMap({ $0.names[head] }).first {
                value = found
            } else {
                return .null
            }
            for segment in segments.dropFirst() { value = Self.member(segment, of: value) }
            return value
        }

        private func requestValue(_ path: [String]) -> Value {
            guard let field = path.first else { return .string(request.target) }
            let key = path.count > 1 ? path[1] : ""
            let rest = Array(path.dropFirst(2))
            func index(_ value: Value) -> Value { rest.reduce(value) { Self.member($1, of: $0) } }
            switch field {
            case "url": return .string(request.target)
            case "method": return .method(request.method)
            case "body": return .string(body)
            case "path" where path.count == 1: return .requestPath(request.path)
            case "path", "pathSegments":
                // `request.path.[n]` is the n-th segment (WireMock 2.x), `request.path.NAME` a path parameter (3.x).
                if let position = Int(key) {
                    let segments = request.path.split(separator: "/").map(String.init)
                    return segments.indices.contains(position) ? .string(segments[position]) : .null
                }
                return field == "path" ? request.pathParameter(key).map(Value.string) ?? .null : .null
            case "query":
                let values = request.queryValues(key)
                return values.isEmpty ? .null : index(.multi(values))
            case "headers":
                let values = request.headers.values(key)
                return values.isEmpty ? .null : index(.multi(values))
            case "cookies": return index(request.cookie(key).map { Value.multi([$0]) } ?? .null)
            default: return .null
            }
        }

        static func member(_ key: String, of value: Value) -> Value {
            switch value {
            case .multi(let values):
                guard let position = Int(key), values.indices.contains(position) else { return .null }
                return .string(values[position])
            case .requestPath(let path):
                let segments = path.split(separator: "/").map(String.init)
                guard let position = Int(key), segments.indices.contains(position) else { return .null }
                return .string(segments[position])
            case .list(let values):
                guard let position = Int(key), values.indices.contains(position) else { return key == "size" ? .number(Double(values.count)) : .null }
                return values[position]
            case .json(let node):
                if let elements = node.elements {
                    guard let position = Int(key), elements.indices.contains(position) else { return .null }
                    return .json(elements[position])
                }
                if let members = node.members { return JSONNode.member(key, in: members).map(Value.json) ?? .null }
                return .null
            default: return .null
            }
        }

        private mutating func call(_ helper: String, _ arguments: [Value], _ options: [String: Value]) -> Value {
            let first = arguments.first ?? .null
            let text = Self.text(of: first)
            switch helper {
            case "upper": return .string(text.uppercased())
            case "lower": return .string(text.lowercased())
            case "trim": return .string(text.trimmingSpaces())
            case "size":
                switch first {
                case .list(let values): return .number(Double(values.count))
                case .multi(let values): return .number(Double(values.count))
                case .requestPath(let path): return .number(Double(path.split(separator: "/").count))
                case .json(let node): return .number(Double(node.elements?.count ?? node.members?.count ?? text.count))
                default: return .number(Double(text.count))
                }
            case "jsonPath":
                let document: JSONNode?
                if let parsed, parsed.text == text { document = parsed.node } else {
                    document = try? JSONParser.parse(text)
                    parsed = (text, document)
                }
                guard let document, arguments.count > 1, let path = try? JSONPath(Self.text(of: arguments[1])) else { return .null }
                let found = path.evaluate(document)
                return found.count == 1 ? .json(found[0]) : found.isEmpty ? .null : .json(JSONNode(.array(found)))
            case "randomValue": return .string(Self.randomValue(options))
            case "now": return .string(Self.now(options))
            case "not": return .bool(!Self.isTruthy(first))
            case "and": return .bool(!arguments.isEmpty && arguments.allSatisfy(Self.isTruthy))
            case "or": return .bool(arguments.contains(where: Self.isTruthy))
            case "contains":
                let needle = arguments.count > 1 ? Self.text(of: arguments[1]) : ""
                switch first {
                case .multi, .method, .requestPath: return .bool(false) // objects, not text, to the helper (as in WireMock)
                case .list(let values): return .bool(values.contains { Self.text(of: $0) == needle })
                case .json(let node) where node.elements != nil: return .bool(node.elements!.contains { Self.text(of: .json($0)) == needle })
                default: return .bool(text.contains(needle))
                }
            case "eq": return .bool(Self.equal(first, arguments.count > 1 ? arguments[1] : .null))
            case "neq": return .bool(!Self.equal(first, arguments.count > 1 ? arguments[1] : .null))
            default: // gt, gte, lt, lte
                let order = Self.compare(first, arguments.count > 1 ? arguments[1] : .null)
                switch helper {
                case "gt": return .bool(order > 0)
                case "gte": return .bool(order >= 0)
                case "lt": return .bool(order < 0)
                default: return .bool(order <= 0)
                }
            }
        }

        /// Java's `equals` as WireMock's `eq` sees it: strings and numbers by value; the request's method, path
        /// and multi-valued parts only equal their own kind.
        static func equal(_ left: Value, _ right: Value) -> Bool {
            switch (left, right) {
            case (.multi(let a), .multi(let b)): return a == b
            case (.method(let a), .method(let b)), (.requestPath(let a), .requestPath(let b)): return a == b
            case (.multi, _), (_, .multi), (.method, _), (_, .method), (.requestPath, _), (_, .requestPath): return false
            case (.null, .null): return true
            case (.null, _), (_, .null): return false
            default:
                if let a = number(left), let b = number(right), isNumeric(left), isNumeric(right) { return a == b }
                return text(of: left) == text(of: right) && isNumeric(left) == isNumeric(right)
            }
        }

        static func isNumeric(_ value: Value) -> Bool {
            switch value {
            case .number: return true
            case .json(let node): return node.double != nil
            default: return false
            }
        }

        /// Numbers compare as numbers, everything else as its text.
        static func compare(_ left: Value, _ right: Value) -> Int {
            if let a = number(left), let b = number(right) { return a == b ? 0 : a < b ? -1 : 1 }
            let a = text(of: left), b = text(of: right)
            return a == b ? 0 : a < b ? -1 : 1
        }

        static func number(_ value: Value) -> Double? {
            switch value {
            case .number(let number): return number
            case .json(let node): return node.double
            case .string(let text): return Double(text)
            default: return nil
            }
        }

        static func isTruthy(_ value: Value) -> Bool {
            switch value {
            case .null: return false
            case .bool(let flag): return flag
            case .number(let number): return number != 0
            case .string(let text): return !text.isEmpty
            case .list(let values): return !values.isEmpty
            case .multi(let values): return !values.isEmpty
            case .method, .requestPath: return true
            case .json(let node):
                switch node.value {
                case .null: return false
                case .bool(let flag): return flag
                case .int(let number): return number != 0
                case .double(let number): return number != 0
                case .string(let text): return !text.isEmpty
                case .array(let elements): return !elements.isEmpty
                case .object: return true
                }
            }
        }

        /// How a value prints: numbers without a needless `.0`, JSON as JSON, lists as `[a, b]` (Java's way).
        static func text(of value: Value) -> String {
            switch value {
            case .null: return ""
            case .bool(let flag): return flag ? "true" : "false"
            case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .string(let text): return text
            case .list(let values): return "[" + values.map { text(of: $0) }.joined(separator: ",") + "]"
            case .multi(let values): return values.first ?? ""
            case .method(let text), .requestPath(let text): return text
            case .json(let node):
                if let text = node.string { return text }
                if node.members != nil { return pretty(node, indent: "") } // Jackson's pretty printer, as WireMock
                return JSONWriter.write(node)
            }
        }

        /// Jackson's DefaultPrettyPrinter: `{` newline, two spaces, `"key" : value`; arrays `[ a, b ]`.
        static func pretty(_ node: JSONNode, indent: String) -> String {
            switch node.value {
            case .object(let members):
                guard !members.isEmpty else { return "{ }" }
                let inner = indent + "  "
                return "{\n" + members.map { inner + JSONWriter.quoted($0.key) + " : " + pretty($0.value, indent: inner) }.joined(separator: ",\n")
                    + "\n" + indent + "}"
            case .array(let elements):
                guard !elements.isEmpty else { return "[ ]" }
                return "[ " + elements.map { pretty($0, indent: indent) }.joined(separator: ", ") + " ]"
            default: return JSONWriter.write(node)
            }
        }

        /// Handlebars' escaping of `{{…}}`.
        static func escapeHTML(_ text: String) -> String {
            guard text.contains(where: { "&<>\"'`=".contains($0) }) else { return text }
            var escaped = ""
            for character in text {
                switch character {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                case "'": escaped += "&#x27;"
                case "`": escaped += "&#x60;"
                case "=": escaped += "&#x3D;"
                default: escaped.append(character)
                }
            }
            return escaped
        }

        static func randomValue(_ options: [String: Value]) -> String {
            let length = number(options["length"] ?? .null).map { Int($0) } ?? 36
            let type = options["type"].map { text(of: $0) } ?? "ALPHANUMERIC"
            if type == "UUID" {
                let hex = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }
                let v4 = Array(hex[0..<12]) + ["4"] + Array(hex[13..<16]) + [String(Int.random(in: 8..<12), radix: 16)] + Array(hex[17..<32])
                return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { v4[$0].joined() }.joined(separator: "-")
            }
            let alphabet: String
            switch type {
            case "NUMERIC": alphabet = "0123456789"
            case "ALPHABETIC": alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
            case "HEXADECIMAL": alphabet = "0123456789abcdef"
            default: alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            }
            let characters = Array(alphabet)
            return String((0..<max(0, min(length, 10_000))).map { _ in characters.randomElement()! })
        }

        static func now(_ options: [String: Value]) -> String {
            var milliseconds = WallClock.milliseconds()
            if case .string(let offset)? = options["offset"], let shift = offsetMilliseconds(offset) {
                milliseconds = max(0, milliseconds + shift)
            }
            switch options["format"].map({ text(of: $0) }) {
            case "epoch": return "\(Int(milliseconds))"
            case "unix": return "\(Int(milliseconds / 1000))"
            default: return String(WallClock.iso8601(milliseconds: milliseconds).prefix(19)) + "Z"
            }
        }
    }
}
