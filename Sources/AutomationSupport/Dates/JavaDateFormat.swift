/// A date-time pattern as Java's `DateTimeFormatter.ofPattern` reads it (WireMock's `actualFormat`: `dd/MM/yyyy`,
/// `yyyy-MM-dd'T'HH:mm:ssXXX`), compiled when the mapping loads. The letters supported are those dates are written
/// with: `y u M L d E a H h m s S X x Z`, quoted text, other characters as literals and `[…]` optional sections.
/// Parsing follows Java's: case as written, widths per letter count (adjacent fixed-width fields are reserved, so
/// `yyyyMMdd` reads), and the SMART resolver (a day up to 31 becomes the month's last; a day name must fit the date).
package struct JavaDateFormat: Sendable {
    package let source: String
    private let elements: [Element]

    enum Field: Int, Sendable, CaseIterable {
        /// `u`: the proleptic year; `y`: the year of the era (1 or more, as Java reads it without an era).
        case year, yearOfEra, month, dayOfMonth, dayOfWeek, amPm, hourOfDay, clockHourOfAmPm, minute, second, nano
    }

    enum Sign: Sendable {
        case none
        /// A minus sign allowed (Java's NORMAL).
        case minus
        /// A sign required beyond the minimum width, and only then (Java's EXCEEDS_PAD).
        case exceedsPad
    }

    struct OffsetStyle: Sendable {
        /// `Z` read as zero (the `X` letters; `x` and `Z` want digits).
        var zulu: Bool
        var colon: Bool
        var minutesRequired: Bool
        var secondsAllowed: Bool
    }

    indirect enum Element: Sendable {
        case literal([UInt8])
        case number(Field, min: Int, max: Int, sign: Sign)
        /// `yy`: two digits, 2000–2099.
        case reducedYear
        /// `S…S`: that many digits of the second's fraction.
        case fraction(Int)
        case text(Field, [String])
        case offset(OffsetStyle)
        case optional([Element])

        /// The width a following variable-width number leaves to this one (Java's adjacent value parsing).
        var fixedWidth: Int? {
            switch self {
            case .number(_, let min, let max, _) where min == max: min
            case .reducedYear: 2
            case .fraction(let width): width
            default: nil
            }
        }
    }

    package struct Error: Swift.Error, CustomStringConvertible {
        package var description: String
    }

    /// The pattern, compiled; throws naming what Java refuses (and the letters sut-launch does not read).
    package init(_ pattern: String) throws(Error) {
        source = pattern
        var compiler = Compiler(characters: Array(pattern))
        elements = try compiler.sequence(depth: 0)
        try Self.checkClockHours(elements)
    }

    /// What the text gives: a zoned value when it has a date, a time and an offset; a local one when it has a date
    /// (with the time, else at 00:00), as WireMock's `parseZonedDateTime`/`parseLocalDateTime`/`parseLocalDate` read it.
    package func parse(_ text: String) -> (zoned: DateTimeValue?, local: DateTimeValue?) {
        var scanner = DateScanner(text)
        var fields = Fields()
        guard Self.read(elements, &scanner, &fields), scanner.atEnd else { return (nil, nil) }
        return fields.resolve()
    }

    private static func read(_ elements: [Element], _ scanner: inout DateScanner, _ fields: inout Fields) -> Bool {
        for (position, element) in elements.enumerated() {
            switch element {
            case .literal(let bytes):
                guard scanner.skip(String(decoding: bytes, as: UTF8.self)) else { return false }
            case .number(let field, let min, let max, let sign):
                var reserved = 0
                for following in elements[(position + 1)...] {
                    guard let width = following.fixedWidth else { break }
                    reserved += width
                }
                guard let value = number(&scanner, min: min, max: max, sign: sign, reserved: reserved), fields.set(field, value)
                else { return false }
            case .reducedYear:
                guard let value = scanner.fixed(2), fields.set(.year, 2000 + value) else { return false }
            case .fraction(let width):
                guard var value = scanner.fixed(width) else { return false }
                for _ in width..<9 { value *= 10 }
                guard fields.set(.nano, value) else { return false }
            case .text(let field, let names):
                guard let index = scanner.name(names, caseInsensitive: false), fields.set(field, field == .month ? index + 1 : index)
                else { return false }
            case .offset(let style):
                guard let offset = offset(&scanner, style), fields.setOffset(offset) else { return false }
            case .optional(let inner):
                let (savedIndex, savedFields) = (scanner.index, fields)
                if !read(inner, &scanner, &fields) { (scanner.index, fields) = (savedIndex, savedFields) }
            }
        }
        return true
    }

    private static func number(_ scanner: inout DateScanner, min: Int, max: Int, sign: Sign, reserved: Int) -> Int? {
        var negative = false
        var signed = false
        if let next = scanner.next, next == UInt8(ascii: "-") || (next == UInt8(ascii: "+") && sign == .exceedsPad), sign != .none {
            negative = next == UInt8(ascii: "-")
            signed = true
            scanner.index += 1
        }
        let available = scanner.digitsAhead - reserved
        let count = Swift.min(available, max, 18)
        guard count >= min else { return nil }
        // EXCEEDS_PAD: a plus sign only beyond the width (`+2021` is refused), digits beyond it only after a sign.
        if sign == .exceedsPad && ((signed && !negative && count <= min) || (!signed && count > min)) { return nil }
        let value = scanner.take(count)
        return negative ? -value : value
    }

    private static func offset(_ scanner: inout DateScanner, _ style: OffsetStyle) -> Int? {
        if style.zulu && scanner.skip("Z") { return 0 }
        guard let sign = scanner.next, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        scanner.index += 1
        guard let hours = scanner.fixed(2) else { return nil }
        var minutes = 0
        var seconds = 0
        let start = scanner.index
        if !style.colon || scanner.skip(":"), let value = scanner.fixed(2) {
            minutes = value
            let beforeSeconds = scanner.index
            if style.secondsAllowed {
                if !style.colon || scanner.skip(":"), let value = scanner.fixed(2) {
                    seconds = value
                } else {
                    scanner.index = beforeSeconds
                }
            }
        } else {
            guard !style.minutesRequired else { return nil }
            scanner.index = start
        }
        return DateScanner.offset(sign: sign, hours, minutes, seconds)
    }

    /// The fields read; each may be written once (twice only with the same value, else Java reports a conflict).
    private struct Fields {
        var values: [Int?] = Array(repeating: nil, count: Field.allCases.count)
        var offset: Int?

        mutating func set(_ field: Field, _ value: Int) -> Bool {
            if let existing = values[field.rawValue], existing != value { return false }
            values[field.rawValue] = value
            return true
        }

        mutating func setOffset(_ value: Int) -> Bool {
            if let offset, offset != value { return false }
            offset = value
            return true
        }

        subscript(_ field: Field) -> Int? { values[field.rawValue] }

        func resolve() -> (zoned: DateTimeValue?, local: DateTimeValue?) {
            if let era = self[.yearOfEra], era < 1 || (self[.year] ?? era) != era { return (nil, nil) }
            guard let year = self[.year] ?? self[.yearOfEra], let month = self[.month], let day = self[.dayOfMonth] else {
                return (nil, nil)
            }
            var hour = self[.hourOfDay]
            if let clock = self[.clockHourOfAmPm], let amPm = self[.amPm] {
                guard (1...12).contains(clock) else { return (nil, nil) }
                let fromClock = clock % 12 + amPm * 12
                if let hour, hour != fromClock { return (nil, nil) }
                hour = fromClock
            }
            guard let hour else {
                let date = DateTimeValue.resolve(year, month, day, 0, 0, 0, offset: nil, weekday: self[.dayOfWeek])
                return (nil, date)
            }
            guard
                let local = DateTimeValue.resolve(
                    year, month, day, hour, self[.minute] ?? 0, self[.second] ?? 0, nano: self[.nano] ?? 0, offset: nil,
                    weekday: self[.dayOfWeek])
            else { return (nil, nil) }
            return (offset.flatMap { DateTimeValue(day: local.day, nanosecond: local.nanosecond, offset: $0) }, local)
        }
    }
}
