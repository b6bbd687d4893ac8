import AutomationSupport

// MARK: - Reading the date helpers' options (at load for literals, when answering for request values)

extension ResponseTemplate {
    /// What Java's TimeZone gives for a name it does not know.
    static let gmt = (try? TimeZoneRules.zoneID("GMT").get()) ?? .utc

    /// WireMock's DateTimeOffset: `'3 days'`, `'-24 seconds'`, `'now +5 years'`; an amount Java's `int` holds.
    struct DateOffset {
        enum Unit: String, CaseIterable {
            case seconds = "SECONDS"
            case minutes = "MINUTES"
            case hours = "HOURS"
            case days = "DAYS"
            case months = "MONTHS"
            case years = "YEARS"
        }

        var amount: Int
        var unit: Unit

        /// `milliseconds` shifted (months and years as ZonedDateTime adds them in UTC: 31 January + 1 month is
        /// 28 February); nil out of ``CivilCalendar/range``.
        func applied(to milliseconds: Int) -> Int? {
            let result: Int?
            switch unit {
            case .seconds: result = milliseconds + amount * 1000
            case .minutes: result = milliseconds + amount * 60_000
            case .hours: result = milliseconds + amount * 3_600_000
            case .days: result = milliseconds + amount * 86_400_000
            case .months: result = CivilCalendar.adding(months: amount, to: milliseconds)
            case .years: result = CivilCalendar.adding(months: amount * 12, to: milliseconds)
            }
            return result.flatMap { CivilCalendar.range.contains($0) ? $0 : nil }
        }
    }

    /// `offset=`: nil for `now` (no shift).
    static func dateOffset(_ text: String, at helper: String) throws(RenderError) -> DateOffset? {
        if text.lowercased() == "now" { return nil }
        let parts = FormEncoding.javaSplit(text, UInt8(ascii: " "))
        let units = DateOffset.Unit.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")
        let problem =
            "write an amount and a unit like '3 days' or '-2 hours' (units: \(units); the amount a whole number within Java's int)"
        guard parts.count == 2 || parts.count == 3 else {
            throw .value("{{\(helper) offset='\(text.prefix(40))'}} is not supported; \(problem)")
        }
        var amountText = parts[parts.count - 2]
        if amountText.hasPrefix("+") { amountText.removeFirst() }
        guard let amount = BoundedNumber.integer(amountText, in: Int(Int32.min)...Int(Int32.max)),
            let unit = DateOffset.Unit(rawValue: parts[parts.count - 1].uppercased())
        else { throw .value("{{\(helper) offset='\(text.prefix(40))'}} is not supported; \(problem)") }
        return DateOffset(amount: amount, unit: unit)
    }

    /// `timezone=`: a zone ID as Java's `ZoneId.of` reads it.
    static func zone(_ id: String, at helper: String) throws(RenderError) -> TimeZoneRules {
        switch TimeZoneRules.zoneID(id) {
        case .success(let zone): return zone
        case .failure(let failure):
            throw .value("{{\(helper) timezone='\(id.prefix(60))'}}: \(failure.description) (WireMock fails this answer too)")
        }
    }

    /// `now`/`date` `format=`: nil for `epoch` and `unix`, else a SimpleDateFormat pattern.
    static func simplePattern(_ format: String, at helper: String) throws(RenderError) -> JavaDatePattern? {
        if format == "epoch" || format == "unix" { return nil }
        do {
            return try JavaDatePattern(format, dialect: .simpleDateFormat)
        } catch {
            throw .value("{{\(helper) format=…}}: \(error.description)")
        }
    }

    /// `parseDate format=`: a DateTimeFormatter pattern.
    static func modernPattern(_ format: String, at helper: String) throws(RenderError) -> JavaDatePattern {
        do {
            return try JavaDatePattern(format, dialect: .dateTimeFormatter)
        } catch {
            throw .value("{{\(helper) format=…}}: \(error.description)")
        }
    }

    /// The patterns of Java's English date styles (JDK 17, CLDR), and of its time styles but `full` (long zone names).
    static let dateStyles = ["full": "EEEE, MMMM d, y", "long": "MMMM d, y", "medium": "MMM d, y", "short": "M/d/yy"]
    static let timeStyles = ["long": "h:mm:ss a z", "medium": "h:mm:ss a", "short": "h:mm a"]

