import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// WireMock 2.35's date helpers with the outputs its jar gives: `now`/`date` (SimpleDateFormat, RenderableDate's
/// ISO 8601, GregorianCalendar's Julian dates before 1582), `parseDate` (DateTimeFormatter, the default formats),
/// Handlebars' `dateFormat` (java.time), `truncateDate`; offsets and zones; dates at the edges.
@Suite struct ResponseTemplateDateTests {
    static func render(_ template: String, _ request: HTTPRequest = ResponseTemplateHelperTests.request) throws -> Result<
        String, ResponseTemplate.RenderError
    > { try ResponseTemplateHelperTests.render(template, request) }

    /// The zone database is the system's: without it, named zones are refused (and these cases are skipped).
    static let hasZones = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Australia/Sydney")

    @Test func parseDateReadsWireMocksFormats() throws {
        try ResponseTemplateHelperTests.expectRendered([
            ("{{parseDate '2021-11-10T10:15:30Z'}}", "2021-11-10T10:15:30Z"),
            ("{{parseDate '2021-11-10T10:15:30+01:00'}}", "2021-11-10T10:15:30+01:00"),
            ("{{parseDate 'Tue, 3 Jun 2008 11:05:30 GMT'}}", "2008-06-03T11:05:30Z"),
            ("{{parseDate 'Sunday, 06-Nov-94 08:49:37 GMT'}}|", "|"), // 6 November 2094 is a Saturday
            ("{{parseDate 'Sun Nov  6 08:49:37 1994'}}", "1994-11-06T08:49:37Z"), ("{{parseDate 'junk'}}|", "|"),
            ("{{parseDate '10/11/2021' format='dd/MM/yyyy'}}", "2021-11-10T00:00:00Z"),
            ("{{parseDate '1577964091000' format='epoch'}}", "2020-01-02T11:21:31Z"),
            ("{{parseDate '1577964091' format='unix'}}", "2020-01-02T11:21:31Z"),
            ("{{parseDate '2021-11' format='yyyy-MM'}}", "2021-11-01T00:00:00Z"),
            ("{{parseDate '2021' format='yyyy'}}", "2021-01-01T00:00:00Z"),
            ("{{parseDate '2021-01-02 10' format='yyyy-MM-dd HH'}}", "2021-01-02T10:00:00Z"),
            ("{{parseDate '2021-01-02 10:11 +0530' format='yyyy-MM-dd HH:mm Z'}}", "2021-01-02T10:11:00+05:30"),
            ("{{parseDate '2021-02-30' format='yyyy-MM-dd'}}", "2021-02-28T00:00:00Z"), // SMART: the month's last day
            ("{{parseDate '2021-02-32' format='yyyy-MM-dd'}}|", "|"),
            ("{{parseDate '2021-01-01 24:00' format='yyyy-MM-dd HH:mm'}}", "2021-01-02T00:00:00Z"),
            ("{{parseDate '20210102' format='yyyyMMdd'}}", "2021-01-02T00:00:00Z"),
            ("{{parseDate '2/1/2021' format='d/M/yyyy'}}", "2021-01-02T00:00:00Z"),
            ("{{parseDate 'Jan 2, 2021' format='MMM d, yyyy'}}", "2021-01-02T00:00:00Z"),
            ("{{parseDate 'jan 2, 2021' format='MMM d, yyyy'}}|", "|"),
            ("{{parseDate '10:11 PM 2021-01-02' format='hh:mm a yyyy-MM-dd'}}", "2021-01-02T22:11:00Z"),
            ("{{parseDate 'Sun 2021-01-02' format='EEE yyyy-MM-dd'}}|", "|"),
            ("{{parseDate '2021-01-02T10:11:12' format=\"yyyy-MM-dd'T'HH:mm:ss\"}}", "2021-01-02T10:11:12Z"),
            ("{{parseDate '1500-03-04T05:06:07Z'}}", "1500-02-23T05:06:07Z"), // printed in the Julian calendar, as Java does
            ("{{parseDate '-0044-03-15T12:00:00Z'}}", "0045-03-17T12:00:00Z"),
        ])
    }

