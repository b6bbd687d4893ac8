import AutomationSupport

// MARK: - Evaluating

extension ResponseTemplate {
    /// What one answer's renderings (its body and header values) share: the request, what is read from it
    /// once (body text, query, cookies, the body's JSON parse), and the answer's budget.
    package struct RenderContext {
        let request: HTTPRequest
        var steps = 0
        var work = 0
        var outputBytes = 0
        var bodyText: String?
        var queryItems: [(name: String, value: String)]?
        var cookies: [(name: String, value: String)]?
        /// The last few texts parsed as JSON (the body, and what it reads in turn), most recent last: each document,
        /// or why the text is not JSON here.
        var parsed: [(text: String, result: Result<JSONNode, JSONParser.Error>)] = []

        package init(_ request: HTTPRequest) { self.request = request }
    }

    /// The text the template makes of `request`; a ``RenderError`` when a request value is unusable or the
    /// answer's budget is spent.
    package func render(_ request: HTTPRequest) throws(RenderError) -> String {
        var context = RenderContext(request)
        return try render(&context)
    }

    /// Renders within `context`'s budget, which the caller's other templates of the same answer share.
    package func render(_ context: inout RenderContext) throws(RenderError) -> String {
        var renderer = Renderer(context: context)
        try renderer.render(nodes)
        context = renderer.context
        return renderer.output
    }

    struct Scope {
        var this: Value
        var names: [String: Value] = [:]
        /// `@index`, `@first`, `@last`, `@key` of an `{{#each}}` turn.
        var index: Int?
        var count = 0
        var key: String?
        /// The part of the request this block's context is (`{{#with request}}`: `[]`): a bare name in it is read
        /// from the request, as Handlebars reads it from the request's model.
        var requestPath: [String]?

        func data(_ name: Substring) -> Value {
            guard let index else { return .null }
            switch name {
            case "index": return .integer(index)
            case "first": return .bool(index == 0)
            case "last": return .bool(index == count - 1)
            case "key": return key.map(Value.string) ?? .null
            default: return .null
            }
        }
    }

    /// One rendering. Every piece of work is counted: a node or loop turn is a step; bytes and JSON values
    /// that helpers touch are work (``charge(_:at:)``); output is bytes. Helpers: +Helpers.swift; values: +Values.swift.
    struct Renderer {
        var context: RenderContext
        var output = ""
        var scopes: [Scope] = []
        /// What helpers assigned (`regexExtract … 'parts'`), for the rest of this template.
        var variables: [String: Value] = [:]
        /// Patterns compiled while rendering, by their text (at most ``maxRegexes``).
        var regexes: [String: RegexBox] = [:]
        static let maxRegexes = 16
        /// JSONPaths compiled while rendering, by their text (at most ``maxRegexes``): a `jsonPath` in a loop
        /// compiled its path on every turn, the dearest part of a call on a small document.
        var paths: [String: JSONPath] = [:]

        init(context: RenderContext) { self.context = context }

        var request: HTTPRequest { context.request }
        var remainingWork: Int { max(0, maxWork - context.work) }

        /// Counts `units` of work done (or about to be) for `helper`; past the budget the answer is a 500.
        mutating func charge(_ units: Int, at helper: @autoclosure () -> String) throws(RenderError) {
            context.work += units
            if context.work > maxWork { throw .budget(workBudget, at: helper()) }
        }

        /// A node rendered or a loop turn taken: a step, and ``stepCost`` units of work (what it really costs).
        mutating func step(at what: @autoclosure () -> String) throws(RenderError) {
            context.steps += 1
            if context.steps > maxSteps { throw .budget(stepBudget, at: what()) }
            try charge(ResponseTemplate.stepCost, at: what())
        }

        mutating func render(_ nodes: [Node]) throws(RenderError) {
            for node in nodes {
                switch node {
                case .text(let text):
                    try step(at: "text")
                    try emit(text)
                case .value(let expression, let escaped):
                    try step(at: Self.name(of: expression))
                    let text = try self.text(evaluate(expression), at: Self.name(of: expression))
                    try emit(escaped ? escapeHTML(text, at: Self.name(of: expression)) : text)
                case .block(let name, let expression, let parameters, let body, let inverse):
                    try step(at: "#" + name)
                    if ResponseTemplate.sectionHelpers.contains(name) {
                        try section(name, expression, body)
                    } else {
                        var requestPath: [String]?
                        if case .path(let segments) = expression, segments.first == "request" { requestPath = Array(segments.dropFirst()) }
                        try block(name, evaluate(expression), parameters, body, inverse, requestPath: requestPath)
                    }
                }
            }
        }

