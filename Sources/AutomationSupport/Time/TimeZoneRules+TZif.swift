/// A TZif file (RFC 8536) as lookups need it: the transitions (64-bit section when the file has one), each
/// transition's offset and abbreviation, and the POSIX TZ rule of its footer for instants after the last one.
/// Every count and index is checked against the file's size before use: a damaged file is nil, never a trap.
struct TZifTable: Sendable {
    struct LocalType: Sendable {
        var offset: Int
        var abbreviation: String
    }

    let transitions: [Int]
    let typeIndices: [Int]
    let types: [LocalType]
    let footer: PosixTimeZoneRule?

    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var use = header
        if header.version >= UInt8(ascii: "2") {
            guard reader.skip(header.dataSize(timeSize: 4)), let second = reader.header() else { return nil }
            use = second
        }
        let timeSize = header.version >= UInt8(ascii: "2") ? 8 : 4
        guard use.typeCount >= 1, use.typeCount <= 256, use.timeCount <= 100_000, use.charCount <= 1024,
            reader.remaining >= use.dataSize(timeSize: timeSize)
        else { return nil }
        var transitions: [Int] = []
        for _ in 0..<use.timeCount { transitions.append(reader.signed(timeSize)) }
        var indices: [Int] = []
        for _ in 0..<use.timeCount {
            let index = Int(reader.byte())
            guard index < use.typeCount else { return nil }
            indices.append(index)
        }
        var raw: [(offset: Int, abbreviationIndex: Int)] = []
        for _ in 0..<use.typeCount {
            let offset = reader.signed(4)
            _ = reader.byte() // is DST
            let abbreviationIndex = Int(reader.byte())
            guard abs(offset) <= 26 * 3600, abbreviationIndex < max(use.charCount, 1) else { return nil }
            raw.append((offset, abbreviationIndex))
        }
        let characters = reader.take(use.charCount)
        _ = reader.skip(use.leapCount * (timeSize + 4) + use.standardCount + use.universalCount)
        self.transitions = transitions
        self.typeIndices = indices
        self.types = raw.map { type in
            let tail = characters.dropFirst(type.abbreviationIndex)
            let name = tail.prefix { $0 != 0 }
            return LocalType(offset: type.offset, abbreviation: String(decoding: name, as: UTF8.self))
        }
        var footer: PosixTimeZoneRule?
        if timeSize == 8, let rest = reader.rest(), rest.first == 0x0A, let end = rest.dropFirst().firstIndex(of: 0x0A) {
            footer = PosixTimeZoneRule(String(decoding: rest[rest.index(after: rest.startIndex)..<end], as: UTF8.self))
        }
        self.footer = footer
        guard transitions == transitions.sorted() else { return nil }
    }

    /// The offset and abbreviation at `seconds` since 1970 (UTC).
    func local(atUTC seconds: Int) -> LocalType {
        guard let last = transitions.last else { return footer?.local(atUTC: seconds) ?? types[0] }
        if seconds < transitions[0] { return types[0] }
        if seconds >= last, let footer { return footer.local(atUTC: seconds) }
        var low = 0
        var high = transitions.count - 1
        while low < high { // the last transition at or before `seconds`
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return types[typeIndices[low]]
    }

    struct Header {
        var version: UInt8
        var universalCount, standardCount, leapCount, timeCount, typeCount, charCount: Int

        func dataSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + standardCount + universalCount
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        var remaining: Int { bytes.count - index }

        mutating func header() -> Header? {
            guard remaining >= 44, bytes[index..<index + 4].elementsEqual("TZif".utf8) else { return nil }
            let version = bytes[index + 4]
            index += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                let value = signed(4)
                guard value >= 0, value <= 1 << 20 else { return nil }
                counts.append(value)
            }
            return Header(
                version: version, universalCount: counts[0], standardCount: counts[1], leapCount: counts[2], timeCount: counts[3],
                typeCount: counts[4], charCount: counts[5])
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= remaining else { return false }
            index += count
            return true
        }

        /// A big-endian two's-complement integer of `size` bytes (4 or 8); the caller checked `remaining`.
        mutating func signed(_ size: Int) -> Int {
            var value: UInt64 = 0
            for _ in 0..<size {
                value = value << 8 | UInt64(bytes[index])
                index += 1
            }
            return size == 4 ? Int(Int32(truncatingIfNeeded: value)) : Int(Int64(bitPattern: value))
        }

        mutating func byte() -> UInt8 {
            defer { index += 1 }
            return bytes[index]
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8> {
            defer { index += count }
            return bytes[index..<index + count]
        }

        func rest() -> ArraySlice<UInt8>? { index < bytes.count ? bytes[index...] : nil }
    }
}

