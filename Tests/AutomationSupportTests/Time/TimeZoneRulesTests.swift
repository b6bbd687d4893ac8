import Foundation
import Testing

@testable import AutomationSupport

/// Zones as Java names them, TZif files read (and damaged ones refused), POSIX rules for the years after a file's
/// last transition, and names that would leave the zone directory.
@Suite struct TimeZoneRulesTests {
    static let hasZones = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris")

    @Test func offsetsAreReadAsZoneOffsetReadsThem() {
        let cases: [(String, Int?)] = [
            ("+5", 18_000), ("-05", -18_000), ("+05:30", 19_800), ("+0530", 19_800), ("+05:30:15", 19_815), ("+053015", 19_815),
            ("+18:00", 64_800), ("-18:00", -64_800), ("+18:01", nil), ("+5:30", nil), ("+05:60", nil), ("+123", nil), ("5", nil),
            ("+", nil),
            ("+05:", nil), ("+٣", nil), ("+9223372036854775807", nil),
        ]
        for (text, seconds) in cases { #expect(TimeZoneRules.offsetSeconds(text) == seconds, "\(text)") }
    }

    @Test func zoneIDsAreNormalisedAsJavaNormalisesThem() throws {
        let cases = [
            ("Z", "Z", 0), ("UTC", "UTC", 0), ("GMT", "GMT", 0), ("UT", "UT", 0), ("GMT+5", "GMT+05:00", 18_000),
            ("UTC-03:30", "UTC-03:30", -12_600),
            ("UTC+0", "UTC", 0), ("+00:00", "Z", 0), ("-01", "-01:00", -3600),
        ]
        for (id, normalised, offset) in cases {
            let zone = try TimeZoneRules.zoneID(id).get()
            #expect(zone.identifier == normalised && zone.offset(atUTC: 0) == offset, "\(id)")
        }
        #expect(try TimeZoneRules.zoneID("+05:30").get().abbreviation(atUTC: 0) == "GMT+05:30")
        #expect(TimeZoneRules.javaTimeZone("EST")?.offset(atUTC: 0) == -18_000)
        #expect(TimeZoneRules.javaTimeZone("+05:30") == nil) // TimeZone.getTimeZone("+05:30") is GMT in Java
        for bad in [
            "GMT+19", "UTC+", "", "1", "../../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "./UTC", "Europe//Paris",
            "Europe/Paris/",
            "posix/Europe/Paris", "right/UTC", "localtime", "posixrules", "EST", "a\u{0}b", "Europe/Paris\n",
            String(repeating: "A", count: 200),
        ] {
            #expect((try? TimeZoneRules.zoneID(bad).get()) == nil, "\(bad)")
        }
    }

    @Test(.enabled(if: hasZones, "needs the system's tz database (/usr/share/zoneinfo)")) func systemZonesHaveTheirRules() throws {
        let paris = try TimeZoneRules.zoneID("Europe/Paris").get()
        let summer = 1_625_140_800_000 // 2021-07-01T12:00:00Z
        #expect(paris.offset(atUTC: summer) == 7200 && paris.abbreviation(atUTC: summer) == "CEST")
        #expect(paris.offset(atUTC: 1_609_502_400_000) == 3600) // 2021-01-01T12:00:00Z
        // After the file's last transition the footer's rule answers: 2100 has summer time too.
        #expect(paris.offset(atUTC: 4_118_126_400_000) == 7200) // 2100-07-01T12:00:00Z
        #expect(paris.offset(atUTC: 4_102_488_000_000) == 3600) // 2100-01-01T12:00:00Z
        let sydney = try TimeZoneRules.zoneID("Australia/Sydney").get()
        #expect(sydney.offset(atUTC: 4_102_488_000_000) == 39_600 && sydney.abbreviation(atUTC: 4_102_488_000_000) == "AEDT")
        // A local time in the spring gap is the one after it; in the autumn overlap, the earlier offset.
        let gap = 1_616_898_600_000 // 2021-03-28T02:30 as if UTC
        #expect(paris.offset(atLocal: gap) == 3600)
        let overlap = 1_635_647_400_000 // 2021-10-31T02:30 as if UTC
        #expect(paris.offset(atLocal: overlap) == 7200)
        for milliseconds in [CivilCalendar.range.lowerBound, CivilCalendar.range.upperBound] {
            #expect(abs(paris.offset(atUTC: milliseconds)) < 86_400)
            #expect(abs(paris.offset(atLocal: milliseconds)) < 86_400)
        }
    }

    @Test func posixRulesGiveEachYearsTransitions() throws {
        let sydney = try #require(PosixTimeZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.local(atUTC: 1_609_502_400).offset == 39_600) // January: daylight time
        #expect(sydney.local(atUTC: 1_625_140_800).abbreviation == "AEST") // July: standard
        let newYork = try #require(PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0"))
        #expect(newYork.local(atUTC: 1_625_140_800).offset == -14_400 && newYork.local(atUTC: 1_609_502_400).offset == -18_000)
        #expect(PosixTimeZoneRule("<+0530>-5:30")?.local(atUTC: 0).offset == 19_800)
        #expect(PosixTimeZoneRule("EST5EDT")?.daylight?.offset == -14_400)
        for bad in [
            "", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST999", "<+05", "EST5EDT,J0,J365", "EST5EDT,M3.2.0",
        ] {
            #expect(PosixTimeZoneRule(bad) == nil, "\(bad)")
        }
    }

    /// A TZif file built here: version 2, two transitions, a footer.
    static func tzif(transitions: [Int64], footer: String, version: UInt8 = UInt8(ascii: "2")) -> [UInt8] {
        func be32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        func be64(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        let names = Array("LMT\0STD\0DST\0".utf8)
        func header(_ count: Int) -> [UInt8] {
            Array("TZif".utf8) + [version] + Array(repeating: 0, count: 15) + [0, 0, 0, 0].flatMap { be32($0) }.prefix(12)
                + be32(Int32(count)) + be32(3) + be32(Int32(names.count))
        }
        let types = be32(3600) + [0, 0] + be32(3600) + [0, 4] + be32(7200) + [1, 8]
        let indices = transitions.indices.map { UInt8($0 % 2 + 1) }
        let v1 = header(transitions.count) + transitions.flatMap { be32(Int32(truncatingIfNeeded: $0)) } + indices + types + names
        return v1 + header(transitions.count) + transitions.flatMap(be64) + indices + types + names + Array("\n\(footer)\n".utf8)
    }

    @Test func tzifFilesAreReadAndDamagedOnesRefused() throws {
        let table = try #require(TZifTable(Self.tzif(transitions: [0, 1000, 2000], footer: "STD-1DST,M3.5.0,M10.5.0/3")))
        #expect(table.local(atUTC: -5).abbreviation == "LMT")
        #expect(table.local(atUTC: 500).offset == 3600 && table.local(atUTC: 1500).offset == 7200)
        #expect(table.local(atUTC: 1_625_140_800).abbreviation == "DST") // after the last transition: the footer
        #expect(table.local(atUTC: 1_609_502_400).abbreviation == "STD")
        let whole = Self.tzif(transitions: [0, 1000], footer: "STD-1")
        for cut in [0, 10, 44, 60, whole.count - 30] {
            #expect(TZifTable(Array(whole.prefix(cut))) == nil, "cut at \(cut)")
        }
        var wrongIndex = whole
        wrongIndex[44 + (2 * 4 + 2 + 18 + 12) + 44 + 2 * 8] = 9 // a transition (of the 64-bit part) naming a type that does not exist
        #expect(TZifTable(wrongIndex) == nil)
        var huge = whole
        huge.replaceSubrange(32..<36, with: [0x7F, 0xFF, 0xFF, 0xFF]) // timecnt
        #expect(TZifTable(huge) == nil)
        #expect(TZifTable(Self.tzif(transitions: [1000, 0], footer: "STD-1")) == nil) // unsorted
        #expect(TZifTable(Array("TZif2".utf8) + Array(repeating: 0xFF, count: 100)) == nil)
    }
}
