/// Reading date-times the way WireMock 2.35's date matchers do when no `actualFormat` is given: a zoned value from
/// ISO 8601 with an offset (Java's `ISO_ZONED_DATE_TIME`), RFC 1123, RFC 1036 or either asctime form; a local one
/// from ISO 8601 without an offset (`ISO_LOCAL_DATE_TIME`, else `ISO_LOCAL_DATE` at the start of its day).
/// Every field is read in its range from a bounded number of digits, so no text can trap or take long.
extension DateTimeValue {
    /// A zoned date-time, as WireMock's `ZONED_PARSERS` read it, in their order; nil when none reads it.
    package static func zoned(_ text: String) -> DateTimeValue? {
        isoZoned(text) ?? rfc1123(text) ?? rfc1036(text) ?? asctime(text)
    }

    /// A local date-time: `2021-06-14T12:13:14` (seconds and fraction optional) or `2021-06-14` (at 00:00).
    package static func local(_ text: String) -> DateTimeValue? {
        var scanner = DateScanner(text)
        if let value = scanner.isoDateTime(), scanner.atEnd { return value }
        scanner = DateScanner(text)
        guard let date = scanner.isoDate(), scanner.atEnd else { return nil }
        return DateTimeValue(year: date.year, month: date.month, dayOfMonth: date.day)
    }

    /// `2021-06-14T12:13:14.5+02:00[Europe/Paris]`: the offset is required, the zone optional. A fixed zone (`[UTC]`,
    /// `[+01:00]`) moves the fields to its offset as Java does; a region (`[Europe/Paris]`) keeps the offset written,
    /// which is the same instant (sut-launch has no time-zone database).
    package static func isoZoned(_ text: String) -> DateTimeValue? {
        var scanner = DateScanner(text)
        guard let local = scanner.isoDateTime(), let offset = scanner.isoOffset(),
            var value = DateTimeValue(day: local.day, nanosecond: local.nanosecond, offset: offset)
        else { return nil }
        if scanner.skip("[") {
            guard let zone = scanner.zoneID(), scanner.skip("]") else { return nil }
            if case .offset(let fixed) = zone { value = value.at(offset: fixed) ?? value }
        }
        return scanner.atEnd ? value : nil
    }

    /// RFC 1123 as Java's `RFC_1123_DATE_TIME` reads it: `Mon, 14 Jun 2021 12:13:14 GMT` (any case; the day name and
    /// the seconds are optional; `GMT` or `+HHMM`).
    package static func rfc1123(_ text: String) -> DateTimeValue? {
        var scanner = DateScanner(text)
        var weekday: Int?
        let start = scanner.index
        if let name = scanner.name(DateNames.shortDays, caseInsensitive: true), scanner.skip(", ") {
            weekday = name
        } else {
            scanner.index = start
        }
        guard let dayOfMonth = scanner.number(minDigits: 1, maxDigits: 2), scanner.skip(" "),
            let month = scanner.name(DateNames.shortMonths, caseInsensitive: true), scanner.skip(" "),
            let year = scanner.fixed(4), scanner.skip(" "), let hour = scanner.fixed(2), scanner.skip(":"),
            let minute = scanner.fixed(2)
        else { return nil }
        var second = 0
        if scanner.skip(":") {
            guard let value = scanner.fixed(2) else { return nil }
            second = value
        }
        guard scanner.skip(" "), let offset = scanner.compactOffset(), scanner.atEnd else { return nil }
        return resolve(year, month + 1, dayOfMonth, hour, minute, second, offset: offset, weekday: weekday)
    }

    /// RFC 1036: `Monday, 14-Jun-21 12:13:14 GMT` (case as written; years 2000–2099; zones GMT, UTC, UT and Z).
    package static func rfc1036(_ text: String) -> DateTimeValue? {
        var scanner = DateScanner(text)
        guard let weekday = scanner.name(DateNames.days, caseInsensitive: false), scanner.skip(", "),
            let dayOfMonth = scanner.fixed(2), scanner.skip("-"),
            let month = scanner.name(DateNames.shortMonths, caseInsensitive: false), scanner.skip("-"),
            let year = scanner.fixed(2), scanner.skip(" "), let hour = scanner.fixed(2), scanner.skip(":"),
            let minute = scanner.fixed(2), scanner.skip(":"), let second = scanner.fixed(2), scanner.skip(" "),
            scanner.name(DateNames.utcNames, caseInsensitive: false) != nil, scanner.atEnd
        else { return nil }
        return resolve(2000 + year, month + 1, dayOfMonth, hour, minute, second, offset: 0, weekday: weekday)
    }

