#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time in milliseconds since 1970, and its ISO 8601 form (UTC), for logs clients read.
package enum WallClock {
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// The earliest and latest instants written and read: 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
    package static let range: ClosedRange<Double> = -62_167_219_200_000...253_402_300_799_999

    /// `2026-11-23T14:03:05.123Z`. Times outside ``range`` (and NaN) are written as its nearest end: never a trap.
    package static func iso8601(milliseconds: Double) -> String {
        let clamped = milliseconds.isNaN ? 0 : min(max(milliseconds, range.lowerBound), range.upperBound)
        let total = Int(clamped.rounded(.down))
        let days = total >= 0 ? total / 86_400_000 : (total - 86_399_999) / 86_400_000
        let inDay = total - days * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2))"
            + ":\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
    }

    /// Milliseconds since 1970 for an RFC 3339 / ISO 8601 date-time: `2026-11-23T14:03:05Z`, with an optional
    /// fraction (`.123`, up to 9 digits), seconds optional, `Z` or an offset up to ±18:00 (`+01:00`). Years 0000 to
    /// 9999, real calendar dates, hours 00–23 (`24:00` is refused), a leap second `23:59:60` read as `23:59:59.999`.
    /// nil for anything else: every field is read in its range, so no input can trap.
    package static func milliseconds(iso8601 text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2), expect("Tt"),
            let hour = digits(2), expect(":"), let minute = digits(2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if expect(":") {
            guard let value = digits(2) else { return nil }
            second = value
            if expect(".") {
                let start = index
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39, index - start < 9 { index += 1 }
                guard index > start else { return nil }
                fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
            }
        }
        var offsetMinutes = 0
        if !expect("Zz") {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = digits(2), expect(":"), let minutes = digits(2), hours <= 18, minutes <= 59, hours * 60 + minutes <= 18 * 60
            else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard index == bytes.count, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 59 || (second == 60 && minute == 59)
        else { return nil }
        if second == 60 {
            second = 59
            fraction = 0.999
        }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return (Double(seconds) + fraction) * 1000
    }

    /// The days in a month of the proleptic Gregorian calendar (`month` 1–12).
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). No overflow for years
    /// within ±10^12: WireMock's date matchers use it for years within ±999,999,999.
    package static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01 (H. Hinnant's civil_from_days).
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
