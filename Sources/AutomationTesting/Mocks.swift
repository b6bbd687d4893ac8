#if canImport(FoundationEssentials)
import AutomationSupport
public import FoundationEssentials
#else
public import Foundation
#endif
import AutomationCore

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
    }

    private struct State {
        var seed: UInt64
        var generator: SplitMix64
        var used = false
    }
    private static let state: Locked<State> = {
        let seed = UInt64.random(in: 1...999_999)
        return Locked(State(seed: seed, generator: SplitMix64(seed: seed)))
    }()

    /// The seed of the current sequence; setting it restarts the sequence.
    public static var seed: UInt64 {
        get { state.withLock { $0.seed } }
        set { state.withLock { $0 = State(seed: newValue, generator: SplitMix64(seed: newValue)) } }
    }

    /// True once a mock value was drawn since the seed was set.
    public static var wereUsed: Bool { state.withLock { $0.used } }

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

    static let firstNames = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Radia", "Tim", "Frances",
                             "Edsger", "Hedy", "John", "Katherine", "Guido", "Anita", "Bjarne", "Sophie", "Yukihiro", "Giulia",
                             "Marco", "Chiara", "Luca", "Aiko", "Kenji", "Fatima", "Omar", "Ingrid", "Lars", "Priya", "Arjun"]
    static let lastNames = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Perlman",
                            "Berners-Lee", "Allen", "Dijkstra", "Lamarr", "McCarthy", "Johnson", "van Rossum", "Borg",
                            "Stroustrup", "Wilson", "Matsumoto", "Rossi", "Bianchi", "Ferrari", "Tanaka", "Suzuki", "Haddad",
                            "Nilsson", "Larsen", "Sharma", "Patel", "Müller", "García"]
    static let cities = ["Milano", "Roma", "Torino", "Napoli", "London", "Paris", "Berlin", "Madrid", "Lisbon", "Amsterdam",
                         "Vienna", "Zurich", "Stockholm", "Oslo", "Dublin", "Tokyo", "Osaka", "Seoul", "Sydney", "Toronto",
                         "Montréal", "New York", "San Francisco", "Austin", "Chicago", "Mexico City", "São Paulo", "Cape Town"]
    static let streets = ["Via Roma", "Corso Buenos Aires", "Baker Street", "Abbey Road", "Rue de Rivoli", "Unter den Linden",
                          "Gran Vía", "Rua Augusta", "Damrak", "Bahnhofstrasse", "Drottninggatan", "Grafton Street",
                          "Omotesando", "George Street", "Yonge Street", "Fifth Avenue", "Market Street", "Michigan Avenue"]
    static let companies = ["Acme Corporation", "Globex", "Initech", "Umbrella Logistics", "Stark Industries", "Wayne Enterprises",
                            "Hooli", "Pied Piper", "Vandelay Industries", "Soylent Foods", "Cyberdyne Systems", "Tyrell Corporation",
                            "Aperture Science", "Monsters Inc.", "Wonka Industries", "Oceanic Airlines"]
    static let countries = ["Italy", "United Kingdom", "France", "Germany", "Spain", "Portugal", "Netherlands", "Austria",
                            "Switzerland", "Sweden", "Norway", "Ireland", "Japan", "South Korea", "Australia", "Canada",
                            "United States", "Mexico", "Brazil", "South Africa", "India"]
    static let words = ["apple", "river", "stone", "cloud", "maple", "harbor", "lantern", "meadow", "orbit", "pixel", "quartz",
                        "saffron", "timber", "velvet", "willow", "zephyr", "copper", "ember", "falcon", "glacier"]
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
        }
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same values on every platform.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// A plausible value of the kind (a word by default).
    public static func mock(_ kind: Mocks.Kind = .word) -> String { Mocks.string(kind) }
}

extension Int {
    /// A number in the range (0...1000 by default).
    public static func mock(in range: ClosedRange<Int> = 0...1000) -> Int { Mocks.int(in: range) }
}

extension Bool {
    public static func mock() -> Bool { Mocks.next() & 1 == 1 }
}

extension Date {
    /// A date within a year of 2026-01-01 (fixed, so a seed repeats exactly).
    public static func mock() -> Date {
        Date(timeIntervalSince1970: 1_767_225_600 + Double(Mocks.int(in: -31_536_000...31_536_000)))
    }
}

extension URL {
    /// `https://<company>.example.com/<word>/<number>`.
    public static func mock() -> URL {
        let host = Mocks.string(.company).lowercased().filter { $0.isLetter }
        return URL(string: "https://\(host).example.com/\(Mocks.string(.word))/\(Mocks.int(in: 1...9999))")!
    }
}
