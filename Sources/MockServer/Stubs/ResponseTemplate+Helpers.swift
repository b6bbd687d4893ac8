import AutomationSupport

// MARK: - Helpers: dispatch, conditions, jsonPath, hostname, systemValue

extension ResponseTemplate.Renderer {
    typealias Value = ResponseTemplate.Value
    typealias RenderError = ResponseTemplate.RenderError

    /// One helper's value. Each charges the work it does to the answer's budget, and reads its numbers through
    /// the same checks the parser applies to literals (ResponseTemplate+Checks.swift). The groups live in files
    /// of their own: +StringHelpers, +NumberHelpers, +DateHelpers, +JSONHelpers.
    mutating func call(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        // A text helper over long text is charged at least its CPU: counted by the byte, `urlEncode` of 1,200 bytes
        // cost 5 times the loop's CPU for its units in a debug build (r9a B1); short texts are not timed (two reads of
        // the thread's CPU clock cost more than their work, which the call's units bound).
        if case .string(let text)? = arguments.first, text.utf8.count >= ResponseTemplate.timedTextBytes {
            let helped = try chargingCPU(at: helper) { (renderer: inout Self) throws(RenderError) -> Value? in
                try renderer.stringHelper(helper, arguments, options)
            }
            if let helped { return helped }
        } else if let value = try stringHelper(helper, arguments, options) {
            return value
        }
        if let value = try numberHelper(helper, arguments, options) { return value }
        if let value = try dateHelper(helper, arguments, options) { return value }
        if let value = try jsonHelper(helper, arguments, options) { return value }
        if let value = try xmlHelper(helper, arguments) { return value }
        let first = arguments.first ?? .null
        switch helper {
        case "jsonPath": return try jsonPath(first, arguments.count > 1 ? arguments[1] : .null)
        case "hostname": return .string(HostName.current)
        case "systemValue": return .string(try systemValue(options))
        default: return try condition(helper, arguments)
        }
    }

    /// Runs `work` for `helper`, then charges at least its CPU at ``ResponseTemplate/regexCPUNanosecondsPerUnit`` (what
    /// it counted is subtracted): for work whose counted units under-state some shapes (`regexExtract`'s engine,
    /// `randomValue`, text helpers over long text; r8a A5, r9a B1).
    mutating func chargingCPU<Result>(at helper: String, _ work: (inout Self) throws(RenderError) -> Result) throws(RenderError) -> Result {
        guard let clock = ThreadCPUClock.current() else { return try work(&self) }
        let before = context.work
        let result = try work(&self)
        let byCPU = clock.elapsedNanoseconds / ResponseTemplate.regexCPUNanosecondsPerUnit
        try charge(max(0, byCPU - (context.work - before)), at: helper)
        return result
    }

    /// The request path as WireMock's `UrlPath` holds it: decoded (`/users/John%20Doe` is `/users/John Doe`).
    mutating func requestPath() throws(RenderError) -> Value {
        try charge(request.path.utf8.count, at: "request.path")
        return .requestPath(request.decodedPath)
    }

    /// A block helper's value, given its rendered block (`{{#base64}}…{{/base64}}`).
    mutating func sectionCall(_ name: String, _ content: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError)
        -> Value
    {
        try charge(content.utf8.count, at: "#" + name)
        switch name {
        case "base64": return try base64(.string(content), options)
        case "trim": return .string(Self.javaTrimmed(content))
        case "parseJson": return try parseJSON(content, assigning: arguments.first.map { Self.scalarText(of: $0) })
        case "jsonMerge": return try jsonMerge(arguments.first ?? .null, .string(content), options)
        default: // assign
            if let name = arguments.first.map({ Self.scalarText(of: $0) }) { variables[name] = .string(content) }
            return .null
        }
    }

