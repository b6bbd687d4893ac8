/// A date and time as WireMock's date matchers read them (Java's `ZonedDateTime` and `LocalDateTime`): the fields
/// as written (a proleptic Gregorian date and a time to the nanosecond) and, when one was written, the offset from
/// UTC. Years run from -999,999,999 to 999,999,999, Java's range; every value is built through ``init(day:nanosecond:offset:)``
/// or the checked operations below, which answer nil outside it, so no input reaches an arithmetic trap.
package struct DateTimeValue: Sendable, Hashable {
    /// Days since 1970-01-01 of the date as written.
    package private(set) var day: Int
    /// Nanoseconds since the start of that day: 0 to 86,399,999,999,999.
    package private(set) var nanosecond: Int
    /// Seconds east of UTC (±18 hours); nil for a local date-time, one written without an offset.
    package private(set) var offset: Int?

    package static let years = -999_999_999...999_999_999
    package static let nanosecondsPerDay = 86_400 * 1_000_000_000
    /// The days of ``years``: 0001-01-01 less ~1e9 years to 999999999-12-31.
    package static let days = WallClock.days(fromCivil: years.lowerBound, 1, 1)...WallClock.days(fromCivil: years.upperBound, 12, 31)

    package init?(day: Int, nanosecond: Int, offset: Int?) {
        guard Self.days.contains(day), (0..<Self.nanosecondsPerDay).contains(nanosecond) else { return nil }
        if let offset, abs(offset) > 18 * 3600 { return nil }
        self.day = day
        self.nanosecond = nanosecond
        self.offset = offset
    }

    /// A date and time from its fields, each checked in its range (strictly: February 30 is nil, as is 24:00).
    package init?(
        year: Int, month: Int, dayOfMonth: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nano: Int = 0, offset: Int? = nil
    ) {
        guard Self.years.contains(year), (1...12).contains(month), (1...WallClock.daysIn(month: month, year: year)).contains(dayOfMonth),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second), (0...999_999_999).contains(nano)
        else { return nil }
        let seconds = hour * 3600 + minute * 60 + second
        self.init(day: WallClock.days(fromCivil: year, month, dayOfMonth), nanosecond: seconds * 1_000_000_000 + nano, offset: offset)
    }

    /// The instant of a number of milliseconds since 1970 (WireMock's `epoch`), in UTC; nil beyond ``years``.
    package init?(epochMilliseconds milliseconds: Int) {
        let (day, inDay) = Self.floorDivision(milliseconds, 86_400_000)
        self.init(day: day, nanosecond: inDay * 1_000_000, offset: 0)
    }

    /// The wall clock now, in UTC (WireMock takes the JVM's zone; sut-launch takes UTC, which CI machines run in).
    package static func now(milliseconds: Double = WallClock.milliseconds()) -> DateTimeValue {
        let clamped = milliseconds.isFinite ? min(max(milliseconds, WallClock.range.lowerBound), WallClock.range.upperBound) : 0
        let whole = Int(clamped.rounded(.down))
        let (day, inDay) = floorDivision(whole, 86_400_000)
        let micro = Int(((clamped - Double(whole)) * 1000).rounded(.down))
        return DateTimeValue(day: day, nanosecond: inDay * 1_000_000 + min(max(micro, 0), 999) * 1000, offset: 0)!
    }

    package var date: (year: Int, month: Int, day: Int) { WallClock.civil(fromDays: day) }

    /// The same instant's local fields without the offset (Java's `toLocalDateTime()`).
    package var local: DateTimeValue { DateTimeValue(day: day, nanosecond: nanosecond, offset: nil)! }

    /// A local date-time read at UTC (Java's `atZone(systemDefault())`, with UTC as the zone).
    package var atUTC: DateTimeValue { offset == nil ? DateTimeValue(day: day, nanosecond: nanosecond, offset: 0)! : self }

    /// Seconds since 1970 in UTC and the nanosecond, for comparing instants (a local value compares its fields).
    package var instant: (seconds: Int, nano: Int) {
        (day * 86_400 + nanosecond / 1_000_000_000 - (offset ?? 0), nanosecond % 1_000_000_000)
    }

    /// The same instant at another offset (a fixed-offset zone such as `[UTC]` after `+02:00`).
    package func at(offset newOffset: Int) -> DateTimeValue? {
        guard let offset else { return nil }
        return shifted(seconds: newOffset - offset).flatMap { DateTimeValue(day: $0.day, nanosecond: $0.nanosecond, offset: newOffset) }
    }

    package static func < (lhs: DateTimeValue, rhs: DateTimeValue) -> Bool {
        let (a, b) = (lhs.instant, rhs.instant)
        return a.seconds != b.seconds ? a.seconds < b.seconds : a.nano < b.nano
    }

    package static func isSameInstant(_ lhs: DateTimeValue, _ rhs: DateTimeValue) -> Bool { lhs.instant == rhs.instant }

    // MARK: - Checked calendar arithmetic (Java's ZonedDateTime.plus and TemporalAdjusters)

    /// This value moved by `amount` units, as Java's `plus(amount, unit)`: seconds to hours move the time (days
    /// roll over), days move the date, months and years move the date and keep the day when the month has it (else
    /// its last day: January 31 + 1 month is February 28). nil when the result leaves ``years``.
    package func plus(_ amount: Int32, _ unit: DateTimeUnit) -> DateTimeValue? {
        let amount = Int(amount) // ±2^31: every product below stays far inside Int64
        switch unit {
        case .seconds: return shifted(seconds: amount)
        case .minutes: return shifted(seconds: amount * 60)
        case .hours: return shifted(seconds: amount * 3600)
        case .days: return DateTimeValue(day: day + amount, nanosecond: nanosecond, offset: offset)
        case .months, .years:
            let (year, month, dayOfMonth) = date
            let months = year * 12 + (month - 1) + (unit == .months ? amount : amount * 12)
            let (newYear, monthIndex) = Self.floorDivision(months, 12)
            guard Self.years.contains(newYear) else { return nil }
            let newDay = min(dayOfMonth, WallClock.daysIn(month: monthIndex + 1, year: newYear))
            return DateTimeValue(
                day: WallClock.days(fromCivil: newYear, monthIndex + 1, newDay), nanosecond: nanosecond, offset: offset)
        }
    }

    private func shifted(seconds: Int) -> DateTimeValue? {
        // |seconds| ≤ 2^31 × 3600 + 18 h and |day| ≤ 4e11: the sums fit in Int64 with room to spare.
        let (days, secondOfDay) = Self.floorDivision(nanosecond / 1_000_000_000 + seconds, 86_400)
        return DateTimeValue(
            day: day + days, nanosecond: secondOfDay * 1_000_000_000 + nanosecond % 1_000_000_000, offset: offset)
    }

    /// This value truncated as WireMock's `truncateExpected`/`truncateActual` does, in its own offset's fields.
    package func truncated(_ truncation: DateTimeTruncation) -> DateTimeValue? {
        let (year, month, _) = date
        let startOfDay = { (y: Int, m: Int, d: Int) -> DateTimeValue? in
            guard Self.years.contains(y) else { return nil }
            return DateTimeValue(day: WallClock.days(fromCivil: y, m, d), nanosecond: 0, offset: self.offset)
        }
        switch truncation {
        case .firstSecondOfMinute: return DateTimeValue(day: day, nanosecond: nanosecond - nanosecond % 60_000_000_000, offset: offset)
        case .firstMinuteOfHour: return DateTimeValue(day: day, nanosecond: nanosecond - nanosecond % 3_600_000_000_000, offset: offset)
        case .firstHourOfDay: return DateTimeValue(day: day, nanosecond: 0, offset: offset)
        case .firstDayOfMonth: return startOfDay(year, month, 1)
        case .firstDayOfNextMonth: return month == 12 ? startOfDay(year + 1, 1, 1) : startOfDay(year, month + 1, 1)
        case .lastDayOfMonth: return startOfDay(year, month, WallClock.daysIn(month: month, year: year))
        case .firstDayOfYear: return startOfDay(year, 1, 1)
        case .firstDayOfNextYear: return startOfDay(year + 1, 1, 1)
        case .lastDayOfYear: return startOfDay(year, 12, 31)
        }
    }

    /// Whole years from this value to `end`, as Java's `until(end, ChronoUnit.YEARS)` counts them (toward zero; a
    /// zoned value reads `end` at its own offset first).
    package func yearsUntil(_ end: DateTimeValue) -> Int {
        var end = end
        if let offset, end.offset != nil { end = end.at(offset: offset) ?? end }
        var endDay = end.day
        if endDay > day && end.nanosecond < nanosecond {
            endDay -= 1
        } else if endDay < day && end.nanosecond > nanosecond {
            endDay += 1
        }
        let (startYear, startMonth, startDay) = date
        let (endYear, endMonth, endDayOfMonth) = WallClock.civil(fromDays: endDay)
        let start = (startYear * 12 + startMonth - 1) * 32 + startDay
        let finish = (endYear * 12 + endMonth - 1) * 32 + endDayOfMonth
        return (finish - start) / 32 / 12 // Swift's division truncates toward zero, as Java's does
    }

    /// Floor division and its non-negative remainder (`divisor` > 0).
    package static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// ISO 8601 as Java prints it (`2021-06-14T12:13:14Z`, `…+02:00`, a local one without offset), for near misses.
    package var description: String {
        let (year, month, dayOfMonth) = date
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let seconds = nanosecond / 1_000_000_000
        var text = "\(year > 9999 ? "+" : "")\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))"
        text += "T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if nanosecond % 1_000_000_000 != 0 {
            var fraction = pad(nanosecond % 1_000_000_000, 9)
            while fraction.hasSuffix("000") { fraction.removeLast(3) }
            text += "." + fraction
        }
        guard let offset else { return text }
        if offset == 0 { return text + "Z" }
        return text + (offset < 0 ? "-" : "+") + pad(abs(offset) / 3600, 2) + ":" + pad(abs(offset) / 60 % 60, 2)
            + (abs(offset) % 60 == 0 ? "" : ":" + pad(abs(offset) % 60, 2))
    }
}