        /// `{{#base64}}…{{/base64}}`: the block rendered first, its text handed to the helper, the result written
        /// as it is (a block's output is not escaped).
        private mutating func section(_ name: String, _ expression: Expression, _ body: [Node]) throws(RenderError) {
            guard case .call(_, let arguments, let options) = expression else { return }
            try charge(ResponseTemplate.callCost, at: "#" + name)
            let outer = output
            output = ""
            try render(body)
            let content = output
            output = outer
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            var named: [String: Value] = [:]
            for (key, option) in options { named[key] = try evaluate(option) }
            let result = try sectionCall(name, content, values, named)
            try emit(try text(result, at: name))
        }

        mutating func emit(_ text: String) throws(RenderError) {
            context.outputBytes += text.utf8.count
            if context.outputBytes > maxOutputBytes { throw .budget(outputBudget, at: "output") }
            output += text
        }

        private mutating func block(
            _ name: String, _ value: Value, _ parameters: [String], _ body: [Node], _ inverse: [Node], requestPath: [String]? = nil
        ) throws(RenderError) {
            switch name {
            case "each":
                let items: [(key: String?, value: Value)]
                switch value {
                case .list(let values): items = values.map { (nil, $0) }
                case .multi(let values): items = values.map { (nil, .string($0)) }
                case .requestPath(let path):
                    try charge(path.utf8.count, at: "#each")
                    items = path.split(separator: "/").map { (nil, .string(String($0))) }
                case .json(let node) where node.elements != nil: items = node.elements!.map { (nil, .json($0)) }
                case .json(let node) where node.members != nil: items = node.members!.map { ($0.key, .json($0.value)) }
                case .map(let entries): items = entries.map { ($0.key, $0.value) }
                default: items = []
                }
                try charge(items.count * 4, at: "#each") // each item copied (and retained) into the list walked
                guard !items.isEmpty else { return try render(inverse) }
                for (index, item) in items.enumerated() {
                    try step(at: "#each")
                    var scope = Scope(this: item.value, index: index, count: items.count, key: item.key)
                    if let first = parameters.first { scope.names[first] = item.value }
                    if parameters.count > 1 { scope.names[parameters[1]] = item.key.map(Value.string) ?? .integer(index) }
                    scopes.append(scope)
                    try render(body)
                    scopes.removeLast()
                }
            case "with":
                guard Self.isTruthy(value) else { return try render(inverse) }
                var scope = Scope(this: value, requestPath: requestPath)
                if let first = parameters.first { scope.names[first] = value }
                scopes.append(scope)
                try render(body)
                scopes.removeLast()
            case "unless": try render(Self.isTruthy(value) ? inverse : body)
            // WireMock's own conditions render their block or nothing: {{else}} is never taken.
            case "contains", "matches": if Self.isTruthy(value) { try render(body) }
            default: try render(Self.isTruthy(value) ? body : inverse) // if, and every condition
            }
        }

        mutating func evaluate(_ expression: Expression) throws(RenderError) -> Value {
            switch expression {
            case .literal(let value): return value
            case .path(let segments): return try resolve(segments)
            case .call(let helper, let arguments, let options):
                try charge(ResponseTemplate.callCost, at: helper)
                var values: [Value] = []
                for argument in arguments { values.append(try evaluate(argument)) }
                var named: [String: Value] = [:]
                for (name, option) in options { named[name] = try evaluate(option) }
                return try call(helper, values, named)
            }
        }

        /// What a budget message names: the helper, or the value's path.
        static func name(of expression: Expression) -> String {
            switch expression {
            case .call(let helper, _, _): helper
            case .path(let segments): segments.joined(separator: ".")
            case .literal: "a literal"
            }
        }

