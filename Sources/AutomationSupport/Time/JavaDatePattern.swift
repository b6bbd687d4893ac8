/// A Java date pattern, in one of the two dialects Java has: `SimpleDateFormat` (WireMock's `now`/`date`
/// `format=`) and `DateTimeFormatter` (WireMock's `parseDate format=`, Handlebars' `dateFormat`). The letters
/// supported are G y u M L d D E a H h K k m s S z Z X x VV, `'quoted text'` and `''`; a letter Java knows but this
/// does not (week-based fields, long zone names, optional sections) and a letter Java refuses are refused when the
/// pattern is compiled, with a message naming it. English names, as Java prints them in the `en_US` locale.
package struct JavaDatePattern: Sendable {
    package enum Dialect: Sendable {
        case simpleDateFormat
        case dateTimeFormatter
    }

    enum Token: Sendable, Equatable {
        case literal(String)
        case field(UInt8, Int)
    }

    package struct Error: Swift.Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package let source: String
    package let dialect: Dialect
    let tokens: [Token]

    package init(_ pattern: String, dialect: Dialect) throws(Error) {
        source = pattern
        self.dialect = dialect
        tokens = try Self.tokens(of: pattern, dialect: dialect)
    }

    private static func tokens(of pattern: String, dialect: Dialect) throws(Error) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        var literal = ""
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = ""
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                index += 1
                if index < scalars.count && scalars[index] == "'" {
                    literal += "'"
                    index += 1
                    continue
                }
                while true {
                    guard index < scalars.count else {
                        throw Error(description: "the pattern '\(pattern.prefix(80))' has an unterminated quote")
                    }
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count && scalars[index + 1] == "'" {
                            literal += "'"
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    literal.unicodeScalars.append(scalars[index])
                    index += 1
                }
                continue
            }
            guard scalar.isASCII, scalar.properties.isAlphabetic else {
                if dialect == .dateTimeFormatter, "[]#{}".unicodeScalars.contains(scalar) {
                    throw Error(
                        description:
                            "'\(scalar)' in the pattern '\(pattern.prefix(80))' is not supported (optional sections and reserved characters)"
                    )
                }
                literal.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            var count = 1
            while index + count < scalars.count && scalars[index + count] == scalar { count += 1 }
            flush()
            let letter = UInt8(scalar.value)
            try check(letter, count, dialect: dialect, pattern: pattern)
            tokens.append(.field(letter == UInt8(ascii: "L") ? UInt8(ascii: "M") : letter, count))
            index += count
        }
        flush()
        return tokens
    }

    /// The letters each dialect formats here, and the most of each a pattern may repeat.
    private static let supported: [Dialect: [UInt8: Int]] = [
        .simpleDateFormat: Dictionary(
            uniqueKeysWithValues: "GyMLdDEuaHhKkmsSzZ".utf8.map { ($0, Int.max) } + [(UInt8(ascii: "X"), 3)]),
        .dateTimeFormatter: [
            UInt8(ascii: "G"): 5, UInt8(ascii: "u"): 19, UInt8(ascii: "y"): 19, UInt8(ascii: "D"): 3, UInt8(ascii: "M"): 5,
            UInt8(ascii: "L"): 5, UInt8(ascii: "d"): 2, UInt8(ascii: "E"): 5, UInt8(ascii: "a"): 1, UInt8(ascii: "h"): 2,
            UInt8(ascii: "K"): 2, UInt8(ascii: "k"): 2, UInt8(ascii: "H"): 2, UInt8(ascii: "m"): 2, UInt8(ascii: "s"): 2,
            UInt8(ascii: "S"): 9, UInt8(ascii: "z"): 3, UInt8(ascii: "Z"): 5, UInt8(ascii: "X"): 5, UInt8(ascii: "x"): 5,
            UInt8(ascii: "V"): 2,
        ],
    ]
    /// Letters Java knows in each dialect (the others it refuses too).
    private static let known: [Dialect: String] = [
        .simpleDateFormat: "GyYMLwWDdFEuaHkKhmsSzZX", .dateTimeFormatter: "GuyDMLdQqYwWEecFahKkHmsSAnNVvzOXxZpB",
    ]

    private static func check(_ letter: UInt8, _ count: Int, dialect: Dialect, pattern: String) throws(Error) {
        let name = String(decoding: [letter], as: UTF8.self)
        let written = String(repeating: name, count: min(count, 9))
        let place = "in the date pattern '\(pattern.prefix(80))'"
        guard let most = supported[dialect]?[letter] else {
            if known[dialect]?.utf8.contains(letter) == true {
                throw Error(
                    description:
                        "'\(written)' \(place) is not supported here (supported: G y u M d D E a H h K k m s S z Z X x VV and 'quoted text')"
                )
            }
            throw Error(description: "'\(name)' \(place) is not a pattern letter (quote text: 'T')")
        }
        if letter == UInt8(ascii: "z") && count >= 4 && dialect == .simpleDateFormat {
            throw Error(description: "'zzzz' \(place) is not supported here (long time zone names); use z, Z or X")
        }
        if letter == UInt8(ascii: "V") && count != 2 {
            throw Error(description: "'\(written)' \(place): write VV for the zone ID")
        }
        guard count <= most else {
            throw Error(description: "'\(written)' \(place) is too many pattern letters: at most \(most)")
        }
    }
}

// MARK: - Formatting

