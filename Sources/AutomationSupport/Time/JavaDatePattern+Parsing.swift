/// Reading dates with a `DateTimeFormatter` pattern (strict, as `DateTimeFormatter.ofPattern` parses) and resolving
/// them as WireMock's `parseDate` does (`ResolverStyle.SMART`): a zone or offset read gives the instant in it; a
/// date and time without one is UTC; a date alone is its first instant; a year and month their first day; a year
/// its first of January. A day of the week must agree with the date. Work is linear in the text.
extension JavaDatePattern {
    /// What a parse read, field by field.
    package struct Parsed: Sendable {
        var era: Int?
        var yearOfEra: Int?
        var year: Int?
        var month: Int?
        var day: Int?
        var dayOfYear: Int?
        var hour: Int?
        var clockHour: Int?
        var hourOfAmPm: Int?
        var pm: Bool?
        var minute: Int?
        var second: Int?
        var nanosecond: Int?
        var weekday: Int?
        var offsetSeconds: Int?
        var zone: TimeZoneRules?
    }

    /// The instant `text` means and the zone it named (nil: none, UTC), or nil when it does not match the pattern
    /// or names no date.
    package func instant(of text: String, caseInsensitive: Bool = false, zone: TimeZoneRules? = nil) -> (
        milliseconds: Int, zone: TimeZoneRules?
    )? {
        guard dialect == .dateTimeFormatter, var parsed = parse(Array(text.utf8), caseInsensitive: caseInsensitive) else { return nil }
        if parsed.zone == nil && parsed.offsetSeconds == nil { parsed.zone = zone }
        return Self.resolve(parsed)
    }

    func parse(_ bytes: [UInt8], caseInsensitive: Bool) -> Parsed? {
        var scanner = PatternTextScanner(bytes: bytes, caseInsensitive: caseInsensitive)
        var parsed = Parsed()
        for (position, token) in tokens.enumerated() {
            switch token {
            case .literal(let literal):
                guard scanner.literal(literal) else { return nil }
            case .field(let letter, let count):
                guard read(letter, count, into: &parsed, &scanner, reserved: reservedWidth(after: position)) else { return nil }
            }
        }
        return scanner.atEnd ? parsed : nil
    }

    /// Digits the fixed-width numeric fields right after token `position` need (Java's adjacent value parsing:
    /// `yyyyMMdd` reads four digits of year).
    private func reservedWidth(after position: Int) -> Int {
        var width = 0
        for token in tokens[(position + 1)...] {
            guard case .field(let letter, let count) = token, let fixed = Self.fixedWidth(letter, count) else { break }
            width += fixed
        }
        return width
    }

    private static func fixedWidth(_ letter: UInt8, _ count: Int) -> Int? {
        switch Character(Unicode.Scalar(letter)) {
        case "S": count
        case "y", "u": count == 2 ? 2 : nil
        case "M", "d", "H", "h", "K", "k", "m", "s": count == 2 ? 2 : nil
        case "D": count == 3 ? 3 : nil
        default: nil
        }
    }

    private func read(_ letter: UInt8, _ count: Int, into parsed: inout Parsed, _ scanner: inout PatternTextScanner, reserved: Int) -> Bool
    {
        let character = Character(Unicode.Scalar(letter))
        switch character {
        case "G":
            guard let era = scanner.choice(count == 4 ? ["Before Christ", "Anno Domini"] : ["BC", "AD"]) else { return false }
            parsed.era = era
        case "M" where count >= 3:
            guard let month = scanner.choice(CivilCalendar.monthNames.map { Self.name($0, count) }) else { return false }
            parsed.month = month + 1
        case "E":
            guard let day = scanner.choice(CivilCalendar.weekdayNames.map { Self.name($0, count) }) else { return false }
            parsed.weekday = day + 1
        case "a":
            guard let half = scanner.choice(["AM", "PM"]) else { return false }
            parsed.pm = half == 1
        case "S":
            guard let digits = scanner.digits(min: count, max: count, reserved: 0) else { return false }
            parsed.nanosecond = digits * Self.powersOfTen[9 - count]
        case "y", "u":
            let signed = character == "u" && count != 2 ? scanner.sign() : 1
            let widths = count == 2 ? (2, 2) : (count == 1 ? 1 : count, 19)
            guard let digits = scanner.digits(min: widths.0, max: widths.1, reserved: reserved), digits <= 999_999_999 else { return false }
            let value = count == 2 ? 2000 + digits : signed * digits
            if character == "y" { parsed.yearOfEra = value } else { parsed.year = value }
        case "Z", "X", "x":
            guard let seconds = scanner.offset(letter: character, count: count) else { return false }
            parsed.offsetSeconds = seconds
        case "V", "z":
            guard let zone = scanner.zone() else { return false }
            parsed.zone = zone
        default:
            let widths = count == 2 ? (2, 2) : (character == "D" && count == 3 ? (3, 3) : (1, 19))
            guard let value = scanner.digits(min: widths.0, max: widths.1, reserved: reserved), value <= 999_999_999 else { return false }
            Self.store(character, value, into: &parsed)
        }
        return true
    }

