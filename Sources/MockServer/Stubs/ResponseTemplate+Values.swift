import AutomationSupport

// MARK: - Values: how they print, compare and test

extension ResponseTemplate.Renderer {
    /// How a value prints: numbers as Java's Integer and Double, JSON as JSON, lists and maps as Java's. Printing
    /// counts its bytes and stops at the budget (a deeply nested object printed pretty grows with its depth; a list
    /// a template built of itself, `{{val (array a a) assign='a'}}` in a loop, grows twice each turn).
    mutating func text(_ value: Value, at helper: @autoclosure () -> String) throws(RenderError) -> String {
        try text(value, at: helper(), depth: 0)
    }

    /// Lists and maps nest at most this deep when printed or converted (JSON from a request nests at most 128).
    static let maxNesting = 256

    private mutating func text(_ value: Value, at helper: String, depth: Int) throws(RenderError) -> String {
        guard depth <= Self.maxNesting else { throw .budget("nesting (\(Self.maxNesting) levels of lists and maps)", at: helper) }
        switch value {
        case .json(let node) where node.string == nil && (node.elements != nil || node.members != nil):
            var text = ""
            let limit = min(remainingWork / ResponseTemplate.printCost, ResponseTemplate.maxOutputBytes)
            // Objects as Jackson's pretty printer writes them (as WireMock does), arrays compact.
            guard Self.write(node, pretty: node.members != nil, indent: "", into: &text, limit: limit) else {
                throw .budget(
                    remainingWork / ResponseTemplate.printCost < ResponseTemplate.maxOutputBytes
                        ? ResponseTemplate.workBudget : ResponseTemplate.outputBudget, at: helper)
            }
            try charge(text.utf8.count * ResponseTemplate.printCost, at: helper)
            return text
        case .list(let values):
            // Java's List.toString: `[a, b]`, a null element as `null`.
            var text = "["
            for (offset, element) in values.enumerated() {
                if offset > 0 { text += ", " }
                try charge(2, at: helper)
                let part = if case .null = element { "null" } else { try self.text(element, at: helper, depth: depth + 1) }
                try charge(part.utf8.count, at: helper)
                text += part
            }
            return text + "]"
        case .map(let entries):
            // Java's Map.toString: `{a=1, b=x}`.
            var text = "{"
            for (offset, entry) in entries.enumerated() {
                if offset > 0 { text += ", " }
                try charge(entry.key.utf8.count + 3, at: helper)
                let part = if case .null = entry.value { "null" } else { try self.text(entry.value, at: helper, depth: depth + 1) }
                try charge(part.utf8.count, at: helper)
                text += entry.key + "=" + part
            }
            return text + "}"
        case .date(let date):
            try charge(ResponseTemplate.dateCost + (date.format?.utf8.count ?? 0) * 4, at: helper)
            return Self.scalarText(of: value)
        default: return Self.scalarText(of: value)
        }
    }

    /// Java's `equals` as WireMock's `eq` sees it: strings and numbers by value; the request's method, path
    /// and multi-valued parts only equal their own kind.
    mutating func equal(_ left: Value, _ right: Value) throws(RenderError) -> Bool {
        switch (left, right) {
        case (.multi(let a), .multi(let b)): return a == b
        case (.method(let a), .method(let b)), (.requestPath(let a), .requestPath(let b)): return a == b
        case (.multi, _), (_, .multi), (.method, _), (_, .method), (.requestPath, _), (_, .requestPath): return false
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        default:
            guard Self.isNumeric(left) == Self.isNumeric(right) else { return false }
            if Self.isNumeric(left), let a = Self.number(left), let b = Self.number(right) { return a == b }
            let a = try text(left, at: "eq")
            let b = try text(right, at: "eq")
            try charge(min(a.utf8.count, b.utf8.count) + 1, at: "eq")
            // Code point by code point, as Java's equals: Swift's == normalizes first (canonical equivalence), which
            // read the whole of a 900 KB text of combining marks at each comparison (3.6 s of CPU in one answer).
            return a.utf8.elementsEqual(b.utf8)
        }
    }

