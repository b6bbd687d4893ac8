/// A time zone as Java names it: `ZoneId.of`'s grammar (`Z`, `+05:30`, `UTC`, `GMT+5`, `Europe/Paris`) and
/// `TimeZone.getTimeZone`'s (which also knows `EST`, `MST`, `HST` and `GMT+05:30`). Named zones are read from the
/// system's tz database (`/usr/share/zoneinfo`, TZif files: TimeZoneRules+TZif.swift), so the binary carries no
/// zone data and a static build works where that directory exists; offsets and UTC need no file.
///
/// Trust: a name comes from a template or a request. It must be Java's region-ID shape (letters, digits, `/._+-~`),
/// with no empty, `.` or `..` component, so it can only name a file inside the zone directory; the file must be a
/// regular TZif file of at most 1 MiB. Zones read are kept (at most ``cacheLimit``); names that fail are not.
package final class TimeZoneRules: Sendable {
    /// The ID as Java normalises it: `+05:30`, `GMT+05:00`, `UTC`, `Z`, `Australia/Sydney`.
    package let identifier: String
    let fixedOffset: Int?
    let fixedName: String
    let table: TZifTable?

    init(identifier: String, fixedOffset: Int, name: String) {
        self.identifier = identifier
        self.fixedOffset = fixedOffset
        self.fixedName = name
        self.table = nil
    }

    init(identifier: String, table: TZifTable) {
        self.identifier = identifier
        self.fixedOffset = nil
        self.fixedName = ""
        self.table = table
    }

    package static let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0, name: "UTC")

    /// Whether the offset never changes.
    package var isFixed: Bool { fixedOffset != nil }

    /// Seconds east of UTC at `milliseconds` since 1970 (UTC).
    package func offset(atUTC milliseconds: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        return table?.local(atUTC: CivilCalendar.floorDivide(milliseconds, 1000)).offset ?? 0
    }

    /// The short name in force at `milliseconds` (`AEDT`, `UTC`; `GMT+05:30` for a fixed offset).
    package func abbreviation(atUTC milliseconds: Int) -> String {
        if fixedOffset != nil { return fixedName }
        return table?.local(atUTC: CivilCalendar.floorDivide(milliseconds, 1000)).abbreviation ?? "UTC"
    }

    /// The offset of a local date-time (milliseconds of the wall clock as if it were UTC), as `ZonedDateTime.ofLocal`
    /// resolves it: in an overlap the earlier offset; in a gap the offset before it (the time moves later).
    package func offset(atLocal local: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        let before = offset(atUTC: local - CivilCalendar.dayMilliseconds)
        let after = offset(atUTC: local + CivilCalendar.dayMilliseconds)
        if before == after { return before }
        if offset(atUTC: local - before * 1000) == before { return before }
        if offset(atUTC: local - after * 1000) == after { return after }
        return before
    }

    /// Where the tz database is looked for, in order.
    package static let directories = ["/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo"]
    static let cacheLimit = 1024
    private static let cache = Locked<[String: TimeZoneRules]>([:])

    /// Why a zone cannot be had.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// `ZoneId.of(id)`: an offset, `Z`, `UTC`/`GMT`/`UT` (with an offset), or a region read from the tz database.
    package static func zoneID(_ id: String) -> Result<TimeZoneRules, Failure> {
        if id == "Z" { return .success(TimeZoneRules(identifier: "Z", fixedOffset: 0, name: "UTC")) }
        if id.hasPrefix("+") || id.hasPrefix("-") {
            guard let seconds = offsetSeconds(id) else { return .failure(Failure(description: "'\(id.prefix(40))' is not a valid offset")) }
            return .success(fixed(seconds, prefix: ""))
        }
        for prefix in ["UTC", "GMT", "UT"] where id.hasPrefix(prefix) {
            let rest = id.dropFirst(prefix.count)
            if rest.isEmpty { return .success(TimeZoneRules(identifier: prefix, fixedOffset: 0, name: prefix)) }
            guard rest.hasPrefix("+") || rest.hasPrefix("-") else { break }
            guard let seconds = offsetSeconds(rest) else {
                return .failure(Failure(description: "'\(id.prefix(40))' is not a valid offset"))
            }
            return .success(fixed(seconds, prefix: prefix))
        }
        return region(id)
    }

    /// `TimeZone.getTimeZone(id)` as `SimpleDateFormat` and Handlebars' `dateFormat tz=` read it: also `EST`, `MST`,
    /// `HST`; nil where Java would silently use GMT.
    package static func javaTimeZone(_ id: String) -> TimeZoneRules? {
        let legacy = ["EST": -18_000, "MST": -25_200, "HST": -36_000]
        if let seconds = legacy[id] { return TimeZoneRules(identifier: id, fixedOffset: seconds, name: id) }
        if id.hasPrefix("+") || id.hasPrefix("-") || id == "Z" || id.hasPrefix("UT+") || id.hasPrefix("UT-") { return nil }
        return try? zoneID(id).get()
    }

    /// A fixed offset, named as Java names it: `+05:30` (`Z` for none), or `GMT+05:30` after a prefix.
    static func fixed(_ seconds: Int, prefix: String) -> TimeZoneRules {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(sign)\(two(magnitude / 3600)):\(two(magnitude / 60 % 60))"
        if magnitude % 60 != 0 { text += ":\(two(magnitude % 60))" }
        if prefix.isEmpty && seconds == 0 { return TimeZoneRules(identifier: "Z", fixedOffset: 0, name: "UTC") }
        let identifier = prefix + (seconds == 0 ? "" : text)
        return TimeZoneRules(identifier: identifier, fixedOffset: seconds, name: seconds == 0 ? prefix : "GMT" + text)
    }

    /// `ZoneOffset.of`'s forms: `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss`, at most ±18:00.
    package static func offsetSeconds(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard let signByte = bytes.first, signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst()
        guard digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ":") }) else { return nil }
        let parts = digits.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { Array($0) }
        func number(_ part: ArraySlice<UInt8>) -> Int { part.reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        var fields: [Int]
        switch parts.map(\.count) {
        case [1], [2]: fields = [number(parts[0][...])]
        case [2, 2], [2, 2, 2]: fields = parts.map { number($0[...]) }
        case [4]: fields = [number(parts[0][0..<2]), number(parts[0][2..<4])]
        case [6]: fields = [number(parts[0][0..<2]), number(parts[0][2..<4]), number(parts[0][4..<6])]
        default: return nil
        }
        fields += Array(repeating: 0, count: 3 - fields.count)
        guard fields[1] < 60, fields[2] < 60 else { return nil }
        let seconds = fields[0] * 3600 + fields[1] * 60 + fields[2]
        guard seconds <= 18 * 3600 else { return nil }
        return signByte == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// A region ID read from the tz database (cached).
    static func region(_ id: String) -> Result<TimeZoneRules, Failure> {
        if let known = cache.withLock({ $0[id] }) { return .success(known) }
        guard isRegionName(id) else { return .failure(Failure(description: "'\(id.prefix(60))' is not a time zone ID")) }
        for directory in directories {
            guard let bytes = FileSystem.read(directory + "/" + id) else { continue }
            guard bytes.count <= 1 << 20, let table = TZifTable(bytes) else {
                return .failure(Failure(description: "\(directory)/\(id) is not a TZif file"))
            }
            let rules = TimeZoneRules(identifier: id, table: table)
            cache.withLock { cache in
                if cache.count < cacheLimit { cache[id] = rules }
            }
            return .success(rules)
        }
        return .failure(
            Failure(description: "unknown time zone '\(id.prefix(60))' (not in \(directories[0]); it needs the system's tz database)"))
    }

    /// Java's region-ID shape, naming a file inside the zone directory, and not one of the files there Java does not
    /// know as a zone.
    static func isRegionName(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count >= 2, bytes.count <= 100, let first = bytes.first, isLetter(first) else { return false }
        let allowed: (UInt8) -> Bool = { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || "~/._+-".utf8.contains($0) }
        guard bytes.allSatisfy(allowed) else { return false }
        let components = id.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0.isEmpty || $0.hasPrefix(".") }) else { return false }
        let notZones: Set<String> = ["EST", "MST", "HST", "localtime", "posixrules", "Factory", "leapseconds", "leap-seconds.list"]
        let notZoneDirectories: Set<Substring> = ["posix", "right", "SystemV"]
        return !notZones.contains(id) && !notZoneDirectories.contains(components[0]) && components.count <= 4
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
}