    private static func store(_ character: Character, _ value: Int, into parsed: inout Parsed) {
        switch character {
        case "M": parsed.month = value
        case "d": parsed.day = value
        case "D": parsed.dayOfYear = value
        case "H": parsed.hour = value
        case "k": parsed.clockHour = value
        case "h": parsed.hourOfAmPm = value == 12 ? 0 : (value > 12 ? 99 : value)
        case "K": parsed.hourOfAmPm = value
        case "m": parsed.minute = value
        default: parsed.second = value
        }
    }

    static let powersOfTen = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// The instant of what was read, as `ResolverStyle.SMART` and WireMock's `parseDate` resolve it; `strict`, as
    /// `ResolverStyle.STRICT` does (Java's `ISO_*` formatters): no day past the month's end, no `24:00`.
    static func resolve(_ parsed: Parsed, strict: Bool = false) -> (milliseconds: Int, zone: TimeZoneRules?)? {
        var parsed = parsed
        if let yearOfEra = parsed.yearOfEra {
            guard yearOfEra >= 1 || parsed.era == nil else { return nil }
            let year = parsed.era == 0 ? 1 - yearOfEra : yearOfEra
            guard parsed.year == nil || parsed.year == year else { return nil }
            parsed.year = year
        }
        guard let year = parsed.year, year.magnitude <= 300_000 else { return nil }
        if let dayOfYear = parsed.dayOfYear, parsed.month == nil {
            guard (1...(CivilCalendar.isLeap(year) ? 366 : 365)).contains(dayOfYear) else { return nil }
            let (_, month, day) = CivilCalendar.gregorianDate(days: CivilCalendar.gregorianDays(year: year, month: 1, day: dayOfYear))
            parsed.month = month
            parsed.day = day
        }
        let month = parsed.month ?? 1
        guard (1...12).contains(month), (1...31).contains(parsed.day ?? 1) else { return nil }
        // SMART: a day past the month's end (30 February) is its last day.
        let day = min(parsed.day ?? 1, CivilCalendar.daysIn(month: month, year: year))
        guard let time = resolveTime(parsed), !strict || (day == parsed.day ?? 1 && !time.nextDay) else { return nil }
        var date = CivilCalendar.gregorianDays(year: year, month: month, day: day)
        // The day of the week is checked before `24:00` moves the date on, as Java cross-checks it.
        if let weekday = parsed.weekday, parsed.day != nil, CivilCalendar.floorModulo(date + 3, 7) + 1 != weekday { return nil }
        if time.nextDay { date += 1 }
        let local = date * CivilCalendar.dayMilliseconds + time.milliseconds
        guard CivilCalendar.range.contains(local) else { return nil }
        if let offset = parsed.offsetSeconds {
            let zone = parsed.zone ?? TimeZoneRules.fixed(offset, prefix: "")
            return (local - offset * 1000, zone)
        }
        if let zone = parsed.zone { return (local - zone.offset(atLocal: local) * 1000, zone) }
        return (local, nil)
    }

