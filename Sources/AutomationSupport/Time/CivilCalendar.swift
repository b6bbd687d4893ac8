/// Dates and times of day from milliseconds since 1970 (UTC), in the calendars Java prints them in: the proleptic
/// Gregorian calendar of `java.time`, and `java.util.GregorianCalendar`'s, which is Julian before 1582-10-15 (what
/// `SimpleDateFormat` and WireMock's ISO 8601 writer use). Every computation is in `Int` on instants within
/// ``range``, so no input can overflow one.
package enum CivilCalendar {
    /// The instants handled: ±8,640,000,000,000,000 ms from 1970 (JavaScript's Date range, about ±273,790 years).
    package static let range: ClosedRange<Int> = -8_640_000_000_000_000...8_640_000_000_000_000
    /// 1582-10-15, the first day of the Gregorian calendar in `java.util.GregorianCalendar` (days since 1970).
    package static let gregorianCutover = -141_427
    static let dayMilliseconds = 86_400_000

    /// The fields of one instant seen at one offset from UTC.
    package struct Fields: Sendable, Equatable {
        /// Proleptic: 0 is 1 BC, -1 is 2 BC.
        package var year: Int
        package var month: Int
        package var day: Int
        package var hour: Int
        package var minute: Int
        package var second: Int
        package var millisecond: Int
        /// ISO: 1 is Monday, 7 Sunday.
        package var weekday: Int
        package var dayOfYear: Int
        /// Seconds east of UTC the fields are seen at.
        package var offsetSeconds: Int
    }

    /// The fields of `milliseconds` (within ``range``) at `offsetSeconds`; Julian dates before the cutover
    /// when `julianBeforeCutover` (GregorianCalendar), proleptic Gregorian otherwise (java.time).
    package static func fields(milliseconds: Int, offsetSeconds: Int, julianBeforeCutover: Bool) -> Fields {
        let local = milliseconds + offsetSeconds * 1000
        let days = floorDivide(local, dayMilliseconds)
        let inDay = local - days * dayMilliseconds
        let julian = julianBeforeCutover && days < gregorianCutover
        let (year, month, day) = julian ? julianDate(days: days) : gregorianDate(days: days)
        let firstOfYear = julian ? julianDays(year: year, month: 1, day: 1) : gregorianDays(year: year, month: 1, day: 1)
        return Fields(
            year: year, month: month, day: day, hour: inDay / 3_600_000, minute: inDay / 60_000 % 60, second: inDay / 1000 % 60,
            millisecond: inDay % 1000, weekday: floorModulo(days + 3, 7) + 1, dayOfYear: days - firstOfYear + 1,
            offsetSeconds: offsetSeconds)
    }

    /// Milliseconds since 1970 (UTC) of a proleptic Gregorian local date and time; nil outside ``range``.
    package static func milliseconds(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0
    ) -> Int? {
        guard year.magnitude <= 300_000, (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = gregorianDays(year: year, month: month, day: day)
        let value = days * dayMilliseconds + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond
        return range.contains(value) ? value : nil
    }

    /// `ZonedDateTime.plusMonths(n)` in UTC: the same day of a month `months` later, or that month's last day.
    package static func adding(months: Int, to milliseconds: Int) -> Int? {
        guard range.contains(milliseconds), months.magnitude <= 12 * 300_000 else { return nil }
        let days = floorDivide(milliseconds, dayMilliseconds)
        let inDay = milliseconds - days * dayMilliseconds
        let (year, month, day) = gregorianDate(days: days)
        let total = year * 12 + (month - 1) + months
        let newYear = floorDivide(total, 12)
        let newMonth = total - newYear * 12 + 1
        let newDay = min(day, daysIn(month: newMonth, year: newYear))
        let result = gregorianDays(year: newYear, month: newMonth, day: newDay) * dayMilliseconds + inDay
        return range.contains(result) ? result : nil
    }

    package static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    package static func daysIn(month: Int, year: Int) -> Int { WallClock.daysIn(month: month, year: year) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (WallClock's, H. Hinnant's days_from_civil).
    package static func gregorianDays(year: Int, month: Int, day: Int) -> Int { WallClock.days(fromCivil: year, month, day) }

    /// The proleptic Gregorian date of a day since 1970-01-01 (WallClock's, H. Hinnant's civil_from_days).
    package static func gregorianDate(days: Int) -> (year: Int, month: Int, day: Int) { WallClock.civil(fromDays: days) }

    /// Days since 1970-01-01 of a (proleptic) Julian date, through the Julian day number.
    static func julianDays(year: Int, month: Int, day: Int) -> Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + floorDivide(y, 4) - 32_083 - 2_440_588
    }

    /// The Julian date of a day since 1970-01-01.
    static func julianDate(days: Int) -> (year: Int, month: Int, day: Int) {
        let c = days + 2_440_588 + 32_082
        let d = floorDivide(4 * c + 3, 1461)
        let e = c - floorDivide(1461 * d, 4)
        let m = (5 * e + 2) / 153
        return (d - 4800 + m / 10, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1)
    }

    package static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    package static func floorModulo(_ a: Int, _ b: Int) -> Int { a - floorDivide(a, b) * b }

    package static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    /// Monday first, as ISO numbers the days.
    package static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}
