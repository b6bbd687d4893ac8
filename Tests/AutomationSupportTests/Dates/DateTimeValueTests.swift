import Testing

@testable import AutomationSupport

/// Date-times read as WireMock 2.35's date matchers read them (Java's ISO, RFC 1123, RFC 1036 and asctime
/// formatters); every expectation here was checked against WireMock 2.35.1 on Java 17.
@Suite struct DateTimeValueTests {
    static let reference = DateTimeValue(year: 2021, month: 6, dayOfMonth: 14, hour: 12, minute: 13, second: 14, offset: 0)!

    @Test(arguments: [
        "2021-06-14T12:13:14Z", "2021-06-14t12:13:14z", "2021-06-14T12:13:14.000000000Z", "2021-06-14T12:13:14.Z",
        "2021-06-14T14:13:14+02:00", "2021-06-14T14:13:14+02:00:00", "2021-06-14T12:13:14-00:00", "2021-06-14T12:13:14+00",
        "2021-06-14T12:13:14Z[UTC]", "2021-06-14T12:13:14Z[Europe/Paris]", "2021-06-14T12:13:14Z[+02:00]",
        "2021-06-14T10:13:14-02:00[Etc/UTC]", "Mon, 14 Jun 2021 12:13:14 GMT", "mon, 14 jun 2021 12:13:14 gmt",
        "14 Jun 2021 12:13:14 GMT", "Mon, 14 Jun 2021 14:13:14 +0200", "Monday, 14-Jun-21 12:13:14 GMT",
        "Monday, 14-Jun-21 12:13:14 Z", "Mon Jun 14 12:13:14 2021",
    ])
    func zonedFormatsWireMockReadsAreOneInstant(text: String) throws {
        let value = try #require(DateTimeValue.zoned(text), "\(text)")
        #expect(DateTimeValue.isSameInstant(value, Self.reference), "\(text) read as \(value.description)")
    }

    @Test(arguments: [
        "2021-06-14T12:13:14", "2021-06-14", "2021-06-14T12:13:14+0200", "2021-06-14T12:13:14+0", "2021-06-14T12:13:14+18:01",
        "2021-06-14T24:00:00Z", "2021-06-14T12:13:60Z", "2021-02-29T00:00:00Z", "+2021-06-14T12:13:14Z", "20210-06-14T12:13:14Z",
        "2021-06-14 12:13:14Z", "2021-6-14T12:13:14Z", "2021-06-14T12:13:14.0000000000Z", "2021-06-14T12:13:14,5Z",
        "2021-06-14T12:13:14Z[Nowhere City]", "2021-06-14T12:13:14Z[", "Tue, 14 Jun 2021 12:13:14 GMT",
        "Mon,  14 Jun 2021 12:13:14 GMT", "Mon, 14 Jun 2021 12:13:14 UTC", "Mon, 14 June 2021 12:13:14 GMT",
        "Mon, 14 Jun 2021 12:13:14 +02:00", "monday, 14-Jun-21 12:13:14 GMT", "Monday, 14-Jun-2021 12:13:14 GMT",
        "Monday, 14-Jun-21 12:13:14 PST", "Sun Jun 6 12:13:14 2021", "20210614T121314Z", "", "garbage",
    ])
    func textsWireMockCannotReadZonedAreNotRead(text: String) {
        #expect(DateTimeValue.zoned(text) == nil, "\(text)")
    }

    @Test func localDateTimesAndDatesAreTheirFields() throws {
        let local = try #require(DateTimeValue.local("2021-06-14T12:13:14.5"))
        #expect(local.offset == nil)
        #expect(local.description == "2021-06-14T12:13:14.500") // as Java prints it
        #expect(DateTimeValue.local("2021-06-14")?.description == "2021-06-14T00:00:00")
        #expect(DateTimeValue.local("2021-06-14T12:13")?.description == "2021-06-14T12:13:00")
        #expect(DateTimeValue.local("2021-06-14T12:13:14Z") == nil)
        #expect(DateTimeValue.local("2021-06-14T12") == nil)
        #expect(DateTimeValue.local("+10000-01-01")?.description == "+10000-01-01T00:00:00")
        #expect(DateTimeValue.local("-0001-01-01")?.description == "-0001-01-01T00:00:00")
        // A fixed zone moves the fields to its offset, as Java does; a region keeps the offset written.
        #expect(DateTimeValue.zoned("2021-06-14T12:13:14+02:00[UTC]")?.description == "2021-06-14T10:13:14Z")
        #expect(DateTimeValue.zoned("2021-06-14T12:13:14+02:00[Europe/Paris]")?.description == "2021-06-14T12:13:14+02:00")
        #expect(DateTimeValue.zoned("2021-06-14T14:13:14Z[+02:00]")?.description == "2021-06-14T16:13:14+02:00")
    }

    @Test func monthsAndYearsKeepTheDayWhenTheMonthHasIt() throws {
        let january31 = try #require(DateTimeValue(year: 2021, month: 1, dayOfMonth: 31, hour: 10))
        #expect(january31.plus(1, .months)?.description == "2021-02-28T10:00:00")
        #expect(january31.plus(13, .months)?.description == "2022-02-28T10:00:00")
        #expect(january31.plus(-2, .months)?.description == "2020-11-30T10:00:00")
        let leapDay = try #require(DateTimeValue(year: 2020, month: 2, dayOfMonth: 29, offset: 3600))
        #expect(leapDay.plus(1, .years)?.description == "2021-02-28T00:00:00+01:00")
        #expect(leapDay.plus(4, .years)?.description == "2024-02-29T00:00:00+01:00")
        #expect(leapDay.plus(-1, .seconds)?.description == "2020-02-28T23:59:59+01:00")
        #expect(leapDay.plus(25, .hours)?.description == "2020-03-01T01:00:00+01:00")
        #expect(leapDay.plus(-1_000_000, .days)?.description == "-0718-04-03T00:00:00+01:00")
    }

