import Testing

@testable import AutomationSupport

/// Java's two pattern dialects: what each letter prints (outputs from Java 17, `SimpleDateFormat` and
/// `DateTimeFormatter` in `en_US`), what each refuses, and parsing as `DateTimeFormatter` parses.
@Suite struct JavaDatePatternTests {
    static let instant = 1_614_834_367_089 // 2021-03-04T05:06:07.089Z, a Thursday

    static func format(_ pattern: String, _ dialect: JavaDatePattern.Dialect, offset: Int = 0, at milliseconds: Int = instant) throws
        -> String
    {
        let fields = CivilCalendar.fields(
            milliseconds: milliseconds, offsetSeconds: offset, julianBeforeCutover: dialect == .simpleDateFormat)
        return try JavaDatePattern(pattern, dialect: dialect).format(fields, zoneName: "UTC", zoneID: "UTC")
    }

    @Test func simpleDateFormatLetters() throws {
        let cases = [
            ("yyyy-MM-dd HH:mm:ss.SSS", "2021-03-04 05:06:07.089"), ("y yy yyy yyyyy", "2021 21 2021 02021"),
            ("M MM MMM MMMM", "3 03 Mar March"),
            ("d D E EEEE u", "4 63 Thu Thursday 4"), ("h K k a", "5 5 5 AM"), ("S SS SSSS", "89 89 0089"),
            ("G z Z X XX XXX", "AD UTC +0000 Z Z Z"),
            ("'T''s' ''", "T's '"), ("yyyy-MM-dd'T'HH:mm:ssXXX", "2021-03-04T05:06:07Z"), ("[#{}]", "[#{}]"),
        ]
        for (pattern, expected) in cases { #expect(try Self.format(pattern, .simpleDateFormat) == expected, "\(pattern)") }
        #expect(try Self.format("Z X XX XXX", .simpleDateFormat, offset: -(5 * 3600 + 1800)) == "-0530 -05 -0530 -05:30")
        #expect(try Self.format("hh a", .simpleDateFormat, at: Self.instant + 12 * 3_600_000) == "05 PM")
        #expect(try Self.format("h k K H", .simpleDateFormat, at: Self.instant - 5 * 3_600_000 - 6 * 60_000) == "12 24 0 0")
    }

    @Test func dateTimeFormatterLetters() throws {
        let cases = [
            ("uuuu-MM-dd HH:mm:ss.SSS", "2021-03-04 05:06:07.089"), ("y yy yyyy", "2021 21 2021"),
            ("M MM MMM MMMM MMMMM", "3 03 Mar March M"),
            ("d D E EEEE EEEEE", "4 63 Thu Thursday T"), ("S SS SSSSSS SSSSSSSSS", "0 08 089000 089000000"),
            ("G GGGG GGGGG", "AD Anno Domini A"),
            ("Z ZZZZ ZZZZZ X x xxx VV z", "+0000 GMT Z Z +00 +00:00 UTC UTC"), ("h a", "5 AM"),
        ]
        for (pattern, expected) in cases { #expect(try Self.format(pattern, .dateTimeFormatter) == expected, "\(pattern)") }
        #expect(try Self.format("X XX XXX XXXX ZZZZ", .dateTimeFormatter, offset: 19_815) == "+0530 +0530 +05:30 +053015 GMT+05:30:15")
    }

    @Test func lettersJavaRefusesOrThatAreNotSupportedAreRefused() {
        for (pattern, dialect) in [
            ("yyyy-MM-ddTHH", JavaDatePattern.Dialect.simpleDateFormat), ("q", .simpleDateFormat), ("b", .dateTimeFormatter),
            ("zzzz", .simpleDateFormat),
            ("XXXX", .simpleDateFormat), ("ww", .simpleDateFormat), ("YYYY", .dateTimeFormatter), ("'open", .simpleDateFormat),
            ("'open", .dateTimeFormatter),
            ("ddd", .dateTimeFormatter), ("aa", .dateTimeFormatter), ("V", .dateTimeFormatter), ("zzzz", .dateTimeFormatter),
            ("[HH]", .dateTimeFormatter),
            ("yyyy#", .dateTimeFormatter), ("SSSSSSSSSS", .dateTimeFormatter), ("T", .dateTimeFormatter),
        ] {
            #expect(throws: JavaDatePattern.Error.self, "\(pattern)") { try JavaDatePattern(pattern, dialect: dialect) }
        }
    }

    @Test func parsingIsStrictAsDateTimeFormatter() throws {
        func instant(_ text: String, _ pattern: String) throws -> Int? {
            try JavaDatePattern(pattern, dialect: .dateTimeFormatter).instant(of: text)?.milliseconds
        }
        #expect(try instant("20210304", "yyyyMMdd") == CivilCalendar.milliseconds(year: 2021, month: 3, day: 4))
        #expect(
            try instant("4/3/2021 05:06", "d/M/yyyy HH:mm") == CivilCalendar.milliseconds(year: 2021, month: 3, day: 4, hour: 5, minute: 6))
        #expect(
            try instant("2021-03-04 05:06 +0530", "yyyy-MM-dd HH:mm Z") == CivilCalendar.milliseconds(
                year: 2021, month: 3, day: 4, hour: 5, minute: 6)! - 19_800_000)
        #expect(try instant("2021-03-04T05:06:07.5Z", "yyyy-MM-dd'T'HH:mm:ss.SX") == Self.instant - 89 + 500)
        for (text, pattern) in [
            ("2021-3-04", "yyyy-MM-dd"), ("2021-03-04 ", "yyyy-MM-dd"), ("21-03-04x", "yy-MM-dd"), ("2021-03-04 25:00", "yyyy-MM-dd HH:mm"),
            ("Thu 2021-03-05", "EEE yyyy-MM-dd"), ("2021-00-04", "yyyy-MM-dd"), ("03-04", "MM-dd"),
            (String(repeating: "9", count: 10_000), "yyyy"), ("13:00 PM 2021", "hh:mm a yyyy"),
        ] {
            #expect(try instant(text, pattern) == nil, "\(text.prefix(30)) with \(pattern)")
        }
        #expect(try instant("21-03-04", "yy-MM-dd") == CivilCalendar.milliseconds(year: 2021, month: 3, day: 4))
        #expect(
            try instant("12:30 AM 2021-03-04", "hh:mm a yyyy-MM-dd") == CivilCalendar.milliseconds(year: 2021, month: 3, day: 4, minute: 30)
        )
    }

    @Test func wireMocksDefaultFormats() throws {
        #expect(JavaDatePattern.instantInDefaultFormats("2021-11-10T10:15:30.5+01:00")?.milliseconds == 1_636_535_730_500)
        #expect(JavaDatePattern.instantInDefaultFormats("2021-11-10t10:15:30z")?.milliseconds == 1_636_539_330_000)
        #expect(JavaDatePattern.instantInDefaultFormats("Wed, 10 Nov 2021 10:15:30 +0100")?.milliseconds == 1_636_535_730_000)
        #expect(JavaDatePattern.instantInDefaultFormats("10 Nov 2021 10:15 GMT")?.milliseconds == 1_636_539_300_000)
        #expect(JavaDatePattern.instantInDefaultFormats("Wed Nov 10 10:15:30 2021")?.milliseconds == 1_636_539_330_000)
        for text in ["2021-11-10T10:15:30", "2021-11-10 10:15:30Z", "Thu, 10 Nov 2021 10:15:30 GMT", "+2021-11-10T10:15:30Z", ""] {
            #expect(JavaDatePattern.instantInDefaultFormats(text) == nil, "\(text)")
        }
    }
}
