import AutomationSupport

// MARK: - String helpers: upper, lower, trim, capitalize, capitalizeFirst, abbreviate, join, regexExtract, base64,
// urlEncode, formData (WireMock 2.35's and Handlebars.java 4.3's, with their outputs)

extension ResponseTemplate.Renderer {
    /// A string helper's value, or nil when `helper` is not one.
    mutating func stringHelper(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value? {
        let first = arguments.first ?? .null
        switch helper {
        case "upper", "lower", "capitalize", "capitalizeFirst", "abbreviate":
            // Handlebars' StringHelpers: a falsy value gives the first parameter as text (or nothing).
            guard Self.isTruthy(first) else { return arguments.count > 1 ? .string(try text(arguments[1], at: helper)) : .null }
            let text = try self.text(first, at: helper)
            // Case mappings look up each scalar's Unicode properties: dearer than a copy.
            try charge(text.utf8.count * (helper.hasPrefix("capitalize") ? 16 : 4), at: helper)
            switch helper {
            case "upper": return .string(text.uppercased())
            case "lower": return .string(text.lowercased())
            case "capitalize": return .string(Self.capitalized(text, fully: options["fully"].map(Self.isTruthy) ?? false))
            case "capitalizeFirst": return .string(Self.capitalized(text, fully: false, firstOnly: true))
            default: return .string(try abbreviate(text, arguments.count > 1 ? arguments[1] : .null))
            }
        case "trim":
            let text = try self.text(first, at: helper)
            try charge(text.utf8.count, at: helper)
            return .string(Self.javaTrimmed(text))
        case "join": return .string(try join(arguments, options))
        case "regexExtract": return try regexExtract(arguments, options)
        case "base64": return try base64(first, options)
        case "urlEncode": return .string(try urlEncode(first, options))
        case "formData": return try formData(arguments, options)
        default: return nil
        }
    }

    /// Java's `String.trim()`: every character up to U+0020 off both ends.
    static func javaTrimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { $0 > 0x20 }), let last = utf8.lastIndex(where: { $0 > 0x20 }) else { return "" }
        return String(text[first...last])
    }

    /// Commons Lang's `WordUtils.capitalize` (each word's first letter in title case, words split at Java
    /// whitespace), `capitalizeFully` (the rest lowered first) and `StringUtils.capitalize` (`firstOnly`).
    static func capitalized(_ text: String, fully: Bool, firstOnly: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        var next = true
        for scalar in (fully ? text.lowercased() : text).unicodeScalars {
            if !firstOnly && isJavaWhitespace(scalar) {
                next = true
                result.append(scalar)
            } else if next {
                let title = scalar.properties.titlecaseMapping.unicodeScalars
                if title.count == 1, let one = title.first { result.append(one) } else { result.append(scalar) }
                next = false
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `Character.isWhitespace`: the Unicode space separators but the non-breaking ones, and the ASCII controls.
    static func isJavaWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x1F: return true
        case 0xA0, 0x2007, 0x202F: return false
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// `StringUtils.abbreviate(text, width)`: at most `width` UTF-16 units, the last three `...`; width at least 4.
    private mutating func abbreviate(_ text: String, _ widthValue: Value) throws(RenderError) -> String {
        let width = try ResponseTemplate.abbreviationWidth(Self.scalarText(of: widthValue))
        let units = Array(text.utf16)
        guard units.count > width else { return text }
        return String(decoding: units[..<(width - 3)], as: UTF16.self) + "..."
    }

    /// Handlebars' `join`: `{{join list ', '}}` or `{{join a b c '-'}}`, the separator last, `prefix=`/`suffix=`.
    private mutating func join(_ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> String {
        guard let first = arguments.first, Self.isTruthy(first) else { return "" }
        guard arguments.count > 1, case .string(let separator) = arguments[arguments.count - 1] else {
            throw .value("{{join}}: the last parameter must be the separator text, like {{join list ', '}}")
        }
        let items: [Value]
        switch first {
        case .list(let values): items = values
        case .json(let node) where node.elements != nil: items = node.elements!.map(Value.json)
        default: items = Array(arguments.dropLast())
        }
        let prefix = try options["prefix"].map { value throws(RenderError) in try text(value, at: "join") } ?? ""
        let suffix = try options["suffix"].map { value throws(RenderError) in try text(value, at: "join") } ?? ""
        var parts: [String] = []
        for item in items {
            let part = try text(item, at: "join")
            try charge(part.utf8.count + separator.utf8.count, at: "join")
            parts.append(part)
        }
        return prefix + parts.joined(separator: separator) + suffix
    }

    /// `regexExtract text 'regex'` (the first match), `… default='x'` (when none), `… 'name'` (every match's
    /// groups into a variable; nothing printed). What WireMock prints as an error, it prints too.
    private mutating func regexExtract(_ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        // Its counted units (the text, the engine's steps, the groups) under-state some shapes: `(a|b|c)*z` over 1,000
        // generated characters that never match cost 6-9 times the loop's CPU for its units (r8a A5, after r7a F5
        // raised the step charge). So it is charged at least its CPU at ``regexCPUNanosecondsPerUnit``.
        try chargingCPU(at: "regexExtract") { (renderer: inout Self) throws(RenderError) in
            try renderer.regexExtractCounted(arguments, options)
        }
    }

    private mutating func regexExtractCounted(_ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        guard let subject = arguments.first, arguments.count > 1 else {
            throw .value("{{regexExtract}} takes a value and a regular expression, like {{regexExtract request.body '[A-Z]+'}}")
        }
        if case .null = subject { throw .value("{{regexExtract}}: the value is missing (WireMock fails this answer too)") }
        let pattern = try text(arguments[1], at: "regexExtract")
        let text = try self.text(subject, at: "regexExtract")
        guard let regex = try regex(pattern, groups: true, at: "regexExtract") else {
            return .string("[ERROR: Invalid regex string \(pattern)]")
        }
        let scalars = Array(text.unicodeScalars)
        try charge(text.utf8.count, at: "regexExtract")
        var groups: [String] = []
        var start = 0
        while start <= scalars.count {
            let steps = remainingWork / ResponseTemplate.regexGroupStepCost
            var budget = steps
            let found = regex.find(in: scalars, from: start, budget: &budget)
            try charge((steps - max(budget, 0)) * ResponseTemplate.regexGroupStepCost, at: "regexExtract")
            guard case .match(let ranges) = found else {
                if found == .gaveUp { throw .budget(ResponseTemplate.workBudget, at: "regexExtract") }
                break
            }
            guard let whole = ranges.first ?? nil else { break }
            if arguments.count == 2 { return .string(String(String.UnicodeScalarView(scalars[whole]))) }
            for range in ranges.dropFirst() {
                try charge(ResponseTemplate.valueCost + (range?.count ?? 0), at: "regexExtract")
                groups.append(range.map { String(String.UnicodeScalarView(scalars[$0])) } ?? "")
            }
            start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
        }
        if groups.isEmpty { return options["default"] ?? .string("[ERROR: Nothing matched \(pattern)]") }
        variables[Self.scalarText(of: arguments[2])] = .multi(groups)
        return .null
    }

    /// `base64 text` (`padding=false` leaves the `=` out), `base64 text decode=true` (read as UTF-8).
    mutating func base64(_ value: Value, _ options: [String: Value]) throws(RenderError) -> Value {
        if case .null = value { throw .value("{{base64}}: the value is missing (WireMock fails this answer too)") }
        let text = try self.text(value, at: "base64")
        try charge(text.utf8.count * 2, at: "base64")
        if case .bool(true)? = options["decode"] {
            guard let bytes = Base64Text.decode(text) else {
                throw .value("{{base64 decode=true}}: '\(text.prefix(40))' is not base64 (WireMock fails this answer too)")
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        }
        let padding: Bool
        if let option = options["padding"], case .bool(let flag) = option { padding = flag } else { padding = options["padding"] == nil }
        return .string(Base64Text.encode(Array(text.utf8), padding: padding))
    }

    /// `urlEncode text` (Java's URLEncoder: form encoding, space as `+`), `urlEncode text decode=true` (URLDecoder).
    private mutating func urlEncode(_ value: Value, _ options: [String: Value]) throws(RenderError) -> String {
        if case .null = value { throw .value("{{urlEncode}}: the value is missing (WireMock fails this answer too)") }
        if let encoding = options["encoding"] { try ResponseTemplate.checkEncoding(try text(encoding, at: "urlEncode"), "urlEncode") }
        let text = try self.text(value, at: "urlEncode")
        try charge(text.utf8.count * 3, at: "urlEncode")
        guard case .bool(true)? = options["decode"] else { return FormEncoding.encode(text) }
        guard let decoded = FormEncoding.decode(text) else {
            throw .value(
                "{{urlEncode decode=true}}: '\(text.prefix(40))' has a % not followed by two hex digits (WireMock fails this answer too)")
        }
        return decoded
    }

    /// `formData text` (a map of each field's values), `formData text 'name'` (into a variable);
    /// `urlDecode=true` decodes the values. Parsed as WireMock's FormParser splits (`a=b=c` is `a`: `b`).
    private mutating func formData(_ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        let value = arguments.first ?? .null
        if case .null = value { throw .value("{{formData}}: the value is missing (WireMock fails this answer too)") }
        if let encoding = options["encoding"] { try ResponseTemplate.checkEncoding(try text(encoding, at: "formData"), "formData") }
        let decode: Bool = if case .bool(true)? = options["urlDecode"] { true } else { false }
        let text = try self.text(value, at: "formData")
        try charge(text.utf8.count * 2, at: "formData")
        var entries: [(key: String, values: [String])] = []
        var positions: [String: Int] = [:]
        for field in FormEncoding.javaSplit(text, UInt8(ascii: "&")) {
            let parts = FormEncoding.javaSplit(field, UInt8(ascii: "="))
            guard parts.count > 1 else { continue }
            try charge(ResponseTemplate.valueCost * 2, at: "formData") // a field split into three Strings and kept: 1.4 µs
            var fieldValue = Self.javaTrimmed(parts[1])
            if decode {
                guard let decoded = FormEncoding.decode(fieldValue) else {
                    throw .value("{{formData urlDecode=true}}: '\(fieldValue.prefix(40))' has a % not followed by two hex digits")
                }
                fieldValue = decoded
            }
            if let position = positions[parts[0]] {
                entries[position].values.append(fieldValue)
            } else {
                positions[parts[0]] = entries.count
                entries.append((parts[0], [fieldValue]))
            }
        }
        let map = Value.map(entries.map { ($0.key, Value.multi($0.values)) })
        guard arguments.count > 1 else { return map }
        variables[Self.scalarText(of: arguments[1])] = map
        return .null
    }
}