    /// Attack 1, F13: without a format, an invalid ISO date was resolved SMART (30 February became the 28th); WireMock's
    /// ISO parser is STRICT and gives nothing. Its other default formats stay SMART. Each asked of WireMock 2.35.1.
    @Test func parseDateWithoutAFormatReadsISODatesStrictly() throws {
        try ResponseTemplateHelperTests.expectRendered([
            ("[{{parseDate '2021-02-30T00:00:00Z'}}]", "[]"), ("[{{parseDate '2021-06-14T24:00:00Z'}}]", "[]"),
            ("[{{parseDate '2021-04-31T00:00:00Z'}}]", "[]"), ("[{{parseDate '2021-02-29T00:00:00Z'}}]", "[]"),
            ("[{{parseDate '2021-02-28T24:00:00Z'}}]", "[]"), ("[{{parseDate '2020-02-29T00:00:00Z'}}]", "[2020-02-29T00:00:00Z]"),
            ("[{{parseDate 'Sun, 28 Feb 2021 24:00:00 GMT'}}]", "[2021-03-01T00:00:00Z]"),
            ("[{{parseDate 'Tue, 30 Feb 2021 00:00:00 GMT'}}]", "[]"),
            ("[{{parseDate 'Sun Feb 30 00:00:00 2021'}}]", "[2021-02-28T00:00:00Z]"),
        ])
    }

    @Test func nowAndDateFormatWithOffsetsAsSimpleDateFormat() throws {
        try ResponseTemplateHelperTests.expectRendered([
            ("{{date (parseDate '2021-01-02T10:11:12Z') offset='1 months' format='yyyy-MM-dd'}}", "2021-02-02"),
            ("{{date (parseDate '2021-01-31T10:11:12Z') offset='1 months'}}", "2021-02-28T10:11:12Z"),
            ("{{date (parseDate '2024-02-29T00:00:00Z') offset='1 years'}}", "2025-02-28T00:00:00Z"),
            ("{{date (parseDate '2021-01-02T00:00:00Z') offset='-1 days'}}", "2021-01-01T00:00:00Z"),
            ("{{date (parseDate '2021-01-02T00:00:00Z') offset='now +5 years' format='yyyy'}}", "2026"),
            ("{{date (parseDate '2021-01-02T00:00:00Z') offset='now'}}", "2021-01-02T00:00:00Z"),
            (
                "{{date (parseDate '2021-03-04T05:06:07Z') format='yyyy-MM-dd HH:mm:ss.SSS S SSSS E EEEE MMM MMMM a h K k D u G yy y yyy Z X XX XXX z'}}",
                "2021-03-04 05:06:07.000 0 0000 Thu Thursday Mar March AM 5 5 5 63 4 AD 21 2021 2021 +0000 Z Z Z UTC"
            ),
            ("{{date (parseDate '2021-03-04T05:06:07+05:30') format='HH:mm Z X XX XXX z'}}", "05:06 +0530 +05 +0530 +05:30 GMT+05:30"),
            ("{{date (parseDate '1582-10-15T00:00:00Z') offset='-1 days' format='yyyy-MM-dd EEE D'}}", "1582-10-04 Thu 277"),
            ("{{date (parseDate '0001-01-01T00:00:00Z') offset='-1 days' format='yyyy-MM-dd G'}}", "0001-01-02 AD"), // Julian
            ("{{date (parseDate '0001-01-01T00:00:00Z') offset='-3 days' format='yyyy-MM-dd G'}}", "0001-12-31 BC"),
            (
                "{{date (parseDate '2021-01-02T00:00:00Z') format='epoch'}} {{date (parseDate '1969-12-31T23:59:59.5Z') format='unix'}}",
                "1609545600000 0"
            ),
            (
                "{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'yyyy-MM-dd HH:mm:ss.SSS EEE a z Z X'}}",
                "2021-01-02 10:11:12.000 Sat AM UTC +0000 Z"
            ),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z')}}", "Jan 2, 2021"),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'full'}}", "Saturday, January 2, 2021"),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'long'}}", "January 2, 2021"),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'short'}}", "1/2/21"),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'medium' time='short'}}", "Jan 2, 2021, 10:11 AM"),
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') format='HH z' tz=request.headers.X-Trace}}", "10 GMT"), // Java: GMT
            ("{{dateFormat (parseDate '-0001-06-01T00:00:00Z') 'yyyy-MM-dd G uuuu yy uu'}}", "0002-06-01 BC -0001 02 01"),
            ("{{dateFormat (parseDate '+12345-01-01T00:00:00Z') 'yyyy uuuu y u'}}", "+12345 +12345 12345 12345"),
            ("{{dateFormat request.query.x 'yyyy'}}", "yyyy"),
            ("{{truncateDate (parseDate '2021-01-02T10:11:12Z') 'first day of month'}}", "2021-01-01T00:00:00Z"),
            ("{{truncateDate (parseDate '2021-01-31T10:11:12Z') 'first day of next month'}}", "2021-02-01T00:00:00Z"),
            ("{{truncateDate (parseDate '2021-01-31T10:11:12Z') 'last day of year'}}", "2021-12-31T00:00:00Z"),
            ("{{truncateDate (parseDate '2021-01-31T10:11:12Z') 'FIRST_SECOND_OF_MINUTE'}}", "2021-01-31T10:11:00Z"),
            ("{{truncateDate 'x' 'first day of month'}}", "[ERROR: A date object must be passed to the truncateDate helper]"),
        ])
        let now = try #require(Int(try Self.render("{{now format='epoch'}}").get()))
        #expect(abs(now - Int(Date().timeIntervalSince1970 * 1000)) < 60_000)
        let later = try #require(Int(try Self.render("{{now offset='3 days' format='unix'}}").get()))
        #expect(abs(later - 3 * 86_400 - Int(Date().timeIntervalSince1970)) < 60)
        // `date` of something that is not a date is now, as WireMock reads it.
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year ?? 0
        #expect(try Self.render("{{date 'x' format='yyyy'}}").get() == String(year))
        let iso = try Self.render("{{now}}").get()
        #expect(iso.count == 20 && iso.hasSuffix("Z"), "\(iso)")
    }