    /// `dateFormat`'s pattern: a style (with `time=` a time style) or a DateTimeFormatter pattern.
    static func dateFormatPattern(_ format: String, time: String?) throws(RenderError) -> JavaDatePattern {
        guard let date = dateStyles[format] else { return try modernPattern(format, at: "dateFormat") }
        guard let time else { return try modernPattern(date, at: "dateFormat") }
        guard let timePattern = timeStyles[time] else {
            throw .value("{{dateFormat time='\(time.prefix(40))'}} is not supported; time styles: long, medium, short")
        }
        let joined = format == "full" || format == "long" ? date + " 'at' " + timePattern : date + ", " + timePattern
        return try modernPattern(joined, at: "dateFormat")
    }

    /// `dateFormat locale=`: English only (what Java prints in `en_US`); others are refused, not printed in English.
    static func checkLocale(_ locale: String) throws(RenderError) {
        guard ["", "en", "en_US", "en-US", "en_GB", "en-GB"].contains(locale) else {
            throw .value("{{dateFormat locale='\(locale.prefix(40))'}} is not supported; dates print in English (en_US)")
        }
    }

    /// WireMock's DateTimeTruncation, named as `first day of month` or `FIRST_DAY_OF_MONTH`.
    enum Truncation: String, CaseIterable {
        case firstSecondOfMinute = "FIRST_SECOND_OF_MINUTE"
        case firstMinuteOfHour = "FIRST_MINUTE_OF_HOUR"
        case firstHourOfDay = "FIRST_HOUR_OF_DAY"
        case firstDayOfMonth = "FIRST_DAY_OF_MONTH"
        case firstDayOfNextMonth = "FIRST_DAY_OF_NEXT_MONTH"
        case lastDayOfMonth = "LAST_DAY_OF_MONTH"
        case firstDayOfYear = "FIRST_DAY_OF_YEAR"
        case firstDayOfNextYear = "FIRST_DAY_OF_NEXT_YEAR"
        case lastDayOfYear = "LAST_DAY_OF_YEAR"
    }

    static func truncation(_ text: String) throws(RenderError) -> Truncation {
        guard let truncation = Truncation(rawValue: String(text.uppercased().map { $0 == " " ? "_" : $0 })) else {
            let names = Truncation.allCases.map { String($0.rawValue.lowercased().map { $0 == "_" ? " " : $0 }) }
            throw .value("{{truncateDate … '\(text.prefix(40))'}} is not supported; write one of: \(names.joined(separator: ", "))")
        }
        return truncation
    }

    /// The instant `truncation` makes of `milliseconds`, in `zone`'s local time (as ZonedDateTime truncates).
    static func truncate(_ milliseconds: Int, _ truncation: Truncation, in zone: TimeZoneRules) -> Int? {
        let offset = zone.offset(atUTC: milliseconds)
        let fields = CivilCalendar.fields(milliseconds: milliseconds, offsetSeconds: offset, julianBeforeCutover: false)
        let local = milliseconds + offset * 1000
        let day = CivilCalendar.floorDivide(local, 86_400_000) * 86_400_000
        let truncated: Int?
        switch truncation {
        case .firstSecondOfMinute: truncated = CivilCalendar.floorDivide(local, 60_000) * 60_000
        case .firstMinuteOfHour: truncated = CivilCalendar.floorDivide(local, 3_600_000) * 3_600_000
        case .firstHourOfDay: truncated = day
        case .firstDayOfMonth: truncated = CivilCalendar.milliseconds(year: fields.year, month: fields.month, day: 1)
        case .firstDayOfNextMonth:
            truncated = CivilCalendar.milliseconds(year: fields.year, month: fields.month, day: 1).flatMap {
                CivilCalendar.adding(months: 1, to: $0)
            }
        case .lastDayOfMonth:
            truncated = CivilCalendar.milliseconds(
                year: fields.year, month: fields.month, day: CivilCalendar.daysIn(month: fields.month, year: fields.year))
        case .firstDayOfYear: truncated = CivilCalendar.milliseconds(year: fields.year, month: 1, day: 1)
        case .firstDayOfNextYear: truncated = CivilCalendar.milliseconds(year: fields.year + 1, month: 1, day: 1)
        case .lastDayOfYear: truncated = CivilCalendar.milliseconds(year: fields.year, month: 12, day: 31)
        }
        return truncated.map { $0 - zone.offset(atLocal: $0) * 1000 }
    }
}