    /// The conditions: `not`, `and`, `or`, `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `contains`, `matches`.
    private mutating func condition(_ helper: String, _ arguments: [Value]) throws(RenderError) -> Value {
        let first = arguments.first ?? .null
        let second = arguments.count > 1 ? arguments[1] : .null
        switch helper {
        case "not": return .bool(!Self.isTruthy(first))
        case "and": return .bool(!arguments.isEmpty && arguments.allSatisfy(Self.isTruthy))
        case "or": return .bool(arguments.contains(where: Self.isTruthy))
        case "contains": return try contains(first, second)
        case "matches": return try matches(first, second)
        case "eq": return .bool(try equal(first, second))
        case "neq": return .bool(!(try equal(first, second)))
        default: // gt, gte, lt, lte
            let order = try compare(first, second, at: helper)
            switch helper {
            case "gt": return .bool(order > 0)
            case "gte": return .bool(order >= 0)
            case "lt": return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        }
    }

    /// `contains`: a list holds the text, or a text holds it (bytes, as Java compares code units).
    private mutating func contains(_ haystack: Value, _ needleValue: Value) throws(RenderError) -> Value {
        if case .null = needleValue { return .bool(false) }
        let needle = try text(needleValue, at: "contains")
        let candidates: [Value]
        switch haystack {
        case .null, .multi, .method, .requestPath: return .bool(false) // objects, not text, to the helper (as in WireMock)
        case .list(let values): candidates = values
        case .json(let node) where node.elements != nil: candidates = node.elements!.map(Value.json)
        default:
            let text = try text(haystack, at: "contains")
            try charge(text.utf8.count + needle.utf8.count, at: "contains")
            return .bool(ByteSearch.contains(text, needle))
        }
        for candidate in candidates {
            guard case .string = candidate else { continue } // Java's List.contains(String): only a String equals one
            let text = try self.text(candidate, at: "contains")
            try charge(min(text.utf8.count, needle.utf8.count) + 1, at: "contains")
            if text == needle { return .bool(true) }
        }
        return .bool(false)
    }

    /// `matches value regex`: the whole value matches (Java's `String.matches`).
    private mutating func matches(_ value: Value, _ patternValue: Value) throws(RenderError) -> Value {
        guard case .null = value else {
            let pattern = try text(patternValue, at: "matches")
            let text = try self.text(value, at: "matches")
            guard let regex = try regex(pattern, groups: false, at: "matches") else {
                throw .value("{{matches}}: '\(pattern.prefix(80))' is not a valid regular expression")
            }
            return .bool(try run(regex, text, at: "matches"))
        }
        throw .value("{{matches}}: the value is missing (WireMock fails this answer too)")
    }

    /// A whole-text match within the answer's budget.
    mutating func run(_ regex: RegexBox, _ text: String, at helper: String) throws(RenderError) -> Bool {
        try charge(text.utf8.count, at: helper)
        let steps = remainingWork / ResponseTemplate.regexStepCost
        var budget = steps
        let answer = regex.matches(Array(text.unicodeScalars), whole: true, budget: &budget)
        try charge((steps - max(budget, 0)) * ResponseTemplate.regexStepCost, at: helper)
        guard let answer else { throw .budget(ResponseTemplate.workBudget, at: helper) }
        return answer
    }

    /// `pattern` compiled (once per answer), or nil when it is not a regular expression Java would accept; a
    /// pattern Java accepts that this engine does not run (backreferences, lookaround) is a 400 that says so.
    /// With `groups`, the whole pattern is group 1 (what Java calls group 0).
    mutating func regex(_ pattern: String, groups: Bool, at helper: String) throws(RenderError) -> RegexBox? {
        try charge(pattern.utf8.count, at: helper) // the lookup hashes and compares the pattern
        let key = (groups ? "g:" : "m:") + pattern
        if let known = regexes[key] { return known }
        try charge(pattern.utf8.count * ResponseTemplate.compileCost, at: helper)
        do {
            _ = try RegexBox(pattern)
        } catch {
            let message = String(describing: error)
            if message.contains("not supported") { throw .value("{{\(helper)}}: /\(pattern.prefix(80))/: \(message.prefix(200))") }
            return nil
        }
        guard let compiled = try? RegexBox(groups ? "(" + pattern + ")" : pattern, groups: groups) else { return nil }
        if regexes.count >= Self.maxRegexes { regexes.removeAll() }
        regexes[key] = compiled
        return compiled
    }

    /// `jsonPath value path`: a JSON value is read as it is; text is parsed (the body once per answer, however
    /// many helpers read it); the path's evaluation counts each JSON value it visits.
    private mutating func jsonPath(_ source: Value, _ pathValue: Value) throws(RenderError) -> Value {
        let pathText = try text(pathValue, at: "jsonPath")
        let path = try compiledPath(pathText)
        let document: JSONNode?
        if case .json(let node) = source, node.string == nil {
            document = node
        } else {
            document = try parsedJSON(try self.text(source, at: "jsonPath"), at: "jsonPath")
        }
        guard let document else { return .null }
        let allowance = remainingWork / ResponseTemplate.jsonNodeCost
        var left = allowance
        guard let found = path.evaluate(document, budget: &left) else { throw .budget(ResponseTemplate.workBudget, at: "jsonPath") }
        try charge((allowance - left) * ResponseTemplate.jsonNodeCost, at: "jsonPath")
        return found.count == 1 ? .json(found[0]) : found.isEmpty ? .null : .json(JSONNode(.array(found)))
    }

    /// `text` compiled as a JSONPath, once per answer for the last few paths (a lookup costs its text's bytes).
    private mutating func compiledPath(_ text: String) throws(RenderError) -> JSONPath {
        try charge(text.utf8.count, at: "jsonPath")
        if let known = paths[text] { return known }
        try charge(text.utf8.count * ResponseTemplate.compileCost, at: "jsonPath")
        let path = try ResponseTemplate.compiledPath(text)
        if paths.count >= Self.maxRegexes { paths.removeAll() }
        paths[text] = path
        return path
    }

    /// `text` parsed as JSON, once per answer for the last few texts (the body however many helpers read it);
    /// nil when it is not JSON. JSON WireMock reads but this parser does not (``unread(_:at:)``) is no answer.
    mutating func parsedJSON(_ text: String, at helper: String) throws(RenderError) -> JSONNode? {
        if case .success(let document) = try parse(text, at: helper) { return document }
        return nil
    }

    /// The same, with why the text is not JSON.
    mutating func parse(_ text: String, at helper: String) throws(RenderError) -> Result<JSONNode, JSONParser.Error> {
        var result: Result<JSONNode, JSONParser.Error>?
        for entry in context.parsed.reversed() where try isSame(entry.text, text) {
            result = entry.result
            break
        }
        if result == nil {
            try charge(text.utf8.count * ResponseTemplate.parseCost, at: helper)
            do { result = .success(try JSONParser.parse(text)) } catch { result = .failure(error) }
            if context.parsed.count == 4 { context.parsed.removeFirst() }
            context.parsed.append((text, result!))
        }
        if case .failure(let error) = result!, let refusal = Self.unread(error, at: helper) { throw refusal }
        return result!
    }

    /// The answer for JSON that WireMock reads and this parser does not, or nil when WireMock does not read it either:
    /// nested past ``JSONParser/maxDepth`` (a 500 naming the limit: the parse, the paths and the printing recurse once
    /// per level on 1 MiB threads), or a key given twice (a 400: WireMock takes its last value; request JSON is read
    /// strictly here, as the matchers read it). Never an empty value, which `{{#if}}` would read as false.
    static func unread(_ error: JSONParser.Error, at helper: String) -> RenderError? {
        if error.message.hasPrefix("nesting deeper than") {
            return RenderError(
                status: 500,
                description: "template: {{\(helper)}}: the JSON nests deeper than \(JSONParser.maxDepth) levels (at \(error.position)), "
                    + "sut-launch's limit: WireMock reads it, this answer is not made here; nest the JSON at most \(JSONParser.maxDepth) deep"
            )
        }
        if error.message.hasPrefix("duplicate key") {
            return .value(
                "{{\(helper)}}: the JSON is not strict JSON (\(String(describing: error).prefix(120))): WireMock reads a repeated key's "
                    + "last value; request JSON is read strictly here, as the matchers read it; send each key once")
        }
        return nil
    }

    /// Whether two texts are equal; the body compared with itself is found by its storage, not byte by byte.
    private mutating func isSame(_ cached: String, _ text: String) throws(RenderError) -> Bool {
        let count = cached.utf8.count
        guard count == text.utf8.count else { return false }
        if count > 15 { // longer than a small (inline) string: both have storage to compare
            let a = cached.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
            let b = text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
            if let a, let b, a == b { return true }
        }
        try charge(count, at: "jsonPath")
        return cached == text
    }

    /// `systemValue key='NAME' type='ENVIRONMENT'|'PROPERTY'`: only keys an operator permitted
    /// (``ResponseTemplate/permitSystemKeys(_:)``; none by default, as the environment can hold secrets). Refusals
    /// are WireMock's error texts.
    private mutating func systemValue(_ options: [String: Value]) throws(RenderError) -> String {
        let key = try options["key"].map { value throws(RenderError) in try text(value, at: "systemValue") } ?? ""
        let type = try options["type"].map { value throws(RenderError) in try text(value, at: "systemValue") } ?? "ENVIRONMENT"
        try charge(key.utf8.count * 64, at: "systemValue")
        if key.isEmpty { return "[ERROR: The key cannot be empty]" }
        let permitted = ResponseTemplate.systemKeys.current
        guard permitted.contains(where: { $0.matchesWhole(key) }) else { return "[ERROR: Access to \(key) is denied]" }
        // Java system properties do not exist here: a permitted PROPERTY key is unset (empty), as an unknown one is there.
        guard type == "ENVIRONMENT" else { return "" }
        return ProcessEnvironmentValue.named(key) ?? ""
    }
}

extension ResponseTemplate {
    /// The patterns (Java regular expressions, matched whole and ignoring case, as WireMock's
    /// `--permitted-system-keys`) of the keys `systemValue` may read. None until an operator permits some.
    static let systemKeys = Locked<[RegexBox]>([])

    /// Lets `systemValue` read the keys `patterns` match (replacing any permitted before); with `dryRun`, only
    /// checks that each is a regular expression.
    package static func permitSystemKeys(_ patterns: [String], dryRun: Bool = false) throws(Error) {
        var compiled: [RegexBox] = []
        for pattern in patterns {
            do {
                compiled.append(try RegexBox("(?i)" + pattern))
            } catch {
                throw Error(
                    "'\(pattern.prefix(80))' is not a regular expression this server runs: \(String(describing: error).prefix(200))")
            }
        }
        if !dryRun { systemKeys.withLock { $0 = compiled } }
    }
}
