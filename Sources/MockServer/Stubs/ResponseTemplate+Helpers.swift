import AutomationSupport

// MARK: - Helpers

extension ResponseTemplate.Renderer {
    typealias Value = ResponseTemplate.Value
    typealias RenderError = ResponseTemplate.RenderError

    /// One helper's value. Each charges the work it does to the answer's budget, and reads its numbers through
    /// the same checks the parser applies to literals (``ResponseTemplate/randomLength(_:)`` and the others).
    mutating func call(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        let first = arguments.first ?? .null
        switch helper {
        case "upper", "lower", "trim":
            let text = try self.text(first, at: helper)
            try charge(text.utf8.count, at: helper)
            return .string(helper == "upper" ? text.uppercased() : helper == "lower" ? text.lowercased() : text.trimmingSpaces())
        case "size":
            switch first {
            case .list(let values): return .number(Double(values.count))
            case .multi(let values): return .number(Double(values.count))
            case .requestPath(let path):
                try charge(path.utf8.count, at: helper)
                return .number(Double(path.split(separator: "/").count))
            case .json(let node) where node.string == nil:
                if let count = node.elements?.count ?? node.members?.count { return .number(Double(count)) }
                fallthrough
            default:
                let text = try self.text(first, at: helper)
                try charge(text.utf8.count * 4, at: helper) // counting Characters walks grapheme breaks
                return .number(Double(text.count))
            }
        case "jsonPath": return try jsonPath(first, arguments.count > 1 ? arguments[1] : .null)
        case "randomValue": return .string(try randomValue(options))
        case "now": return .string(try now(options))
        case "not": return .bool(!Self.isTruthy(first))
        case "and": return .bool(!arguments.isEmpty && arguments.allSatisfy(Self.isTruthy))
        case "or": return .bool(arguments.contains(where: Self.isTruthy))
        case "contains":
            let needle = arguments.count > 1 ? try text(arguments[1], at: helper) : ""
            let candidates: [Value]
            switch first {
            case .multi, .method, .requestPath: return .bool(false) // objects, not text, to the helper (as in WireMock)
            case .list(let values): candidates = values
            case .json(let node) where node.elements != nil: candidates = node.elements!.map(Value.json)
            default:
                let haystack = try text(first, at: helper)
                try charge(haystack.utf8.count + needle.utf8.count, at: helper)
                return .bool(ByteSearch.contains(haystack, needle)) // bytes, as Java compares code units
            }
            for candidate in candidates {
                let text = try self.text(candidate, at: helper)
                try charge(min(text.utf8.count, needle.utf8.count) + 1, at: helper)
                if text == needle { return .bool(true) }
            }
            return .bool(false)
        case "eq": return .bool(try equal(first, arguments.count > 1 ? arguments[1] : .null))
        case "neq": return .bool(!(try equal(first, arguments.count > 1 ? arguments[1] : .null)))
        default: // gt, gte, lt, lte
            let order = try compare(first, arguments.count > 1 ? arguments[1] : .null, at: helper)
            switch helper {
            case "gt": return .bool(order > 0)
            case "gte": return .bool(order >= 0)
            case "lt": return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        }
    }

    /// `jsonPath value path`: a JSON value is read as it is; text is parsed (the body once per answer, however
    /// many helpers read it); the path's evaluation counts each JSON value it visits.
    private mutating func jsonPath(_ source: Value, _ pathValue: Value) throws(RenderError) -> Value {
        let pathText = try text(pathValue, at: "jsonPath")
        try charge(pathText.utf8.count * 4, at: "jsonPath")
        let path = try ResponseTemplate.compiledPath(pathText)
        let document: JSONNode?
        if case .json(let node) = source, node.string == nil {
            document = node
        } else {
            let text = try self.text(source, at: "jsonPath")
            var cached: JSONNode??
            for entry in context.parsed.reversed() {
                guard try isSame(entry.text, text) else { continue }
                cached = .some(entry.node)
                break
            }
            if let cached {
                document = cached
            } else {
                try charge(text.utf8.count * ResponseTemplate.parseCost, at: "jsonPath")
                document = try? JSONParser.parse(text)
                if context.parsed.count == 4 { context.parsed.removeFirst() }
                context.parsed.append((text, document))
            }
        }
        guard let document else { return .null }
        let allowance = remainingWork / ResponseTemplate.jsonNodeCost
        var left = allowance
        guard let found = path.evaluate(document, budget: &left) else { throw .budget(ResponseTemplate.workBudget, at: "jsonPath") }
        try charge((allowance - left) * ResponseTemplate.jsonNodeCost, at: "jsonPath")
        return found.count == 1 ? .json(found[0]) : found.isEmpty ? .null : .json(JSONNode(.array(found)))
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

    private mutating func randomValue(_ options: [String: Value]) throws(RenderError) -> String {
        let type = try options["type"].map { value throws(RenderError) in try text(value, at: "randomValue") } ?? "ALPHANUMERIC"
        try ResponseTemplate.checkRandomType(type)
        let uppercase = options["uppercase"].map(Self.isTruthy) ?? false
        if type == "UUID" {
            try charge(36, at: "randomValue")
            let hex = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }
            let v4 = Array(hex[0..<12]) + ["4"] + Array(hex[13..<16]) + [String(Int.random(in: 8..<12), radix: 16)] + Array(hex[17..<32])
            let uuid = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { v4[$0].joined() }.joined(separator: "-")
            return uppercase ? uuid.uppercased() : uuid
        }
        let length =
            try options["length"].map { value throws(RenderError) in try ResponseTemplate.randomLength(text(value, at: "randomValue")) }
            ?? 36
        try charge(length, at: "randomValue")
        let alphabet: String
        switch type {
        case "NUMERIC": alphabet = "0123456789"
        case "ALPHABETIC": alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        case "HEXADECIMAL": alphabet = "0123456789abcdef"
        default: alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        }
        let characters = Array(alphabet.utf8)
        var generator = SystemRandomNumberGenerator()
        let random = String(
            decoding: (0..<length).map { _ in characters[Int.random(in: 0..<characters.count, using: &generator)] }, as: UTF8.self)
        return uppercase ? random.uppercased() : random
    }

    private mutating func now(_ options: [String: Value]) throws(RenderError) -> String {
        var milliseconds = WallClock.milliseconds()
        if let offset = options["offset"] { milliseconds += try ResponseTemplate.nowOffset(text(offset, at: "now")) }
        let format = try options["format"].map { value throws(RenderError) in try text(value, at: "now") }
        try ResponseTemplate.checkNowFormat(format)
        // The clock plus at most a century either way: well inside ±10^14 ms (years -1200 to 5100).
        guard let epoch = BoundedNumber.integer(milliseconds, in: -100_000_000_000_000...100_000_000_000_000) else {
            throw .value("{{now}}: the clock reads \(milliseconds) ms, out of range")
        }
        switch format {
        case "epoch": return "\(epoch)"
        case "unix": return "\(epoch >= 0 ? epoch / 1000 : -((999 - epoch) / 1000))" // whole seconds, rounded down
        default:
            // Whole seconds, rounded down also before 1970, so the printed second is the right one.
            return String(WallClock.iso8601(milliseconds: (milliseconds / 1000).rounded(.down) * 1000).prefix(19)) + "Z"
        }
    }
}

// MARK: - Reading helper values (at load for literals, when answering for request values)

extension ResponseTemplate {
    /// `randomValue length=`: a whole number in ``randomLengths``.
    static func randomLength(_ text: String) throws(RenderError) -> Int {
        do {
            return try BoundedNumber.requireInteger(text, in: randomLengths)
        } catch {
            throw .value("{{randomValue length=…}}: \(error)")
        }
    }

    static func checkRandomType(_ type: String) throws(RenderError) {
        guard randomTypes.contains(type) else {
            throw .value(
                "{{randomValue type='\(type.prefix(40))'}} is not supported; types: \(randomTypes.sorted().joined(separator: ", "))")
        }
    }

    static func checkNowFormat(_ format: String?) throws(RenderError) {
        guard let format, format != "epoch", format != "unix" else { return }
        throw .value("{{now format='\(format.prefix(40))'}} is not supported; use no format (ISO 8601), 'epoch' or 'unix'")
    }

    /// `now offset=`: milliseconds, through ``offsetMilliseconds(_:)``.
    static func nowOffset(_ text: String) throws(RenderError) -> Double {
        guard let shift = offsetMilliseconds(text) else {
            throw .value(
                "{{now offset='\(text.prefix(40))'}} is not supported; write an amount and a unit like '3 days' or '-2 hours' (within 100 years)"
            )
        }
        return shift
    }

    static func compiledPath(_ text: String) throws(RenderError) -> JSONPath {
        do {
            return try JSONPath(text)
        } catch {
            throw .value("{{jsonPath}}: \(String(error.description.prefix(300)))")
        }
    }
}
