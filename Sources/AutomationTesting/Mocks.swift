import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import AutomationSupport
public import FoundationEssentials
#else
public import Foundation
#endif

/// Plausible test data from real-world lists, seedable so a failing run can be repeated.
///
/// ```swift
/// Mocks.seed = 42                 // the same values every run
/// let name = String.mock(.firstname)
/// let city = String.mock(.city)
/// let age = Int.mock(in: 18...90)
/// ```
/// A failure reported by AutomationTesting's assertions prints the seed when mocks were used.
public enum Mocks {
    /// The kinds of strings ``String/mock(_:)`` makes.
    public enum Kind: Sendable, CaseIterable {
        case word, firstname, lastname, fullname, city, street, address, email, phone, company, country
        /// A UUID string; a month name; an Italian province; a mobile or a landline number; lorem ipsum words.
        case uuid, month, province, mobilePhone, landlinePhone, loremIpsum
    }

    struct State: Sendable {
        var seed: UInt64
        var generator: SplitMix64
        var used = false
        init(seed: UInt64) {
            self.seed = seed
            generator = SplitMix64(seed: seed)
        }
    }
    /// The generator outside any test scope (one for the process).
    private static let processState = Locked(State(seed: UInt64.random(in: 1...999_999)))

    /// The current test's generator: each test scope has its own, seeded from the test's name, so tests that
    /// run in parallel do not interleave their draws and a printed seed replays one test exactly.
    private static var state: Locked<State> { AutomationScope.current?.mocks ?? processState }

    /// The seed of the current test's sequence (derived from its name unless set); setting it restarts it.
    public static var seed: UInt64 {
        get { state.withLock { $0.seed } }
        set { state.withLock { $0 = State(seed: newValue) } }
    }

    /// True once the current test drew a mock value since its seed was set.
    public static var wereUsed: Bool { state.withLock { $0.used } }

    /// A stable seed for a test's name (FNV-1a, folded into 1...999,999 so it is easy to type).
    static func seed(forTestNamed name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash % 999_999 + 1
    }

    static func next() -> UInt64 {
        state.withLock { state in
            state.used = true
            return state.generator.next()
        }
    }

    static func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }

    static func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        return range.lowerBound + Int(width == 0 ? next() : next() % width)
    }

    static let firstNames = [
        "Ada", "Grace", "Alan", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Radia", "Tim", "Frances",
        "Edsger", "Hedy", "John", "Katherine", "Guido", "Anita", "Bjarne", "Sophie", "Yukihiro", "Giulia",
        "Marco", "Chiara", "Luca", "Aiko", "Kenji", "Fatima", "Omar", "Ingrid", "Lars", "Priya", "Arjun",
    ]
    static let lastNames = [
        "Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Perlman",
        "Berners-Lee", "Allen", "Dijkstra", "Lamarr", "McCarthy", "Johnson", "van Rossum", "Borg",
        "Stroustrup", "Wilson", "Matsumoto", "Rossi", "Bianchi", "Ferrari", "Tanaka", "Suzuki", "Haddad",
        "Nilsson", "Larsen", "Sharma", "Patel", "Müller", "García",
    ]
    static let cities = [
        "Milano", "Roma", "Torino", "Napoli", "London", "Paris", "Berlin", "Madrid", "Lisbon", "Amsterdam",
        "Vienna", "Zurich", "Stockholm", "Oslo", "Dublin", "Tokyo", "Osaka", "Seoul", "Sydney", "Toronto",
        "Montréal", "New York", "San Francisco", "Austin", "Chicago", "Mexico City", "São Paulo", "Cape Town",
    ]
    static let streets = [
        "Via Roma", "Corso Buenos Aires", "Baker Street", "Abbey Road", "Rue de Rivoli", "Unter den Linden",
        "Gran Vía", "Rua Augusta", "Damrak", "Bahnhofstrasse", "Drottninggatan", "Grafton Street",
        "Omotesando", "George Street", "Yonge Street", "Fifth Avenue", "Market Street", "Michigan Avenue",
    ]
    static let companies = [
        "Acme Corporation", "Globex", "Initech", "Umbrella Logistics", "Stark Industries", "Wayne Enterprises",
        "Hooli", "Pied Piper", "Vandelay Industries", "Soylent Foods", "Cyberdyne Systems", "Tyrell Corporation",
        "Aperture Science", "Monsters Inc.", "Wonka Industries", "Oceanic Airlines",
    ]
    static let countries = [
        "Italy", "United Kingdom", "France", "Germany", "Spain", "Portugal", "Netherlands", "Austria",
        "Switzerland", "Sweden", "Norway", "Ireland", "Japan", "South Korea", "Australia", "Canada",
        "United States", "Mexico", "Brazil", "South Africa", "India",
    ]
    static let words = [
        "apple", "river", "stone", "cloud", "maple", "harbor", "lantern", "meadow", "orbit", "pixel", "quartz",
        "saffron", "timber", "velvet", "willow", "zephyr", "copper", "ember", "falcon", "glacier",
    ]
    static let emailDomains = ["example.com", "example.org", "example.net", "test.example"]

    static func string(_ kind: Kind) -> String {
        switch kind {
        case .word: return pick(words)
        case .firstname: return pick(firstNames)
        case .lastname: return pick(lastNames)
        case .fullname: return "\(pick(firstNames)) \(pick(lastNames))"
        case .city: return pick(cities)
        case .street: return pick(streets)
        case .address: return "\(pick(streets)) \(int(in: 1...199)), \(pick(cities))"
        case .email:
            let local = "\(pick(firstNames)).\(pick(lastNames))".lowercased().filter { $0.isLetter || $0 == "." }
            return "\(local)@\(pick(emailDomains))"
        case .phone: return "+39 0\(int(in: 2...9))\(int(in: 1_000_000...9_999_999))"
        case .company: return pick(companies)
        case .country: return pick(countries)
        case .uuid:
            let hex = (0..<32).map { _ in String(next() % 16, radix: 16) }
            let version = Array(hex[0..<12]) + ["4"] + Array(hex[13..<16]) + [String(8 + next() % 4, radix: 16)] + Array(hex[17..<32])
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { version[$0].joined() }.joined(separator: "-")
        case .month: return pick(months)
        case .province: return pick(provinces)
        case .mobilePhone: return "+39 3\(int(in: 20...99)) \(int(in: 100_0000...999_9999))"
        case .landlinePhone: return "+39 0\(int(in: 2...9))\(int(in: 1_000_000...9_999_999))"
        case .loremIpsum: return (0..<int(in: 5...12)).map { _ in pick(lorem) }.joined(separator: " ")
        }
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let provinces = [
        "Milano", "Roma", "Torino", "Napoli", "Bologna", "Firenze", "Genova", "Venezia", "Palermo", "Bari",
        "Verona", "Padova", "Trieste", "Cagliari", "Perugia", "Ancona", "Trento", "Bolzano", "Aosta", "Lecce",
    ]
    static let lorem = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod",
        "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua",
    ]
}