        private mutating func resolve(_ segments: [String]) throws(RenderError) -> Value {
            let head = segments[0]
            if head == "request" { return try requestValue(Array(segments.dropFirst())) }
            // `@root` is the template's own context, whose one member is `request`.
            if head == "@root" {
                return segments.count > 1 && segments[1] == "request" ? try requestValue(Array(segments.dropFirst(2))) : .null
            }
            if head.hasPrefix("@") { return scopes.last?.data(head.dropFirst()) ?? .null }
            var value: Value
            if head == Parser.contextual, segments.count > 1, let base = scopes.last?.requestPath {
                return try requestValue(base + segments.dropFirst())
            }
            if head == Parser.contextual, segments.count > 1 {
                // `{{name}}` in a block: a member of `this`, else a variable (as Handlebars looks further out).
                value = try member(segments[1], of: scopes.last?.this ?? .null)
                if case .null = value { value = variables[segments[1]] ?? .null }
                for segment in segments.dropFirst(2) { value = try member(segment, of: value) }
                return value
            }
            if head == "this" {
                value = scopes.last?.this ?? .null
            } else if let found = scopes.reversed().lazy.compactMap({ $0.names[head] }).first {
                value = found
            } else if let assigned = variables[head] {
                value = assigned
            } else {
                return .null
            }
            for segment in segments.dropFirst() { value = try member(segment, of: value) }
            return value
        }

        private mutating func requestValue(_ path: [String]) throws(RenderError) -> Value {
            guard let field = path.first else { return .string(request.originTarget) }
            let key = path.count > 1 ? path[1] : ""
            let rest = path.dropFirst(2)
            switch field {
            case "url": return .string(request.originTarget)
            case "method": return .method(request.method)
            case "host": return .string(request.host)
            case "port": return .string(String(request.port))
            case "scheme": return .string(request.scheme)
            case "baseUrl":
                let host = request.host.contains(":") ? "[\(request.host)]" : request.host
                // WireMock leaves the scheme's standard port out (RequestLine.getBaseUrl).
                let standard = (request.scheme == "https" && request.port == 443) || (request.scheme == "http" && request.port == 80)
                return .string("\(request.scheme)://\(host)\(standard ? "" : ":\(request.port)")")
            case "body": return .string(try body())
            // The whole path, and `pathSegments` alone, print as the path and iterate as its segments (as WireMock's):
            // percent-decoded as Java's `URI.getPath()` decodes it (`%2F` splits a segment; bad UTF-8 is U+FFFD).
            case "path" where path.count == 1, "pathSegments" where path.count == 1: return try requestPath()
            case "path", "pathSegments":
                // `request.path.[n]` is the n-th segment (WireMock 2.x), `request.path.NAME` a path parameter (3.x).
                if position(key) != nil { return try member(key, of: requestPath()) }
                return field == "path" ? request.pathParameter(key).map(Value.string) ?? .null : .null
            case "query" where path.count == 1: return try queryMap()
            case "headers" where path.count == 1: return try headerMap()
            case "cookies" where path.count == 1: return try cookieMap()
            case "query":
                try charge(ResponseTemplate.lookupCost, at: "request.query")
                if context.queryItems == nil {
                    try charge(request.target.utf8.count, at: "request.query")
                    context.queryItems = request.queryItems
                }
                let items = context.queryItems ?? []
                try charge(items.count, at: "request.query")
                let values = items.filter { $0.name == key }.map(\.value)
                return values.isEmpty ? .null : try index(.multi(values), rest)
            case "headers":
                try charge(ResponseTemplate.lookupCost + request.headers.entries.count * 8, at: "request.headers")
                let values = request.headers.values(key)
                return values.isEmpty ? .null : try index(.multi(values), rest)
            case "cookies":
                // A name sent twice is both its values, the first printed (as WireMock's).
                let values = try cookies().filter { $0.name == key }.map(\.value)
                return values.isEmpty ? .null : try index(.multi(values), rest)
            default: return .null
            }
        }

        private mutating func index(_ value: Value, _ keys: ArraySlice<String>) throws(RenderError) -> Value {
            var value = value
            for key in keys { value = try member(key, of: value) }
            return value
        }