    /// asctime: `Mon Jun 14 12:13:14 2021` or `Sun Jun  6 12:13:14 2021`, in GMT.
    package static func asctime(_ text: String) -> DateTimeValue? {
        var scanner = DateScanner(text)
        guard let weekday = scanner.name(DateNames.shortDays, caseInsensitive: false), scanner.skip(" "),
            let month = scanner.name(DateNames.shortMonths, caseInsensitive: false), scanner.skip(" ")
        else { return nil }
        let dayOfMonth = scanner.skip(" ") ? scanner.number(minDigits: 1, maxDigits: 2) : scanner.fixed(2)
        guard let dayOfMonth, scanner.skip(" "), let hour = scanner.fixed(2), scanner.skip(":"), let minute = scanner.fixed(2),
            scanner.skip(":"), let second = scanner.fixed(2), scanner.skip(" "), let year = scanner.number(minDigits: 4, maxDigits: 4),
            scanner.atEnd
        else { return nil }
        return resolve(year, month + 1, dayOfMonth, hour, minute, second, offset: 0, weekday: weekday)
    }

    /// Fields as Java's SMART resolver takes them: a day of month up to 31 becomes the month's last day when the
    /// month is shorter (`31/02` is February 28), and a day name written must be the date's (0 = Monday).
    static func resolve(
        _ year: Int, _ month: Int, _ dayOfMonth: Int, _ hour: Int, _ minute: Int, _ second: Int, nano: Int = 0, offset: Int?,
        weekday: Int?
    ) -> DateTimeValue? {
        guard years.contains(year), (1...12).contains(month), (1...31).contains(dayOfMonth) else { return nil }
        let clamped = min(dayOfMonth, WallClock.daysIn(month: month, year: year))
        guard
            let value = DateTimeValue(
                year: year, month: month, dayOfMonth: clamped, hour: hour, minute: minute, second: second, nano: nano, offset: offset)
        else { return nil }
        if let weekday, weekday != value.weekday { return nil }
        return value
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    package var weekday: Int { DateTimeValue.floorDivision(day + 3, 7).remainder }
}

/// English names as Java's `Locale.US` formats them.
enum DateNames {
    static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let amPm = ["AM", "PM"]
    /// Zone names read as UTC. Java knows hundreds (`PST`, `CEST`) through its time-zone database; sut-launch has none.
    static let utcNames = ["GMT", "UTC", "UT", "Z"]
}

/// A zone after an ISO date-time: a fixed offset, or a region kept by name.
enum ZoneID: Equatable {
    case offset(Int)
    case region
}

/// A cursor over the bytes of a date-time, with the few readers the formats need. Digits are ASCII only.
struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }
    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skip(_ literal: String) -> Bool {
        // On the literal's contiguous bytes: through UTF8View's iterator this was most of a date's parse (callgrind).
        var literal = literal
        let matched = literal.withUTF8 { expected in
            guard index + expected.count <= bytes.count else { return false }
            for offset in 0..<expected.count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        if matched { index += literal.utf8.count }
        return matched
    }

    mutating func skipAny(_ characters: String) -> Bool {
        guard let next, characters.utf8.contains(next) else { return false }
        index += 1
        return true
    }

    var digitsAhead: Int {
        var count = 0
        while index + count < bytes.count, (0x30...0x39).contains(bytes[index + count]) { count += 1 }
        return count
    }

    /// Exactly `count` digits.
    mutating func fixed(_ count: Int) -> Int? {
        guard digitsAhead >= count else { return nil }
        return take(count)
    }

    /// Between `minDigits` and `maxDigits` digits, as many as there are (at most 18: never an overflow).
    mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
        let count = min(digitsAhead, maxDigits, 18)
        guard count >= minDigits else { return nil }
        return take(count)
    }

    mutating func take(_ count: Int) -> Int {
        var value = 0
        for byte in bytes[index..<(index + count)] { value = value * 10 + Int(byte - 0x30) }
        index += count
        return value
    }

    /// The index of the longest name that comes next.
    mutating func name(_ names: [String], caseInsensitive: Bool) -> Int? {
        var best: (index: Int, length: Int)?
        for (position, name) in names.enumerated() {
            let candidate = Array(name.utf8)
            guard index + candidate.count <= bytes.count, candidate.count > (best?.length ?? 0) else { continue }
            let slice = bytes[index..<(index + candidate.count)]
            let equal =
                caseInsensitive
                ? zip(slice, candidate).allSatisfy { Self.lower($0) == Self.lower($1) } : slice.elementsEqual(candidate)
            if equal { best = (position, candidate.count) }
        }
        guard let best else { return nil }
        index += best.length
        return best.index
    }

    static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 32 : byte }

    /// `2021-06-14`: four digits, a minus and 4 to 9, or a plus and 5 to 9 (Java's `EXCEEDS_PAD`: `+10000` and
    /// `-0001`, never `+2021`).
    mutating func isoDate() -> (year: Int, month: Int, day: Int)? {
        var year: Int
        if let sign = next, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            index += 1
            let minus = sign == UInt8(ascii: "-")
            guard let value = number(minDigits: minus ? 4 : 5, maxDigits: 9) else { return nil }
            year = minus ? -value : value
        } else {
            guard let value = fixed(4) else { return nil }
            year = value
        }
        guard skip("-"), let month = fixed(2), skip("-"), let day = fixed(2) else { return nil }
        return (year, month, day)
    }

    /// `2021-06-14T12:13`, then `:14` and `.123456789` optional (a `.` with no digits too, as Java reads it).
    mutating func isoDateTime() -> DateTimeValue? {
        guard let date = isoDate(), skipAny("Tt"), let hour = fixed(2), skip(":"), let minute = fixed(2) else { return nil }
        var second = 0
        var nano = 0
        if skip(":") {
            guard let value = fixed(2) else { return nil }
            second = value
            if skip(".") {
                let count = digitsAhead
                guard count <= 9 else { return nil }
                nano = take(count)
                for _ in count..<9 { nano *= 10 }
            }
        }
        return DateTimeValue(
            year: date.year, month: date.month, dayOfMonth: date.day, hour: hour, minute: minute, second: second, nano: nano)
    }

    /// `Z` (any case), or `+HH`, `+HH:MM`, `+HH:MM:SS` up to ±18:00, in seconds.
    mutating func isoOffset() -> Int? {
        if skipAny("Zz") { return 0 }
        guard let sign = next, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = fixed(2) else { return nil }
        var minutes = 0
        var seconds = 0
        if skip(":") {
            guard let value = fixed(2) else { return nil }
            minutes = value
            if skip(":") {
                guard let value = fixed(2) else { return nil }
                seconds = value
            }
        }
        return Self.offset(sign: sign, hours, minutes, seconds)
    }

    /// `GMT`, or `+HHMM` (RFC 1123), any case.
    mutating func compactOffset() -> Int? {
        if name(["GMT"], caseInsensitive: true) != nil { return 0 }
        guard let sign = next, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = fixed(2), let minutes = fixed(2) else { return nil }
        return Self.offset(sign: sign, hours, minutes, 0)
    }

    static func offset(sign: UInt8, _ hours: Int, _ minutes: Int, _ seconds: Int) -> Int? {
        guard hours <= 18, minutes <= 59, seconds <= 59 else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        guard total <= 18 * 3600 else { return nil }
        return sign == UInt8(ascii: "-") ? -total : total
    }

    /// A zone id inside `[…]`: `UTC`, `GMT`, `UT`, `Z`, `Etc/UTC`, `+01:00`, `UTC+01:00` are fixed offsets; any other
    /// id of Java's region syntax (`Europe/Paris`) is a region.
    mutating func zoneID() -> ZoneID? {
        let start = index
        while let next, next != UInt8(ascii: "]") { index += 1 }
        let id = String(decoding: bytes[start..<index], as: UTF8.self)
        if ["UTC", "GMT", "UT", "Z", "Etc/UTC", "Etc/GMT", "UCT"].contains(id) { return .offset(0) }
        for prefix in ["", "UTC", "GMT", "UT"] where id.hasPrefix(prefix) && id.count > prefix.count {
            var inner = DateScanner(String(id.dropFirst(prefix.count)))
            if let first = inner.next, first == UInt8(ascii: "+") || first == UInt8(ascii: "-"), let offset = inner.isoOffset(),
                inner.atEnd
            {
                return .offset(offset)
            }
        }
        func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(Self.lower(byte)) }
        let isRegion =
            id.utf8.first.map(isLetter) == true
            && id.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || "~/._+-".utf8.contains($0) }
        return isRegion && id.count >= 2 ? .region : nil
    }
}