    @Test func truncationsAreWireMocksInTheValuesOwnOffset() throws {
        let value = try #require(DateTimeValue.zoned("2021-12-14T23:45:56.789+02:00"))
        let expected: [(DateTimeTruncation, String)] = [
            (.firstSecondOfMinute, "2021-12-14T23:45:00+02:00"), (.firstMinuteOfHour, "2021-12-14T23:00:00+02:00"),
            (.firstHourOfDay, "2021-12-14T00:00:00+02:00"), (.firstDayOfMonth, "2021-12-01T00:00:00+02:00"),
            (.firstDayOfNextMonth, "2022-01-01T00:00:00+02:00"), (.lastDayOfMonth, "2021-12-31T00:00:00+02:00"),
            (.firstDayOfYear, "2021-01-01T00:00:00+02:00"), (.firstDayOfNextYear, "2022-01-01T00:00:00+02:00"),
            (.lastDayOfYear, "2021-12-31T00:00:00+02:00"),
        ]
        for (truncation, text) in expected { #expect(value.truncated(truncation)?.description == text, "\(truncation)") }
        #expect(DateTimeTruncation(wireMockName: "FIRST_DAY_OF_MONTH") == .firstDayOfMonth)
        #expect(DateTimeTruncation(wireMockName: "First Day of Month") == .firstDayOfMonth)
        #expect(DateTimeTruncation(wireMockName: "first_day_of_month") == .firstDayOfMonth)
        #expect(DateTimeTruncation(wireMockName: "first day of the month") == nil)
        #expect(DateTimeUnit(wireMockName: "Days") == .days)
        #expect(DateTimeUnit(wireMockName: "day") == nil)
        #expect(DateTimeUnit(wireMockName: "weeks") == nil)
    }

    /// Java's `ChronoUnit.YEARS.between`, which WireMock's date distance counts (checked with jshell).
    @Test func wholeYearsCountAsJavaCountsThem() throws {
        func years(_ start: String, _ end: String) throws -> Int {
            let from = try #require(DateTimeValue.local(start) ?? DateTimeValue.zoned(start))
            return from.yearsUntil(try #require(DateTimeValue.local(end) ?? DateTimeValue.zoned(end)))
        }
        #expect(try years("2020-01-01T10:00", "2021-01-01T09:00") == 0)
        #expect(try years("2020-01-01T10:00", "2021-01-01T10:00") == 1)
        #expect(try years("2021-01-01T00:00", "2020-01-02T00:00") == 0)
        #expect(try years("2021-01-01T00:00", "2019-12-31T00:00") == -1)
        #expect(try years("2021-01-01T00:00Z", "2022-01-01T00:30+01:00") == 0) // read at the start's offset: 23:30
        #expect(try years("2020-02-29T00:00", "2021-02-28T00:00") == 0)
        #expect(try years("-999999999-01-01T00:00", "+999999999-12-31T00:00") == 1_999_999_998)
    }

    /// HOSTILE.md's dates far away: the ends of Java's years, offsets that leave them, every edge answered by nil,
    /// never a trap.
    @Test func theEndsOfJavasYearsAreHeldAndNothingTraps() throws {
        let last = try #require(DateTimeValue.zoned("+999999999-12-31T23:59:59.999999999Z"))
        #expect(last.plus(1, .seconds) == nil)
        #expect(last.plus(1, .days) == nil)
        #expect(last.plus(1, .months) == nil)
        #expect(last.plus(Int32.max, .years) == nil)
        #expect(last.truncated(.firstDayOfNextYear) == nil)
        #expect(last.truncated(.firstDayOfNextMonth) == nil)
        #expect(last.truncated(.lastDayOfYear)?.description == "+999999999-12-31T00:00:00Z")
        let first = try #require(DateTimeValue.zoned("-999999999-01-01T00:00:00+18:00"))
        #expect(first.plus(-1, .seconds) == nil)
        #expect(first.plus(Int32.min, .years) == nil)
        #expect(first.plus(Int32.min, .months) == nil)
        #expect(first.plus(Int32.min, .days) == nil)
        #expect(first < last)
        #expect(DateTimeValue.zoned("+1000000000-01-01T00:00:00Z") == nil)
        #expect(DateTimeValue.zoned(String(repeating: "9", count: 10_000) + "-01-01T00:00:00Z") == nil)
        #expect(DateTimeValue(epochMilliseconds: Int.max)?.date.year == 292_278_994)
        #expect(DateTimeValue(epochMilliseconds: Int.min)?.date.year == -292_275_055)
        #expect(DateTimeValue.now(milliseconds: .nan).description == "1970-01-01T00:00:00Z")
        #expect(DateTimeValue.now(milliseconds: .infinity).description == "1970-01-01T00:00:00Z")
        #expect(DateTimeValue.now(milliseconds: 1e300).date.year == 9999)
        let now = DateTimeValue.now()
        for amount in [Int32.max, Int32.min, 0, 1, -1] {
            for unit in DateTimeUnit.allCases { _ = now.plus(amount, unit) }
        }
    }
}
