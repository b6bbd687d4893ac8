/// The formats WireMock's `parseDate` tries when given none, in its order: ISO 8601 with an offset
/// (`2021-11-10T10:15:30+01:00`, `…Z`, `…+01:00[Europe/Paris]`), RFC 1123 (`Tue, 3 Jun 2008 11:05:30 GMT`), RFC 1036
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and both asctime forms (`Sun Nov  6 08:49:37 1994`, read as GMT).
extension JavaDatePattern {
    private static let rfc1036 = try? JavaDatePattern("EEEE, dd-MMM-yy HH:mm:ss zzz", dialect: .dateTimeFormatter)
    private static let asctime = try? JavaDatePattern("EEE MMM dd HH:mm:ss yyyy", dialect: .dateTimeFormatter)
    private static let asctimeSpaced = try? JavaDatePattern("EEE MMM  d HH:mm:ss yyyy", dialect: .dateTimeFormatter)

    /// The instant and zone of `text` in the first of WireMock's default formats that reads it; nil for none.
    package static func instantInDefaultFormats(_ text: String) -> (milliseconds: Int, zone: TimeZoneRules?)? {
        guard text.utf8.count <= 200 else { return nil }
        if let found = isoZoned(Array(text.utf8)) ?? rfc1123(Array(text.utf8)) { return found }
        if let found = rfc1036?.instant(of: text) { return found }
        let gmt = try? TimeZoneRules.zoneID("GMT").get()
        return asctime?.instant(of: text, zone: gmt) ?? asctimeSpaced?.instant(of: text, zone: gmt)
    }

    /// `ISO_ZONED_DATE_TIME`: `uuuu-MM-dd'T'HH:mm[:ss[.fraction]]` then `Z` or `+HH:MM[:ss]`, then an optional
    /// `[Region/Name]`; letters in any case.
    static func isoZoned(_ bytes: [UInt8]) -> (milliseconds: Int, zone: TimeZoneRules?)? {
        var scanner = PatternTextScanner(bytes: bytes, caseInsensitive: true)
        var parsed = Parsed()
        let signed = bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-")
        let sign = scanner.sign()
        // Four digits, or a sign and more (a plus sign only past four digits, as EXCEEDS_PAD parses).
        guard let year = scanner.digits(min: 4, max: signed ? 10 : 4, reserved: 0), bytes.first != UInt8(ascii: "+") || scanner.index > 5
        else { return nil }
        parsed.year = sign * year
        guard scanner.literal("-"), let month = scanner.digits(min: 2, max: 2, reserved: 0), scanner.literal("-"),
            let day = scanner.digits(min: 2, max: 2, reserved: 0), scanner.literal("T"),
            let hour = scanner.digits(min: 2, max: 2, reserved: 0),
            scanner.literal(":"), let minute = scanner.digits(min: 2, max: 2, reserved: 0)
        else { return nil }
        (parsed.month, parsed.day, parsed.hour, parsed.minute) = (month, day, hour, minute)
        if scanner.literal(":") {
            guard let second = scanner.digits(min: 2, max: 2, reserved: 0) else { return nil }
            parsed.second = second
            if scanner.literal(".") {
                let start = scanner.index
                guard let fraction = scanner.digits(min: 0, max: 9, reserved: 0) else { return nil }
                parsed.nanosecond = fraction * powersOfTen[9 - (scanner.index - start)]
            }
        }
        guard let offset = scanner.offset(letter: "Z", count: 5) else { return nil }
        parsed.offsetSeconds = offset
        if scanner.literal("[") {
            let caseSensitive = PatternTextScanner(bytes: bytes, caseInsensitive: false, index: scanner.index)
            var zoneScanner = caseSensitive
            guard let zone = zoneScanner.zone(), zoneScanner.literal("]") else { return nil }
            scanner.index = zoneScanner.index
            parsed.zone = zone
        }
        guard scanner.atEnd else { return nil }
        return resolve(parsed, strict: true) // ISO_ZONED_DATE_TIME resolves STRICT: 30 February is no date
    }

    /// `RFC_1123_DATE_TIME`: `[EEE, ]d MMM yyyy HH:mm[:ss] GMT|+HHMM`, letters in any case.
    static func rfc1123(_ bytes: [UInt8]) -> (milliseconds: Int, zone: TimeZoneRules?)? {
        var scanner = PatternTextScanner(bytes: bytes, caseInsensitive: true)
        var parsed = Parsed()
        let saved = scanner.index
        if let weekday = scanner.choice(CivilCalendar.weekdayNames.map { String($0.prefix(3)) }), scanner.literal(", ") {
            parsed.weekday = weekday + 1
        } else {
            scanner.index = saved
        }
        guard let day = scanner.digits(min: 1, max: 2, reserved: 0), scanner.literal(" "),
            let month = scanner.choice(CivilCalendar.monthNames.map { String($0.prefix(3)) }), scanner.literal(" "),
            let year = scanner.digits(min: 4, max: 4, reserved: 0), scanner.literal(" "),
            let hour = scanner.digits(min: 2, max: 2, reserved: 0),
            scanner.literal(":"), let minute = scanner.digits(min: 2, max: 2, reserved: 0)
        else { return nil }
        (parsed.day, parsed.month, parsed.year, parsed.hour, parsed.minute) = (day, month + 1, year, hour, minute)
        if scanner.literal(":") {
            guard let second = scanner.digits(min: 2, max: 2, reserved: 0) else { return nil }
            parsed.second = second
        }
        guard scanner.literal(" ") else { return nil }
        if scanner.literal("GMT") {
            parsed.offsetSeconds = 0
        } else {
            guard let offset = scanner.offset(letter: "Z", count: 1) else { return nil }
            parsed.offsetSeconds = offset
        }
        guard scanner.atEnd else { return nil }
        return resolve(parsed)
    }
}