extension String {
    /// A plausible value of the kind (a word by default).
    public static func mock(_ kind: Mocks.Kind = .word) -> String { Mocks.string(kind) }
}

extension Int {
    /// A number in the range (0...1000 by default).
    public static func mock(in range: ClosedRange<Int> = 0...1000) -> Int { Mocks.int(in: range) }
    /// A positive number (1...1,000,000).
    public static func mockPositive() -> Int { Mocks.int(in: 1...1_000_000) }
    /// A year between 1970 and 2030.
    public static func mockYear() -> Int { Mocks.int(in: 1970...2030) }
    /// A month number, 1...12.
    public static func mockMonth() -> Int { Mocks.int(in: 1...12) }
}

extension UInt {
    /// A number in 0...1,000,000.
    public static func mock() -> UInt { UInt(Mocks.int(in: 0...1_000_000)) }
}

extension Mocks {
    /// One of the user's own values.
    public static func mock<Value>(from values: [Value]) -> Value {
        precondition(!values.isEmpty, "Mocks.mock(from:) needs at least one value")
        return pick(values)
    }

    /// One of the values, never `excluded` (when there is another): "a different user than the one logged in".
    public static func random<Value: Equatable>(from values: [Value], except excluded: Value) -> Value {
        let others = values.filter { $0 != excluded }
        return others.isEmpty ? mock(from: values) : mock(from: others)
    }
}

extension Bool {
    /// A random Bool from the test's seeded generator.
    public static func mock() -> Bool { Mocks.next() & 1 == 1 }
}

extension Date {
    /// A date within a year of 2026-01-01 (fixed, so a seed repeats exactly).
    public static func mock() -> Date {
        Date(timeIntervalSince1970: 1_767_225_600 + Double(Mocks.int(in: -31_536_000...31_536_000)))
    }

    /// A time on the given day (UTC), or a random day of the year or month when those are left out.
    public static func mock(year: Int, month: Int? = nil, day: Int? = nil) -> Date {
        let month = month ?? Mocks.int(in: 1...12)
        let day = day ?? Mocks.int(in: 1...28)
        // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil), then a random second of that day.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + Mocks.int(in: 0...86_399)))
    }
}

extension URL {
    /// `https://<company>.example.com/<word>/<number>`.
    public static func mock() -> URL {
        let host = Mocks.string(.company).lowercased().filter { $0.isLetter }
        return URL(string: "https://\(host).example.com/\(Mocks.string(.word))/\(Mocks.int(in: 1...9999))")!
    }
}
