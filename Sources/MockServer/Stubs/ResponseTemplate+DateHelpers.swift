import AutomationSupport

// MARK: - Date helpers: now, date, parseDate, dateFormat, truncateDate (WireMock 2.35's RenderableDate, Handlebars'
// dateFormat), on CivilCalendar, TimeZoneRules and JavaDatePattern (AutomationSupport/Time)

extension ResponseTemplate.Renderer {
    /// A date helper's value, or nil when `helper` is not one.
    mutating func dateHelper(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value? {
        switch helper {
        case "now": return .date(try renderableDate(nil, options, at: helper))
        case "date":
            // A value that is not a date is now, as WireMock's `date` reads it.
            if case .date(let date)? = arguments.first { return .date(try renderableDate(date, options, at: helper)) }
            return .date(try renderableDate(nil, options, at: helper))
        case "parseDate": return try parseDate(arguments.first ?? .null, options)
        case "dateFormat": return try dateFormat(arguments, options)
        case "truncateDate":
            guard arguments.count > 1 else {
                return .string("[ERROR: Truncation type must be specified as the first parameter to truncateDate]")
            }
            guard case .date(let date) = arguments[0] else {
                return .string("[ERROR: A date object must be passed to the truncateDate helper]")
            }
            let truncation = try ResponseTemplate.truncation(try text(arguments[1], at: helper))
            try charge(ResponseTemplate.dateCost, at: helper)
            guard let milliseconds = ResponseTemplate.truncate(date.milliseconds, truncation, in: date.zone ?? .utc) else {
                throw .value("{{truncateDate}}: the date would be out of the range handled (years -271821 to 275760)")
            }
            return .date(ResponseTemplate.TemplateDate(milliseconds: milliseconds, zone: date.zone))
        default: return nil
        }
    }

    /// `now`/`date` with `offset=`, `timezone=` and `format=`. A date given keeps its zone (WireMock ignores
    /// `timezone=` for one).
    private mutating func renderableDate(_ given: ResponseTemplate.TemplateDate?, _ options: [String: Value], at helper: String)
        throws(RenderError) -> ResponseTemplate.TemplateDate
    {
        let format = try options["format"].map { value throws(RenderError) in try text(value, at: helper) }
        let offset = try options["offset"].map { value throws(RenderError) in try text(value, at: helper) }
        try charge(ResponseTemplate.dateCost + (format?.utf8.count ?? 0) * 4 + (offset?.utf8.count ?? 0), at: helper)
        var date = given ?? ResponseTemplate.TemplateDate(milliseconds: Int(WallClock.milliseconds().rounded(.down)))
        if given == nil, let timezone = options["timezone"] {
            date.zone = try ResponseTemplate.zone(try text(timezone, at: helper), at: helper)
        }
        if let offset, let shift = try ResponseTemplate.dateOffset(offset, at: helper) {
            guard let shifted = shift.applied(to: date.milliseconds) else {
                throw .value(
                    "{{\(helper) offset='\(offset.prefix(40))'}}: the date would be out of the range handled (years -271821 to 275760)")
            }
            date.milliseconds = shifted
        }
        date.format = format
        date.pattern = try format.flatMap { text throws(RenderError) in try ResponseTemplate.simplePattern(text, at: helper) }
        return date
    }

    /// `parseDate text` (WireMock's default formats), `parseDate text format='dd/MM/yyyy'` (a DateTimeFormatter
    /// pattern), `format='epoch'`/`'unix'`; nothing when the text is not a date in it.
    private mutating func parseDate(_ value: Value, _ options: [String: Value]) throws(RenderError) -> Value {
        if case .null = value { throw .value("{{parseDate}}: the value is missing (WireMock fails this answer too)") }
        let text = try self.text(value, at: "parseDate")
        let format = try options["format"].map { value throws(RenderError) in try self.text(value, at: "parseDate") }
        try charge(ResponseTemplate.dateCost + text.utf8.count * 8 + (format?.utf8.count ?? 0) * 4, at: "parseDate")
        if let format, format.lowercased() == "epoch" || format.lowercased() == "unix" {
            let number = text.hasPrefix("+") ? String(text.dropFirst()) : text
            let unit = format.lowercased() == "unix" ? 1000 : 1
            guard
                let count = BoundedNumber.integer(
                    number, in: (CivilCalendar.range.lowerBound / unit)...(CivilCalendar.range.upperBound / unit))
            else {
                throw .value(
                    "{{parseDate format='\(format)'}}: '\(text.prefix(40))' is not a whole number of \(unit == 1 ? "milliseconds" : "seconds") within the range handled"
                )
            }
            return .date(ResponseTemplate.TemplateDate(milliseconds: count * unit))
        }
        let parsed: (milliseconds: Int, zone: TimeZoneRules?)?
        if let format {
            parsed = try ResponseTemplate.modernPattern(format, at: "parseDate").instant(of: text)
        } else {
            parsed = JavaDatePattern.instantInDefaultFormats(text)
        }
        guard let parsed else { return .null }
        return .date(ResponseTemplate.TemplateDate(milliseconds: parsed.milliseconds, zone: parsed.zone))
    }

    /// Handlebars' `dateFormat date 'pattern'` (or `format=`; `full`, `long`, `medium` (the default), `short`, with
    /// `time=` a style too), `tz=` (Java's TimeZone: an unknown name is GMT), in English; a falsy value prints the
    /// pattern, as Handlebars' string helpers do.
    private mutating func dateFormat(_ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value {
        let first = arguments.first ?? .null
        guard Self.isTruthy(first) else { return arguments.count > 1 ? .string(try text(arguments[1], at: "dateFormat")) : .null }
        guard case .date(let date) = first else {
            throw .value(
                "{{dateFormat}}: '\(try text(first, at: "dateFormat").prefix(40))' is not a date (parse it first: (parseDate …); WireMock fails this answer too)"
            )
        }
        let format = try (arguments.count > 1 ? arguments[1] : options["format"]).map { value throws(RenderError) in
            try text(value, at: "dateFormat")
        }
        let time = try options["time"].map { value throws(RenderError) in try text(value, at: "dateFormat") }
        if let locale = arguments.count > 2 ? arguments[2] : options["locale"] {
            try ResponseTemplate.checkLocale(try text(locale, at: "dateFormat"))
        }
        let zone = try options["tz"].map { value throws(RenderError) in
            TimeZoneRules.javaTimeZone(try text(value, at: "dateFormat")) ?? ResponseTemplate.gmt
        }
        try charge(ResponseTemplate.dateCost + (format?.utf8.count ?? 0) * 4, at: "dateFormat")
        let pattern = try ResponseTemplate.dateFormatPattern(format ?? "medium", time: time)
        return .string(ResponseTemplate.TemplateDate.format(date.milliseconds, pattern, zone: zone ?? .utc, julian: false))
    }
}

extension ResponseTemplate.TemplateDate {
    /// WireMock's RenderableDate.toString: `epoch` milliseconds, `unix` seconds (toward zero, as Java divides), a
    /// SimpleDateFormat pattern, or Jackson's ISO 8601 (`2021-11-10T10:15:30Z`, `…+11:00` in a zone with an
    /// offset), both in GregorianCalendar's dates (Julian before 1582-10-15) and the date's zone (UTC when none).
    var text: String {
        switch format {
        case "epoch": return String(milliseconds)
        case "unix": return String(milliseconds / 1000)
        default:
            if let pattern { return Self.format(milliseconds, pattern, zone: zone ?? .utc, julian: true) }
            let offset = zone?.offset(atUTC: milliseconds) ?? 0
            let fields = CivilCalendar.fields(milliseconds: milliseconds, offsetSeconds: offset, julianBeforeCutover: true)
            let year = fields.year > 0 ? fields.year : 1 - fields.year
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            var text = (year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "") + String(year)
            text += "-\(two(fields.month))-\(two(fields.day))T\(two(fields.hour)):\(two(fields.minute)):\(two(fields.second))"
            guard offset != 0 else { return text + "Z" }
            let minutes = abs(offset) / 60
            return text + (offset < 0 ? "-" : "+") + "\(two(minutes / 60)):\(two(minutes % 60))"
        }
    }

    /// `milliseconds` in `pattern`, seen in `zone`; Julian dates before the cutover for SimpleDateFormat.
    static func format(_ milliseconds: Int, _ pattern: JavaDatePattern, zone: TimeZoneRules, julian: Bool) -> String {
        let offset = zone.offset(atUTC: milliseconds)
        let fields = CivilCalendar.fields(milliseconds: milliseconds, offsetSeconds: offset, julianBeforeCutover: julian)
        return pattern.format(fields, zoneName: zone.abbreviation(atUTC: milliseconds), zoneID: zone.identifier)
    }
}