/// WireMock's `expectedOffsetUnit` (and the unit of `now +3 days`): Java's `DateTimeUnit`.
package enum DateTimeUnit: String, CaseIterable, Sendable {
    case seconds, minutes, hours, days, months, years

    /// Read as WireMock reads it: upper-cased, then one of the names (`days`, `DAYS`, `Days`).
    package init?(wireMockName name: String) {
        guard let unit = Self.allCases.first(where: { $0.rawValue.uppercased() == name.uppercased() }) else { return nil }
        self = unit
    }
}

/// WireMock's `truncateExpected`/`truncateActual` values (Java's `DateTimeTruncation`).
package enum DateTimeTruncation: String, CaseIterable, Sendable {
    case firstSecondOfMinute = "first second of minute"
    case firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day"
    case firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month"
    case lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year"
    case firstDayOfNextYear = "first day of next year"
    case lastDayOfYear = "last day of year"

    /// Read as WireMock reads it: upper-cased, spaces as underscores, then a name (`first day of month`,
    /// `FIRST_DAY_OF_MONTH`, `first_day_of_month`).
    package init?(wireMockName name: String) {
        func key(_ text: String) -> String { String(text.uppercased().map { $0 == " " ? "_" : $0 }) }
        guard let truncation = Self.allCases.first(where: { key($0.rawValue) == key(name) }) else { return nil }
        self = truncation
    }
}