    /// Milliseconds into the day, and whether `24:00` made it the next day's midnight.
    private static func resolveTime(_ parsed: Parsed) -> (milliseconds: Int, nextDay: Bool)? {
        var hour = parsed.hour
        if let clockHour = parsed.clockHour {
            guard (1...24).contains(clockHour) else { return nil }
            hour = clockHour == 24 ? 0 : clockHour
        }
        if let hourOfAmPm = parsed.hourOfAmPm, let pm = parsed.pm {
            guard hourOfAmPm <= 11 else { return nil }
            hour = hourOfAmPm + (pm ? 12 : 0)
        }
        guard let hour else { return (0, false) }
        let minute = parsed.minute ?? 0
        let second = parsed.second ?? 0
        let nanosecond = parsed.nanosecond ?? 0
        if hour == 24 && minute == 0 && second == 0 && nanosecond == 0 { return (0, true) }
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        return (hour * 3_600_000 + minute * 60_000 + second * 1000 + nanosecond / 1_000_000, false)
    }
}

/// Reads a date's text from left to right; every read is bounded by the text.
struct PatternTextScanner {
    let bytes: [UInt8]
    let caseInsensitive: Bool
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func literal(_ text: String) -> Bool {
        let wanted = Array(text.utf8)
        guard bytes.count - index >= wanted.count else { return false }
        for (offset, byte) in wanted.enumerated() where !same(bytes[index + offset], byte) { return false }
        index += wanted.count
        return true
    }

    private func same(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (caseInsensitive && a < 0x80 && b < 0x80 && (a | 0x20) == (b | 0x20) && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
    }

    /// The index of the longest of `names` the text continues with.
    mutating func choice(_ names: [String]) -> Int? {
        var best: (index: Int, length: Int)?
        for (position, name) in names.enumerated() {
            let saved = index
            if literal(name), name.utf8.count > (best?.length ?? -1) { best = (position, name.utf8.count) }
            index = saved
        }
        guard let best else { return nil }
        index += best.length
        return best.index
    }

    mutating func sign() -> Int {
        if literal("-") { return -1 }
        _ = literal("+")
        return 1
    }

    /// `min`…`max` digits, leaving `reserved` digits of a run for the fields that follow.
    mutating func digits(min: Int, max: Int, reserved: Int) -> Int? {
        var run = 0
        while index + run < bytes.count, bytes[index + run] >= 0x30, bytes[index + run] <= 0x39, run < 40 { run += 1 }
        let take = Swift.min(max, run - reserved)
        guard take >= min, take <= 18 else { return nil }
        var value = 0
        for _ in 0..<take {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        return value
    }

    /// An offset as `Z`/`X`/`x` patterns of `count` letters write it (`Z` for zero where the pattern allows it).
    mutating func offset(letter: Character, count: Int) -> Int? {
        if letter == "X" || (letter == "Z" && count == 5), literal("Z") { return 0 }
        if letter == "Z" && count == 4 {
            guard literal("GMT") else { return nil }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return 0 }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        let negative = bytes[index] == UInt8(ascii: "-")
        index += 1
        // Z: +HHMM (1-3), +HH:MM[:ss] (4, 5); X and x: +HH[MM] (1), +HHMM (2), +HH:MM (3), +HHMM[ss] (4), +HH:MM[:ss] (5).
        let colon = letter == "Z" ? count >= 4 : (count == 3 || count == 5)
        let minutesOptional = letter != "Z" && count == 1
        let secondsAllowed = count >= 4
        guard let hours = digits(min: 2, max: 2, reserved: 0) else { return nil }
        var seconds = hours * 3600
        let beforeMinutes = index
        if !colon || literal(":"), let minutes = digits(min: 2, max: 2, reserved: 0) {
            seconds += minutes * 60
            let beforeSeconds = index
            if secondsAllowed, !colon || literal(":"), let rest = digits(min: 2, max: 2, reserved: 0) {
                seconds += rest
            } else {
                index = beforeSeconds
            }
        } else if minutesOptional {
            index = beforeMinutes
        } else {
            return nil
        }
        guard seconds <= 18 * 3600 else { return nil }
        return negative ? -seconds : seconds
    }

    /// A zone ID (`Europe/Paris`, `UTC`, `+01:00`).
    mutating func zone() -> TimeZoneRules? {
        let start = index
        let allowed: (UInt8) -> Bool = { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || "~/._+-:".utf8.contains(byte)
        }
        while index < bytes.count, allowed(bytes[index]), index - start < 100 { index += 1 }
        guard index > start else { return nil }
        return try? TimeZoneRules.zoneID(String(decoding: bytes[start..<index], as: UTF8.self)).get()
    }
}