    /// Numbers compare as numbers, everything else as its text.
    mutating func compare(_ left: Value, _ right: Value, at helper: String) throws(RenderError) -> Int {
        if let a = Self.number(left), let b = Self.number(right) { return a == b ? 0 : a < b ? -1 : 1 }
        let a = try text(left, at: helper)
        let b = try text(right, at: helper)
        try charge((min(a.utf8.count, b.utf8.count) + 1) * 2, at: helper)
        // UTF-16 unit by unit, as Java's compareTo (not Swift's normalizing <), in time of the shorter text.
        var (unitsA, unitsB) = (a.utf16.makeIterator(), b.utf16.makeIterator())
        while true {
            switch (unitsA.next(), unitsB.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    static func isNumeric(_ value: Value) -> Bool {
        switch value {
        case .integer, .real: return true
        case .json(let node): return node.double != nil
        default: return false
        }
    }

    /// A value as a number: text only as BoundedNumber reads a decimal (not `nan`, `inf`, `0x10`, ` 5`).
    static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case .json(let node): return node.double
        case .string(let text): return BoundedNumber.decimal(text, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        default: return nil
        }
    }

    static func isTruthy(_ value: Value) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case .real(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .list(let values): return !values.isEmpty
        case .multi(let values): return !values.isEmpty
        case .method, .requestPath, .map, .date: return true
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

    static func scalarText(of value: Value) -> String { ResponseTemplate.scalarText(of: value) }

    /// Writes `node` into `text` (Jackson's pretty printer when `pretty`: `{` newline, two spaces,
    /// `"key" : value`, arrays `[ a, b ]`; else compact JSON); false once `text` passes `limit` bytes.
    static func write(_ node: JSONNode, pretty: Bool, indent: String, into text: inout String, limit: Int) -> Bool {
        switch node.value {
        case .object(let members):
            guard !members.isEmpty else {
                text += pretty ? "{ }" : "{}"
                return true
            }
            let inner = indent + "  "
            text += pretty ? "{\n" : "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += pretty ? ",\n" : "," }
                if pretty { text += inner }
                text += JSONWriter.quoted(member.key)
                text += pretty ? " : " : ":"
                guard text.utf8.count <= limit, write(member.value, pretty: pretty, indent: inner, into: &text, limit: limit) else {
                    return false
                }
            }
            text += pretty ? "\n" + indent + "}" : "}"
        case .array(let elements):
            guard !elements.isEmpty else {
                text += pretty ? "[ ]" : "[]"
                return true
            }
            text += pretty ? "[ " : "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += pretty ? ", " : "," }
                guard text.utf8.count <= limit, write(element, pretty: pretty, indent: indent, into: &text, limit: limit) else {
                    return false
                }
            }
            text += pretty ? " ]" : "]"
        // As Java writes a Double (3.0, 1.0E7); a literal no Double holds as written (BigInteger in Jackson) as written.
        case .double(let number): text += node.literal ?? JavaNumberText.double(number)
        default: text += JSONWriter.write(node)
        }
        return text.utf8.count <= limit
    }

    /// Handlebars' escaping of `{{…}}`, byte by byte (the characters it escapes are ASCII; Java escapes each
    /// `=` even where a combining mark follows it).
    mutating func escapeHTML(_ text: String, at helper: @autoclosure () -> String) throws(RenderError) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0x60 || $0 == 0x3D }
        guard text.utf8.contains(where: special) else { return text }
        // Up to six bytes written for each one read.
        try charge(text.utf8.count * ResponseTemplate.printCost, at: helper())
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: escaped.append(contentsOf: Self.entities.ampersand)
            case 0x3C: escaped.append(contentsOf: Self.entities.less)
            case 0x3E: escaped.append(contentsOf: Self.entities.greater)
            case 0x22: escaped.append(contentsOf: Self.entities.quote)
            case 0x27: escaped.append(contentsOf: Self.entities.apostrophe)
            case 0x60: escaped.append(contentsOf: Self.entities.backtick)
            case 0x3D: escaped.append(contentsOf: Self.entities.equals)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Handlebars' entities as bytes, made once (an array made per escaped byte cost more than the rest).
    private static let entities = (
        ampersand: Array("&amp;".utf8), less: Array("&lt;".utf8), greater: Array("&gt;".utf8), quote: Array("&quot;".utf8),
        apostrophe: Array("&#x27;".utf8), backtick: Array("&#x60;".utf8), equals: Array("&#x3D;".utf8)
    )
}

extension ResponseTemplate {
    /// A list or map as Java prints it, cut with `…` once `left` characters are spent.
    static func shortText(of value: Value, left: inout Int) -> String {
        guard left > 0 else { return "…" }
        let (open, close, parts): (String, String, [(String?, Value)])
        switch value {
        case .list(let values): (open, close, parts) = ("[", "]", values.prefix(left).map { (nil, $0) })
        case .map(let entries): (open, close, parts) = ("{", "}", entries.prefix(left).map { ($0.key, $0.value) })
        default:
            let text = scalarText(of: value)
            left -= text.count
            return text
        }
        var text = open
        for (offset, part) in parts.enumerated() {
            if offset > 0 { text += ", " }
            if left <= 0 { return text + "…" + close }
            if let key = part.0 { text += key + "=" }
            text += shortText(of: part.1, left: &left)
            left -= 2
        }
        return text + close
    }

    /// How a value that is not a JSON array, object or list prints (those need the budget: ``Renderer/text(_:at:)``).
    static func scalarText(of value: Value) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .real(let number): return JavaNumberText.double(number)
        case .string(let text): return text
        case .list, .map:
            var left = 200 // for literals and messages: a few elements, never a walk of a whole (or self-built) tree
            return shortText(of: value, left: &left)
        case .multi(let values): return values.first ?? ""
        case .method(let text), .requestPath(let text): return text
        case .date(let date): return date.text
        case .json(let node):
            if case .double(let number) = node.value { return node.literal ?? JavaNumberText.double(number) }
            return node.string ?? JSONWriter.write(node)
        }
    }
}
