import AutomationSupport

/// WireMock's date matchers, `before`, `after` and `equalToDateTime`, as WireMock 2.35 compares (its
/// `AbstractDateTimePattern`), with `applyTruncationLast` from WireMock 3.10.
///
/// The expected value is a fixed date-time (zoned, `2021-06-14T12:13:14Z`, or local, `2021-06-14T12:13:14`) or `now`
/// (truncated by `truncateExpected`, then moved by the offset; the other way round with `applyTruncationLast`). The
/// actual value is read zoned and local (with `actualFormat`: `unix`, `epoch` or a Java pattern); `truncateActual`
/// truncates the zoned reading. Zoned against zoned compares instants; local against local, fields; a local
/// expectation reads a zoned value's own fields; a zoned one reads a local value at UTC. A value read neither way,
/// or a missing one, does not match.
struct DateMatcher: Sendable {
    enum Comparison: String, Sendable {
        case before, after, equalToDateTime

        var phrase: String {
            switch self {
            case .before: "a date-time before"
            case .after: "a date-time after"
            case .equalToDateTime: "a date-time equal to"
            }
        }
    }

    /// `now`, moved and truncated.
    struct Now: Sendable {
        var amount: Int32 = 0
        var unit: DateTimeUnit = .seconds
        var truncation: DateTimeTruncation?
        var truncationLast = false

        /// The expected value for the clock reading `now`; nil when it leaves Java's range of years.
        func value(at now: DateTimeValue) -> DateTimeValue? {
            if truncationLast {
                return now.plus(amount, unit).flatMap { shifted in truncation.map { shifted.truncated($0) } ?? shifted }
            }
            return (truncation.map { now.truncated($0) } ?? now).flatMap { $0.plus(amount, unit) }
        }

        var description: String {
            let offset = amount == 0 ? "" : " \(amount > 0 ? "+" : "")\(amount) \(unit.rawValue)"
            let truncated = truncation.map { " truncated to the \($0.rawValue)" } ?? ""
            return "now" + (truncationLast ? offset + truncated : truncated + offset)
        }
    }

    enum Expected: Sendable {
        /// Zoned when it has an offset, else local.
        case fixed(DateTimeValue)
        case now(Now)
    }

    enum ActualFormat: Sendable {
        /// Whole seconds since 1970.
        case unix
        /// Milliseconds since 1970.
        case epoch
        case pattern(JavaDateFormat)

        var description: String {
            switch self {
            case .unix: "unix"
            case .epoch: "epoch"
            case .pattern(let format): format.source
            }
        }
    }

    var comparison: Comparison
    /// The expected value as the mapping writes it.
    var written: String
    var expected: Expected
    var actualFormat: ActualFormat?
    var truncateActual: DateTimeTruncation?

    /// Whether the (possibly missing) value matches, with the clock reading `now`.
    func matches(_ value: String?, now: @autoclosure () -> DateTimeValue = .now()) -> Bool { result(value, now: now()).matched }

    /// Whether the value matches, and WireMock's distance to it (its `AbstractDateTimeMatchResult`): the whole years
    /// between expected and actual over 100, at most 1, matching or not; 1 when the value is not read, and when a local
    /// value meets a zoned expectation (WireMock measures that pair as 1, though it may match).
    /// The clock is read only for a `now` expectation.
    func result(_ value: String?, now: @autoclosure () -> DateTimeValue = .now()) -> (matched: Bool, distance: Double) {
        guard let value, let expected = expectedValue(now: now()) else { return (false, 1) }
        // The common case reads the value once: a zoned value against a zoned expectation needs no local reading.
        if actualFormat == nil, truncateActual == nil, expected.offset != nil, let zoned = DateTimeValue.zoned(value) {
            return (holds(zoned, expected), Self.distance(expected, zoned))
        }
        var (zoned, local) = read(value)
        if let truncateActual {
            // WireMock 2.35 answers 500 here when the value has no zoned reading (a NullPointerException): no match.
            zoned = zoned?.truncated(truncateActual)
            if zoned == nil { return (false, 1) }
        }
        if expected.offset != nil {
            if let zoned { return (holds(zoned, expected), Self.distance(expected, zoned)) }
            if let local { return (holds(local.atUTC, expected), 1) }
        } else {
            if let actual = local ?? zoned?.local { return (holds(actual, expected), Self.distance(expected, actual)) }
        }
        return (false, 1)
    }

    private func holds(_ actual: DateTimeValue, _ expected: DateTimeValue) -> Bool {
        switch comparison {
        case .before: actual < expected
        case .after: expected < actual
        case .equalToDateTime: DateTimeValue.isSameInstant(actual, expected)
        }
    }

    private static func distance(_ expected: DateTimeValue, _ actual: DateTimeValue) -> Double {
        min(Double(abs(expected.yearsUntil(actual))) / 100, 1)
    }

    func expectedValue(now: @autoclosure () -> DateTimeValue) -> DateTimeValue? {
        switch expected {
        case .fixed(let value): value
        case .now(let rule): rule.value(at: now())
        }
    }

    /// The value read zoned and local, as WireMock's `parseZonedOrNull` and `parseLocalOrNull` read it.
    func read(_ value: String) -> (zoned: DateTimeValue?, local: DateTimeValue?) {
        switch actualFormat {
        case nil: return (DateTimeValue.zoned(value), DateTimeValue.local(value))
        case .pattern(let format): return format.parse(value)
        case .unix, .epoch:
            // Java's Long.parseLong: a sign, then ASCII digits; seconds times 1000 must stay a 64-bit number.
            guard let number = Int(value) else { return (nil, nil) }
            var milliseconds = number
            if case .unix = actualFormat {
                let (product, overflow) = number.multipliedReportingOverflow(by: 1000)
                guard !overflow else { return (nil, nil) }
                milliseconds = product
            }
            let instant = DateTimeValue(epochMilliseconds: milliseconds)
            return (instant, instant?.local)
        }
    }

    /// How it reads in a near miss: `a date-time before now +3 days (2026-11-30T09:00:00Z)`.
    var description: String {
        var text = "\(comparison.phrase) "
        switch expected {
        case .fixed: text += written
        case .now(let rule): text += rule.description + (rule.value(at: .now()).map { " (\($0.description))" } ?? "")
        }
        if let actualFormat { text += ", read as \(actualFormat.description)" }
        if let truncateActual { text += ", truncated to the \(truncateActual.rawValue)" }
        return text
    }
}
