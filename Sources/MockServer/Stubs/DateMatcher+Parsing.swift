import AutomationSupport

extension DateMatcher {
    static let operators = ["before", "after", "equalToDateTime"]
    static let modifiers = [
        "actualFormat", "truncateExpected", "truncateActual", "expectedOffset", "expectedOffsetUnit", "applyTruncationLast",
    ]
    static let example = "a date-time like \"2021-06-14T12:13:14Z\", \"2021-06-14\", \"now\" or \"now +3 days\""

    /// Reads `{"before": "now +3 days", "truncateExpected": "first day of month", …}` as WireMock 2.35 does, and refuses
    /// by name what WireMock would read and never use (a date it cannot read, which never matches there; an offset or
    /// a truncation beside a fixed date, or an offset without its unit, which it ignores) and what it refuses.
    /// - Parameter now: the clock, to refuse offsets that put "now" outside Java's years (WireMock answers 500 then).
    static func parse(_ name: String, _ reader: ObjectReader, what: String, now: DateTimeValue = .now()) throws(StubError) -> DateMatcher {
        let node = reader[name]!
        guard let written = node.string else { throw reader.typeError(name, node, example) }
        let truncateExpected = try truncation("truncateExpected", reader, what)
        let truncateActual = try truncation("truncateActual", reader, what)
        let actualFormat = try format(reader, what)
        let amount = try reader.int("expectedOffset", in: Int(Int32.min)...Int(Int32.max))
        var unit: DateTimeUnit?
        if let unitName = try reader.string("expectedOffsetUnit") {
            guard let parsed = DateTimeUnit(wireMockName: unitName) else {
                throw reader.error("expectedOffsetUnit", "\(what): \(unitProblem(unitName))")
            }
            unit = parsed
        }
        if (amount == nil) != (unit == nil) {
            let given = amount == nil ? "expectedOffsetUnit" : "expectedOffset"
            throw reader.error(
                given,
                "\(what): \"\(given)\" needs \"\(amount == nil ? "expectedOffset" : "expectedOffsetUnit")\" beside it (WireMock ignores one alone)"
            )
        }
        let last = try reader.bool("applyTruncationLast") ?? false
        var matcher = DateMatcher(
            comparison: Comparison(rawValue: name)!, written: written, expected: .now(Now()), actualFormat: actualFormat,
            truncateActual: truncateActual)
        if isNowExpression(written) {
            var rule = try nowRule(written) { problem throws(StubError) in throw reader.error(name, "\(what): \(problem)") }
            if let amount, let unit { (rule.amount, rule.unit) = (Int32(amount), unit) } // the explicit offset wins, as in WireMock
            (rule.truncation, rule.truncationLast) = (truncateExpected, last)
            guard rule.value(at: now) != nil else {
                throw reader.error(name, "\(what): \(rule.description) is outside the years -999999999 to 999999999")
            }
            matcher.expected = .now(rule)
            return matcher
        }
        guard let value = DateTimeValue.zoned(written) ?? DateTimeValue.local(written) else {
            throw reader.error(name, "\(what): \"\(written.prefix(80))\" is not \(example)")
        }
        for key in ["truncateExpected", "expectedOffset", "applyTruncationLast"] where reader[key] != nil {
            throw reader.error(
                key, "\(what): \"\(key)\" applies to \"now\"; beside the fixed date-time \"\(written.prefix(80))\" WireMock ignores it")
        }
        matcher.expected = .fixed(value)
        return matcher
    }

    /// WireMock's test: `now` in any case, or, with every `now ` taken out (any case), an amount and a unit.
    static func isNowExpression(_ text: String) -> Bool {
        if text.lowercased() == "now" { return true }
        var bytes = Array(removingNow(text).utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let digits = bytes.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, bytes.dropFirst(digits.count).first == UInt8(ascii: " ") else { return false }
        let letters = bytes.dropFirst(digits.count + 1)
        return !letters.isEmpty && letters.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Java's `replaceAll("(?i)now ", "")`: every `now ` (ASCII letters in any case) taken out, left to right.
    private static func removingNow(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + 4 <= bytes.count, bytes[index] | 0x20 == 0x6E, bytes[index + 1] | 0x20 == 0x6F, bytes[index + 2] | 0x20 == 0x77,
                bytes[index + 3] == 0x20
            {
                index += 4
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `now`, `now +3 days`, `-3 days` as WireMock's `DateTimeOffset.fromString` reads them: split at single spaces,
    /// two or three words, the amount a 32-bit integer, the unit one of seconds … years.
    static func nowRule(_ text: String, refuse: (String) throws(StubError) -> Never) throws(StubError) -> Now {
        if text.lowercased() == "now" { return Now() }
        var words = text.split(separator: " ", omittingEmptySubsequences: false)
        while words.last?.isEmpty == true { words.removeLast() } // Java's split drops trailing empty strings
        guard words.count == 2 || words.count == 3 else {
            try refuse(
                "\"\(text.prefix(80))\" is not an offset: write an amount and a unit (\"8 seconds\") or \"now\" and one (\"now +5 years\")")
        }
        let (amountText, unitText) = (String(words[words.count - 2]), String(words[words.count - 1]))
        guard let amount = Int32(amountText) else {
            try refuse("the offset amount \"\(amountText.prefix(40))\" is not a whole number from -2147483648 to 2147483647")
        }
        guard let unit = DateTimeUnit(wireMockName: unitText) else { try refuse(unitProblem(unitText)) }
        return Now(amount: amount, unit: unit)
    }

    private static func unitProblem(_ unit: String) -> String {
        let names = DateTimeUnit.allCases.map(\.rawValue)
        return
            "\"\(unit.prefix(40))\" is not a unit\(Suggestion.didYouMean(unit.lowercased(), among: names, otherwise: "")); units: \(names.joined(separator: ", "))"
    }

    private static func truncation(_ key: String, _ reader: ObjectReader, _ what: String) throws(StubError) -> DateTimeTruncation? {
        guard let name = try reader.string(key) else { return nil }
        guard let truncation = DateTimeTruncation(wireMockName: name) else {
            let names = DateTimeTruncation.allCases.map(\.rawValue)
            throw reader.error(
                key,
                "\(what): \"\(name.prefix(60))\" is not a truncation\(Suggestion.didYouMean(name.lowercased(), among: names, otherwise: "")); truncations: \(names.joined(separator: ", "))"
            )
        }
        return truncation
    }

    private static func format(_ reader: ObjectReader, _ what: String) throws(StubError) -> ActualFormat? {
        guard let text = try reader.string("actualFormat") else { return nil }
        switch text.lowercased() {
        case "unix": return .unix
        case "epoch": return .epoch
        default:
            do { return .pattern(try JavaDateFormat(text)) } catch {
                throw reader.error("actualFormat", "\(what): actualFormat \"\(text.prefix(80))\": \(error)")
            }
        }
    }
}