extension JavaDatePattern {
    /// The text of `fields` (seen in a zone whose short name is `zoneName` and ID `zoneID`).
    package func format(_ fields: CivilCalendar.Fields, zoneName: String, zoneID: String) -> String {
        var text = ""
        for token in tokens {
            switch token {
            case .literal(let literal): text += literal
            case .field(let letter, let count):
                text +=
                    dialect == .simpleDateFormat
                    ? simple(letter, count, fields, zoneName) : modern(letter, count, fields, zoneName, zoneID)
            }
        }
        return text
    }

    private func simple(_ letter: UInt8, _ count: Int, _ fields: CivilCalendar.Fields, _ zoneName: String) -> String {
        let yearOfEra = fields.year > 0 ? fields.year : 1 - fields.year
        switch Character(Unicode.Scalar(letter)) {
        case "G": return fields.year > 0 ? "AD" : "BC"
        case "y": return count == 2 ? Self.pad(yearOfEra % 100, 2) : Self.pad(yearOfEra, count)
        case "M": return count >= 3 ? Self.name(CivilCalendar.monthNames[fields.month - 1], count) : Self.pad(fields.month, count)
        case "E": return Self.name(CivilCalendar.weekdayNames[fields.weekday - 1], count)
        case "u": return Self.pad(fields.weekday, count)
        case "S": return Self.pad(fields.millisecond, count)
        case "a": return fields.hour < 12 ? "AM" : "PM"
        case "z": return zoneName
        case "Z": return Self.offset(fields.offsetSeconds, hours: 2, minutes: true, colon: false, seconds: false)
        case "X":
            if fields.offsetSeconds == 0 { return "Z" }
            return Self.offset(fields.offsetSeconds, hours: 2, minutes: count > 1, colon: count == 3, seconds: false)
        default: return Self.pad(Self.number(letter, fields), count)
        }
    }

    private func modern(_ letter: UInt8, _ count: Int, _ fields: CivilCalendar.Fields, _ zoneName: String, _ zoneID: String) -> String {
        let offset = fields.offsetSeconds
        switch Character(Unicode.Scalar(letter)) {
        case "G":
            let long = fields.year > 0 ? "Anno Domini" : "Before Christ"
            return count == 4 ? long : count == 5 ? String(long.prefix(1)) : (fields.year > 0 ? "AD" : "BC")
        case "y", "u":
            let value = letter == UInt8(ascii: "y") && fields.year <= 0 ? 1 - fields.year : fields.year
            if count == 2 { return Self.pad(abs(value) % 100, 2) } // ReducedPrinterParser keeps |value| % 100
            let digits = Self.pad(abs(value), count)
            return (value < 0 ? "-" : count >= 4 && digits.count > count ? "+" : "") + digits
        case "M":
            guard count >= 3 else { return Self.pad(fields.month, count) }
            let name = CivilCalendar.monthNames[fields.month - 1]
            return count == 5 ? String(name.prefix(1)) : Self.name(name, count)
        case "E":
            let name = CivilCalendar.weekdayNames[fields.weekday - 1]
            return count == 5 ? String(name.prefix(1)) : Self.name(name, count)
        case "S":
            let digits = Self.pad(fields.millisecond, 3) + "000000"
            return String(digits.prefix(count))
        case "a": return fields.hour < 12 ? "AM" : "PM"
        case "z": return zoneName
        case "V": return zoneID
        case "Z":
            if count == 4 { return offset == 0 ? "GMT" : "GMT" + Self.offset(offset, hours: 2, minutes: true, colon: true, seconds: true) }
            if count == 5 { return offset == 0 ? "Z" : Self.offset(offset, hours: 2, minutes: true, colon: true, seconds: true) }
            return Self.offset(offset, hours: 2, minutes: true, colon: false, seconds: false)
        case "X", "x":
            if offset == 0 && letter == UInt8(ascii: "X") { return "Z" }
            let minutes = count > 1 || offset % 3600 != 0
            return Self.offset(offset, hours: 2, minutes: minutes, colon: count == 3 || count == 5, seconds: count >= 4)
        default: return Self.pad(Self.number(letter, fields), count)
        }
    }

    /// The numeric fields both dialects print alike.
    private static func number(_ letter: UInt8, _ fields: CivilCalendar.Fields) -> Int {
        switch Character(Unicode.Scalar(letter)) {
        case "d": fields.day
        case "D": fields.dayOfYear
        case "H": fields.hour
        case "k": fields.hour == 0 ? 24 : fields.hour
        case "K": fields.hour % 12
        case "h": fields.hour % 12 == 0 ? 12 : fields.hour % 12
        case "m": fields.minute
        case "s": fields.second
        default: 0
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A month or day name: three letters below four pattern letters, in full from four.
    static func name(_ full: String, _ count: Int) -> String { count >= 4 ? full : String(full.prefix(3)) }

    /// `+05:30`, `+0530`, `+05`, with seconds when asked and not zero.
    static func offset(_ seconds: Int, hours: Int, minutes: Bool, colon: Bool, seconds withSeconds: Bool) -> String {
        let magnitude = abs(seconds)
        var text = (seconds < 0 ? "-" : "+") + pad(magnitude / 3600, hours)
        if minutes { text += (colon ? ":" : "") + pad(magnitude / 60 % 60, 2) }
        if withSeconds && magnitude % 60 != 0 { text += (colon ? ":" : "") + pad(magnitude % 60, 2) }
        return text
    }
}