    @Test(.enabled(if: hasZones, "needs the system's tz database (/usr/share/zoneinfo)")) func zonesAsJavaNamesThem() throws {
        try ResponseTemplateHelperTests.expectRendered([
            ("{{parseDate '2021-11-10T10:15:30+01:00[Europe/Paris]'}}", "2021-11-10T10:15:30+01:00"),
            ("{{date (parseDate '2021-01-02T10:11:12Z') timezone='Australia/Sydney'}}", "2021-01-02T10:11:12Z"), // a date keeps its zone
            ("{{dateFormat (parseDate '2021-01-02T10:11:12Z') 'yyyy-MM-dd HH:mm z' tz='Australia/Sydney'}}", "2021-01-02 21:11 AEDT"),
            ("{{dateFormat (parseDate '2021-07-01T12:00:00Z') 'HH:mm z Z VV' tz='Europe/Paris'}}", "14:00 CEST +0200 Europe/Paris"),
            (
                "{{dateFormat (parseDate '2021-07-01T12:00:00Z') 'HH:mm z ZZZZ ZZZZZ xxx XXXXX' tz='America/St_Johns'}}",
                "09:30 NDT GMT-02:30 -02:30 -02:30 -02:30"
            ),
            ("{{dateFormat (parseDate '2045-07-01T12:00:00Z') 'yyyy-MM-dd HH:mm z' tz='America/New_York'}}", "2045-07-01 08:00 EDT"),
            ("{{dateFormat (parseDate '2045-01-01T12:00:00Z') 'yyyy-MM-dd HH:mm z' tz='Australia/Sydney'}}", "2045-01-01 23:00 AEDT"),
            ("{{parseDate '2021-03-28 02:30 Europe/Paris' format='yyyy-MM-dd HH:mm VV'}}", "2021-03-28T03:30:00+02:00"), // in the gap
            ("{{parseDate '2021-10-31 02:30 Europe/Paris' format='yyyy-MM-dd HH:mm VV'}}", "2021-10-31T02:30:00+02:00"), // the earlier
            ("{{truncateDate (parseDate '2021-03-28T05:00:00+02:00[Europe/Paris]') 'first hour of day'}}", "2021-03-28T00:00:00+01:00"),
        ])
        let sydney = try Self.render("{{now timezone='Australia/Sydney' format='Z'}}").get()
        #expect(sydney == "+1000" || sydney == "+1100", "\(sydney)")
        #expect(try Self.render("{{now timezone='GMT+5' format='Z z'}}").get() == "+0500 GMT+05:00")
        #expect(try Self.render("{{now timezone='+05:30' format='XXX z'}}").get() == "+05:30 GMT+05:30")
    }

    @Test func patternsZonesAndOffsetsJavaRefusesAreRefusedAtLoad() throws {
        for refused in [
            "{{now format='q'}}", "{{now format='yyyy-MM-ddTHH'}}", "{{now format='zzzz'}}", "{{now format='XXXX'}}",
            "{{now format='\\'open'}}",
            "{{now timezone='EST'}}", "{{now timezone='Nowhere/Zone'}}", "{{now timezone='../../etc/passwd'}}", "{{now timezone='+19:00'}}",
            "{{now offset='3 weeks'}}", "{{now offset='3 day'}}", "{{now offset='99999999999 years'}}", "{{now offset='2147483647 days'}}",
            "{{now offset='1.5 days'}}", "{{parseDate 'x' format='yyyy-MM-dd[ HH]'}}", "{{parseDate 'x' format='ddd'}}",
            "{{dateFormat (now) 'medium' time='full'}}", "{{dateFormat (now) 'yyyy' locale='fr'}}",
            "{{dateFormat (now) 'yyyy' tz='Nowhere/Zone'}}",
            "{{truncateDate (now) 'first week'}}", "{{truncateDate (now)}}",
        ] {
            #expect(throws: ResponseTemplate.Error.self, "\(refused)") { try ResponseTemplate(refused) }
        }
    }
}