        /// The request body as text, decoded once per answer (and only if a template reads it).
        mutating func body() throws(RenderError) -> String {
            if let text = context.bodyText { return text }
            try charge(request.body.count, at: "request.body")
            let text = request.bodyText
            context.bodyText = text
            return text
        }

        /// `value.key`: a position `.[n]` (through ``position(_:)``) or a member name.
        mutating func member(_ key: String, of value: Value) throws(RenderError) -> Value {
            switch value {
            case .multi(let values):
                guard let position = position(key), position < values.count else { return .null }
                return .string(values[position])
            case .requestPath(let path):
                let segments = path.split(separator: "/")
                try charge(path.utf8.count + segments.count * ResponseTemplate.lookupCost, at: key)
                guard let position = position(key), position < segments.count else { return .null }
                return .string(String(segments[position]))
            case .list(let values):
                guard let position = position(key), position < values.count else {
                    return key == "size" ? .integer(values.count) : .null
                }
                return values[position]
            case .map(let entries):
                try charge(entries.count, at: key)
                return entries.first { $0.key == key }?.value ?? .null
            case .json(let node):
                if let elements = node.elements {
                    guard let position = position(key), position < elements.count else { return .null }
                    return .json(elements[position])
                }
                if let members = node.members {
                    try charge(members.count, at: key)
                    return JSONNode.member(key, in: members).map(Value.json) ?? .null
                }
                return .null
            default: return .null
            }
        }
    }
}

extension ResponseTemplate.Renderer {
    /// `request.query` as a whole: each parameter's name (in the order first sent) to all its values, as WireMock's
    /// map of them (`{{#each request.query}}{{@key}}={{this}}{{/each}}`, `{{size request.query}}`).
    mutating func queryMap() throws(RenderError) -> Value {
        try charge(ResponseTemplate.lookupCost, at: "request.query")
        if context.queryItems == nil {
            try charge(request.target.utf8.count, at: "request.query")
            context.queryItems = request.queryItems
        }
        let items = context.queryItems ?? []
        try charge(items.count * 4, at: "request.query")
        return .map(Self.grouped(items.map { ($0.name, $0.value) }) { $0 })
    }

    /// `request.headers` as a whole: each field name (spelt as first sent; names compared ignoring case) to its
    /// values, in the order the request sent them (WireMock's order is its hash map's).
    mutating func headerMap() throws(RenderError) -> Value {
        let entries = request.headers.entries
        try charge(ResponseTemplate.lookupCost + entries.count * 8, at: "request.headers")
        return .map(Self.grouped(entries.map { ($0.name, $0.value) }) { $0.lowercased() })
    }

    /// `request.cookies` as a whole: each cookie's name (in the order first sent) to its values, as WireMock's map
    /// (`{{#each request.cookies}}{{@key}}={{this}}{{/each}}`, `{{size request.cookies}}`; R8a-A8: it was empty).
    mutating func cookieMap() throws(RenderError) -> Value {
        let pairs = try cookies()
        try charge(pairs.count * 4, at: "request.cookies")
        return .map(Self.grouped(pairs.map { ($0.name, $0.value) }) { $0 })
    }

    /// The request's cookies in the order sent, read once per answer (and only if a template reads them).
    mutating func cookies() throws(RenderError) -> [(name: String, value: String)] {
        try charge(ResponseTemplate.lookupCost, at: "request.cookies")
        if let cookies = context.cookies {
            try charge(cookies.count, at: "request.cookies")
            return cookies
        }
        try charge(request.headers.values("Cookie").reduce(0) { $0 + $1.utf8.count }, at: "request.cookies")
        let cookies = request.cookieList
        context.cookies = cookies
        return cookies
    }

    private static func grouped(
        _ pairs: [(String, String)], key: (String) -> String
    ) -> [(key: String, value: ResponseTemplate.Value)] {
        var names: [String] = []
        var values: [[String]] = []
        var positions: [String: Int] = [:]
        for (name, value) in pairs {
            if let at = positions[key(name)] {
                values[at].append(value)
            } else {
                positions[key(name)] = names.count
                names.append(name)
                values.append([value])
            }
        }
        return zip(names, values).map { (key: $0, value: .multi($1)) }
    }
}
