import AutomationSupport

// MARK: - JSON and collection helpers: size, array, val, parseJson, toJson, jsonMerge

extension ResponseTemplate.Renderer {
    /// A JSON or collection helper's value, or nil when `helper` is not one.
    mutating func jsonHelper(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value? {
        let first = arguments.first ?? .null
        switch helper {
        case "size": return try size(first)
        case "array":
            try charge(arguments.count * ResponseTemplate.valueCost, at: helper)
            return .list(arguments)
        case "val":
            // WireMock 3's `val`: the value, or `or=`/`default=` when it is missing; `assign=` keeps it in a variable.
            var value = first
            if case .null = value { value = options["or"] ?? options["default"] ?? .null }
            guard let name = options["assign"] else { return value }
            variables[Self.scalarText(of: name)] = value
            return .null
        case "parseJson":
            guard let first = arguments.first else { return .string("[ERROR: Missing required JSON string parameter]") }
            if case .null = first { return .map([]) }
            return try parseJSON(try text(first, at: helper), assigning: arguments.count > 1 ? Self.scalarText(of: arguments[1]) : nil)
        case "toJson":
            // WireMock 3's `toJson`: Jackson's pretty printing of the value (nothing for a missing one).
            if case .null = first { return .string("") }
            return .string(try json(try jsonNode(first, depth: 0), pretty: true, at: helper))
        case "jsonMerge": return try jsonMerge(first, arguments.count > 1 ? arguments[1] : .null, options)
        default: return nil
        }
    }

    /// WireMock's `size`: a text's length in UTF-16 units (as Java counts), a list's or map's entries, a query
    /// value's values, the request path's segments; nothing for a number, a boolean or a date; 0 for a missing value.
    private mutating func size(_ value: Value) throws(RenderError) -> Value {
        switch value {
        case .null: return .integer(0)
        case .list(let values): return .integer(values.count)
        case .map(let entries): return .integer(entries.count)
        case .multi(let values): return .integer(values.count)
        case .requestPath(let path):
            try charge(path.utf8.count, at: "size")
            return .integer(path.split(separator: "/").count)
        case .integer, .real, .bool, .date, .method: return .null
        case .json(let node):
            if let count = node.elements?.count ?? node.members?.count { return .integer(count) }
            guard let text = node.string else { return .null }
            try charge(text.utf8.count, at: "size")
            return .integer(text.utf16.count)
        case .string(let text):
            try charge(text.utf8.count, at: "size")
            return .integer(text.utf16.count)
        }
    }

    /// `parseJson text` as WireMock reads it: `{}`, blank or a missing value are an empty map; text in `[…]` a
    /// list; anything else must be an object. Objects become maps, arrays lists (they print as Java's do).
    mutating func parseJSON(_ text: String, assigning name: String?) throws(RenderError) -> Value {
        let trimmed = Self.javaTrimmed(text)
        // Up to three bytes that are not white space: enough to tell `{}` (a filtered copy of a 14 MB body was made
        // before its parse was charged).
        var compact: [UInt8] = []
        for byte in trimmed.utf8 where ![0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte) {
            compact.append(byte)
            if compact.count > 2 { break }
        }
        var value = Value.map([])
        if compact != Array("{}".utf8) && !compact.isEmpty {
            let node: JSONNode
            switch try parse(trimmed, at: "parseJson") {
            case .success(let document): node = document
            case .failure(let error):
                // WireMock's Jackson also reads comments, single quotes, text after the value and numbers past a double.
                throw .value(
                    "{{parseJson}}: '\(trimmed.prefix(60))' is not JSON (\(String(describing: error).prefix(120))); WireMock fails "
                        + "this answer too unless its reader's leniency takes the text (comments, single quotes, text after the value)")
            }
            let wantsList = trimmed.hasPrefix("[") && trimmed.hasSuffix("]")
            guard wantsList ? node.elements != nil : node.members != nil else {
                throw .value(
                    "{{parseJson}}: '\(trimmed.prefix(60))' is not a JSON \(wantsList ? "array" : "object") (WireMock fails this answer too)"
                )
            }
            value = try javaValue(of: node)
        }
        guard let name else { return value }
        variables[name] = value
        return .null
    }

    /// A JSON document as the Java objects Jackson reads it into, each value charged.
    private mutating func javaValue(of node: JSONNode) throws(RenderError) -> Value {
        try charge(ResponseTemplate.valueCost * 2, at: "parseJson")
        switch node.value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return node.literal == nil ? .real(number) : .json(node) // a BigInteger's text stays exact
        case .string(let text): return .string(text)
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try javaValue(of: element)) }
            return .list(values)
        case .object(let members):
            var entries: [(key: String, value: Value)] = []
            entries.reserveCapacity(members.count)
            for member in members { entries.append((member.key, try javaValue(of: member.value))) }
            return .map(entries)
        }
    }

    /// A value as JSON: Jackson's pretty printer (`{` newline, `"key" : value`, arrays `[ a, b ]`) or compact.
    mutating func json(_ node: JSONNode, pretty: Bool, at helper: String) throws(RenderError) -> String {
        var text = ""
        let limit = min(remainingWork / ResponseTemplate.printCost, ResponseTemplate.maxOutputBytes)
        guard Self.write(node, pretty: pretty, indent: "", into: &text, limit: limit) else {
            throw .budget(ResponseTemplate.workBudget, at: helper)
        }
        try charge(text.utf8.count * ResponseTemplate.printCost, at: helper)
        return text
    }

    /// A value as the JSON Jackson writes of the Java object (a date as its milliseconds, as Jackson writes a Date);
    /// each value charged, nesting bounded.
    private mutating func jsonNode(_ value: Value, depth: Int) throws(RenderError) -> JSONNode {
        guard depth <= Self.maxNesting else { throw .budget("nesting (\(Self.maxNesting) levels of lists and maps)", at: "toJson") }
        try charge(ResponseTemplate.jsonNodeCost, at: "toJson")
        switch value {
        case .null: return JSONNode(.null)
        case .bool(let flag): return JSONNode(.bool(flag))
        case .integer(let number): return JSONNode(.int(number))
        case .real(let number): return JSONNode(.double(number))
        case .string(let text), .method(let text), .requestPath(let text): return JSONNode(.string(text))
        case .json(let node): return node
        case .list(let values):
            var elements: [JSONNode] = []
            for element in values { elements.append(try jsonNode(element, depth: depth + 1)) }
            return JSONNode(.array(elements))
        case .map(let entries):
            let position = SourcePosition(line: 1, column: 1)
            var members: [JSONNode.Member] = []
            for entry in entries {
                members.append(JSONNode.Member(key: entry.key, keyPosition: position, value: try jsonNode(entry.value, depth: depth + 1)))
            }
            return JSONNode(.object(members))
        case .multi(let values):
            return values.count == 1 ? JSONNode(.string(values[0])) : JSONNode(.array(values.map { JSONNode(.string($0)) }))
        case .date(let date): return JSONNode(.int(date.milliseconds))
        }
    }

    /// WireMock 3's `jsonMerge base other` (or `{{#jsonMerge base}}other{{/jsonMerge}}`): `other`'s members into
    /// `base`'s, objects merged member by member, `removeNulls=true` removing what `other` sets to null; compact
    /// JSON out. Problems are WireMock's error texts.
    mutating func jsonMerge(_ base: Value, _ other: Value, _ options: [String: Value]) throws(RenderError) -> Value {
        guard case .string(let baseText) = base else { return .string("[ERROR: Base JSON parameter must be a string]") }
        guard let baseNode = try parsedJSON(baseText, at: "jsonMerge") else {
            return .string("[ERROR: Base JSON is not valid JSON ('\(baseText)')]")
        }
        guard baseNode.members != nil else { return .string("[ERROR: Base JSON is not a JSON object ('\(baseText)')]") }
        guard case .string(let otherText) = other else { return .string("[ERROR: JSON to merge must be a string]") }
        guard let otherNode = try parsedJSON(otherText, at: "jsonMerge") else {
            return .string("[ERROR: JSON to merge is not valid JSON ('\(otherText)')]")
        }
        guard otherNode.members != nil else { return .string("[ERROR: JSON to merge is not a JSON object ('\(otherText)')]") }
        let removeNulls: Bool = if case .bool(true)? = options["removeNulls"] { true } else { false }
        let merged = try merge(baseNode, otherNode, removeNulls: removeNulls)
        return .string(try json(merged, pretty: false, at: "jsonMerge"))
    }

    private mutating func merge(_ base: JSONNode, _ other: JSONNode, removeNulls: Bool) throws(RenderError) -> JSONNode {
        guard var members: [JSONNode.Member?] = base.members, let others = other.members else { return other }
        try charge((members.count + others.count) * ResponseTemplate.jsonNodeCost, at: "jsonMerge")
        // Each key found through an index, not a scan of the members: a scan per member made merging a 4 MB
        // object with itself quadratic (hours) for a linear charge. A removed member leaves a hole until the end.
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { index[member!.key] = index[member!.key] ?? position }
        for member in others {
            let existing = index[member.key]
            var value = member.value
            if value.members != nil, let existing, let current = members[existing], current.value.members != nil {
                value = try merge(current.value, value, removeNulls: removeNulls)
            } else if removeNulls, case .null = value.value {
                if let existing { members[existing] = nil }
                index[member.key] = nil
                continue
            }
            if let existing, members[existing] != nil {
                members[existing]!.value = value
            } else {
                index[member.key] = members.count
                members.append(member)
            }
        }
        return JSONNode(.object(members.compactMap { $0 }))
    }
}
