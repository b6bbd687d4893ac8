import Foundation
import Testing

@testable import AutomationSupport

/// The calendars Java prints dates in, checked against Foundation's (proleptic Gregorian) and known Julian dates,
/// and at the ends of the range: no instant or shift traps.
@Suite struct CivilCalendarTests {
    @Test func gregorianDaysRoundTripAndAgreeWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: -3_000_000, through: 3_000_000, by: 9_973) {
            let date = CivilCalendar.gregorianDate(days: days)
            #expect(CivilCalendar.gregorianDays(year: date.year, month: date.month, day: date.day) == days)
            #expect(
                CivilCalendar.julianDays(
                    year: CivilCalendar.julianDate(days: days).year, month: CivilCalendar.julianDate(days: days).month,
                    day: CivilCalendar.julianDate(days: days).day) == days)
        }
        for days in stride(from: -100_000, through: 100_000, by: 997) {
            let components = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let fields = CivilCalendar.fields(milliseconds: days * 86_400_000, offsetSeconds: 0, julianBeforeCutover: false)
            #expect(fields.month == components.month && fields.day == components.day, "\(days)")
            #expect(fields.weekday == (components.weekday! + 5) % 7 + 1, "\(days)") // Foundation: 1 is Sunday
        }
    }

    @Test func gregorianCalendarIsJulianBeforeTheCutover() {
        let lastJulian = CivilCalendar.fields(
            milliseconds: (CivilCalendar.gregorianCutover - 1) * 86_400_000, offsetSeconds: 0, julianBeforeCutover: true)
        #expect((lastJulian.year, lastJulian.month, lastJulian.day, lastJulian.weekday) == (1582, 10, 4, 4)) // Thursday 4 October
        let first = CivilCalendar.fields(
            milliseconds: CivilCalendar.gregorianCutover * 86_400_000, offsetSeconds: 0, julianBeforeCutover: true)
        #expect((first.year, first.month, first.day, first.weekday) == (1582, 10, 15, 5)) // Friday 15 October
        let proleptic = CivilCalendar.fields(
            milliseconds: (CivilCalendar.gregorianCutover - 1) * 86_400_000, offsetSeconds: 0, julianBeforeCutover: false)
        #expect((proleptic.year, proleptic.month, proleptic.day) == (1582, 10, 14))
        // 1 January of year 1 (Gregorian) is 3 January in the Julian calendar.
        let one = CivilCalendar.gregorianDays(year: 1, month: 1, day: 1)
        let julian = CivilCalendar.fields(milliseconds: one * 86_400_000, offsetSeconds: 0, julianBeforeCutover: true)
        #expect((julian.year, julian.month, julian.day) == (1, 1, 3))
    }

    @Test func fieldsBeforeNineteenSeventyRoundDown() {
        let fields = CivilCalendar.fields(milliseconds: -1, offsetSeconds: 0, julianBeforeCutover: false)
        #expect((fields.year, fields.month, fields.day) == (1969, 12, 31))
        #expect((fields.hour, fields.minute, fields.second, fields.millisecond) == (23, 59, 59, 999))
        let east = CivilCalendar.fields(milliseconds: 0, offsetSeconds: 5 * 3600 + 1800, julianBeforeCutover: false)
        #expect((east.hour, east.minute, east.offsetSeconds) == (5, 30, 19_800))
    }

    @Test func monthsAreAddedAsJavaTimeAddsThem() {
        let january31 = CivilCalendar.milliseconds(year: 2021, month: 1, day: 31, hour: 10)!
        let february = CivilCalendar.fields(
            milliseconds: CivilCalendar.adding(months: 1, to: january31)!, offsetSeconds: 0, julianBeforeCutover: false)
        #expect((february.month, february.day, february.hour) == (2, 28, 10))
        let leap = CivilCalendar.milliseconds(year: 2024, month: 2, day: 29)!
        let year = CivilCalendar.fields(
            milliseconds: CivilCalendar.adding(months: 12, to: leap)!, offsetSeconds: 0, julianBeforeCutover: false)
        #expect((year.year, year.month, year.day) == (2025, 2, 28))
        let back = CivilCalendar.fields(
            milliseconds: CivilCalendar.adding(months: -13, to: leap)!, offsetSeconds: 0, julianBeforeCutover: false)
        #expect((back.year, back.month, back.day) == (2023, 1, 29))
    }

    @Test func theEndsOfTheRangeNeverTrap() {
        for milliseconds in [CivilCalendar.range.lowerBound, CivilCalendar.range.upperBound, 0, -1] {
            for julian in [true, false] {
                let fields = CivilCalendar.fields(milliseconds: milliseconds, offsetSeconds: 18 * 3600, julianBeforeCutover: julian)
                #expect((1...12).contains(fields.month) && (1...31).contains(fields.day) && (1...7).contains(fields.weekday))
                #expect((1...366).contains(fields.dayOfYear))
                let west = CivilCalendar.fields(milliseconds: milliseconds, offsetSeconds: -18 * 3600, julianBeforeCutover: julian)
                #expect((1...12).contains(west.month))
            }
            for months in [Int(Int32.max), Int(Int32.min), Int(Int32.max) * 12, Int.max, Int.min, 1, -1] {
                if let shifted = CivilCalendar.adding(months: months, to: milliseconds) { #expect(CivilCalendar.range.contains(shifted)) }
            }
        }
        #expect(CivilCalendar.adding(months: 1, to: CivilCalendar.range.upperBound) == nil)
        #expect(CivilCalendar.adding(months: 0, to: Int.max) == nil)
        #expect(CivilCalendar.milliseconds(year: Int.max, month: 1, day: 1) == nil)
        #expect(CivilCalendar.milliseconds(year: 2021, month: 13, day: 1) == nil)
    }
}