/// A POSIX TZ string as TZif footers write it (`AEST-10AEDT,M10.1.0,M4.1.0/3`): standard and daylight names and
/// offsets, and when daylight time starts and ends each year (`Mm.w.d`, `Jn`, `n`, each with an optional time).
struct PosixTimeZoneRule: Sendable {
    var standard: TZifTable.LocalType
    var daylight: TZifTable.LocalType?
    var start = Transition(kind: .monthWeekDay(3, 2, 0), seconds: 7200)
    var end = Transition(kind: .monthWeekDay(11, 1, 0), seconds: 7200)

    struct Transition: Sendable {
        enum Kind: Sendable {
            case julianNoLeap(Int)
            case zeroBased(Int)
            case monthWeekDay(Int, Int, Int)
        }

        var kind: Kind
        var seconds: Int

        /// Days since 1970 of the transition's date in `year`.
        func day(in year: Int) -> Int {
            let first = CivilCalendar.gregorianDays(year: year, month: 1, day: 1)
            switch kind {
            case .julianNoLeap(let n): return first + n - 1 + (CivilCalendar.isLeap(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n): return first + n
            case .monthWeekDay(let month, let week, let weekday):
                let firstOfMonth = CivilCalendar.gregorianDays(year: year, month: month, day: 1)
                let firstWeekday = CivilCalendar.floorModulo(firstOfMonth + 4, 7) // 0 is Sunday
                var day = 1 + CivilCalendar.floorModulo(weekday - firstWeekday, 7) + (week - 1) * 7
                let length = CivilCalendar.daysIn(month: month, year: year)
                while day > length { day -= 7 }
                return firstOfMonth + day - 1
            }
        }
    }

    init?(_ text: String) {
        var scanner = PosixScanner(bytes: Array(text.utf8))
        guard let standardName = scanner.name(), let standardOffset = scanner.offset() else { return nil }
        standard = TZifTable.LocalType(offset: -standardOffset, abbreviation: standardName)
        guard !scanner.atEnd else { return }
        guard let daylightName = scanner.name() else { return nil }
        let daylightOffset = scanner.atEnd || scanner.peekIsComma ? standardOffset - 3600 : scanner.offset()
        guard let daylightOffset else { return nil }
        daylight = TZifTable.LocalType(offset: -daylightOffset, abbreviation: daylightName)
        if scanner.atEnd { return }
        guard scanner.expect(","), let start = scanner.transition(), scanner.expect(","), let end = scanner.transition(), scanner.atEnd
        else { return nil }
        self.start = start
        self.end = end
    }

    func local(atUTC seconds: Int) -> TZifTable.LocalType {
        guard let daylight else { return standard }
        let year = CivilCalendar.gregorianDate(days: CivilCalendar.floorDivide(seconds + standard.offset, 86_400)).year
        let starts = start.day(in: year) * 86_400 + start.seconds - standard.offset
        let ends = end.day(in: year) * 86_400 + end.seconds - daylight.offset
        let inDaylight = starts < ends ? (seconds >= starts && seconds < ends) : (seconds < ends || seconds >= starts)
        return inDaylight ? daylight : standard
    }
}

/// Reads the pieces of a POSIX TZ string.
private struct PosixScanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var peekIsComma: Bool { index < bytes.count && bytes[index] == UInt8(ascii: ",") }

    mutating func expect(_ character: Character) -> Bool {
        guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
        index += 1
        return true
    }

    /// `AEST` or `<+0530>`.
    mutating func name() -> String? {
        let start = index
        if expect("<") {
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
            guard index < bytes.count else { return nil }
            index += 1
            return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        }
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") { index += 1 }
        return index - start >= 3 ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    mutating func number(maxDigits: Int) -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < maxDigits {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        return index > start ? value : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds (POSIX: positive west of Greenwich), hours up to 167.
    mutating func offset() -> Int? {
        var sign = 1
        if expect("-") { sign = -1 } else { _ = expect("+") }
        guard let hours = number(maxDigits: 3), hours <= 167 else { return nil }
        var seconds = hours * 3600
        if expect(":") {
            guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if expect(":") {
                guard let rest = number(maxDigits: 2), rest < 60 else { return nil }
                seconds += rest
            }
        }
        return sign * seconds
    }

    mutating func transition() -> PosixTimeZoneRule.Transition? {
        let kind: PosixTimeZoneRule.Transition.Kind
        if expect("M") {
            guard let month = number(maxDigits: 2), (1...12).contains(month), expect("."), let week = number(maxDigits: 1),
                (1...5).contains(week), expect("."), let day = number(maxDigits: 1), day <= 6
            else { return nil }
            kind = .monthWeekDay(month, week, day)
        } else if expect("J") {
            guard let day = number(maxDigits: 3), (1...365).contains(day) else { return nil }
            kind = .julianNoLeap(day)
        } else {
            guard let day = number(maxDigits: 3), day <= 365 else { return nil }
            kind = .zeroBased(day)
        }
        var seconds = 7200
        if expect("/") {
            guard let time = offset() else { return nil }
            seconds = time
        }
        return PosixTimeZoneRule.Transition(kind: kind, seconds: seconds)
    }
}
