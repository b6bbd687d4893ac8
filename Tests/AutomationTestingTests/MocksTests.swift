import Foundation
import ProcessEngine
import Scenarios
import Testing

@testable import AutomationTesting

/// Mock data is per test: tests running in parallel do not interleave their draws, and a printed seed
/// replays one test's values exactly (issue 16).
@Suite(.automationScope) struct PerTestMocksTests {
    /// Draws a mix of kinds, as a test would.
    static func draws() -> [String] {
        (0..<20).map { index in
            switch index % 5 {
            case 0: String.mock(.fullname)
            case 1: "\(Int.mock(in: 0...1_000_000))"
            case 2: String.mock(.uuid)
            case 3: String.mock(.mobilePhone)
            default: String.mock(.city)
            }
        }
    }

    @Test(arguments: 0..<12)
    func aTestsSeedReplaysItsOwnDrawsWhileOthersDrawInParallel(index: Int) async throws {
        let seed = Mocks.seed
        var first: [String] = []
        for _ in 0..<5 {
            first += Self.draws()
            await Task.yield() // let the other cases draw in between
        }
        Mocks.seed = seed // what a developer does with the printed seed
        var again: [String] = []
        for _ in 0..<5 { again += Self.draws() }
        #expect(first == again, "seed \(seed) did not replay")
    }

    @Test func theSeedComesFromTheTestsNameAndIsStable() throws {
        let scope = try #require(AutomationScope.current)
        #expect(Mocks.seed == Mocks.seed(forTestNamed: scope.name))
        #expect(
            Mocks.seed(forTestNamed: "a") == Mocks.seed(forTestNamed: "a") && Mocks.seed(forTestNamed: "a") != Mocks.seed(forTestNamed: "b")
        )
    }

    @Test func newKinds() {
        let uuid = String.mock(.uuid)
        #expect(UUID(uuidString: uuid) != nil && uuid.split(separator: "-")[2].hasPrefix("4"), "\(uuid)")
        #expect(String.mock(.mobilePhone).hasPrefix("+39 3") && String.mock(.landlinePhone).hasPrefix("+39 0"))
        #expect(Mocks.months.contains(String.mock(.month)) && Mocks.provinces.contains(String.mock(.province)))
        #expect((1...12).contains(Int.mockMonth()) && (1970...2030).contains(Int.mockYear()) && Int.mockPositive() > 0)
        #expect(["x", "y"].contains(Mocks.mock(from: ["x", "y"])))
        #expect((0..<50).allSatisfy { _ in Mocks.random(from: [1, 2, 3], except: 2) != 2 })
        let day = Date.mock(year: 2024, month: 2, day: 29)
        #expect(day.timeIntervalSince1970 >= 1_709_164_800 && day.timeIntervalSince1970 < 1_709_251_200, "\(day)")
    }
}
