import Foundation
import Testing

@testable import MockServer

/// The stub registry on its own: choosing counts the call and moves the scenario, admin changes keep or reset
/// counts, and a match computed while the stubs change is redone rather than lost.
@Suite struct StubRegistryTests {
    private func registry(_ text: String) throws -> StubRegistry {
        StubRegistry(try StubLoader.parse(text, file: "routes.json"))
    }

    private func input(_ method: String, _ target: String) -> MatchInput {
        MatchInput(HTTPRequest(method: method, target: target))
    }

    private let scenario = #"""
        {"mappings": [{"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full",
                       "request": {"method": "GET", "url": "/cart"}, "response": {"status": 200}}]}
        """#

    @Test func choosingCountsTheCallAndMovesTheScenario() throws {
        let stubs = try registry(scenario)
        stubs.buildRouter()
        #expect(stubs.choose(input("GET", "/cart"))?.call == 1)
        #expect(stubs.choose(input("GET", "/cart")) == nil) // the scenario moved on: the stub needs "Started"
        let (_, counts, scenarios) = stubs.snapshot()
        #expect(counts == [1])
        #expect(scenarios == ["cart": "full"])
        #expect(stubs.scenarioStates().map { "\($0.name) \($0.state) \($0.possible)" } == [#"cart full ["Started", "full"]"#])

        #expect(stubs.setScenario("cart", state: "fulll") == .unsupported(possible: ["Started", "full"]))
        #expect(stubs.snapshot().scenarios == ["cart": "full"], "a state no stub has leaves the scenario as it was")
        #expect(stubs.setScenario("cart", state: "Started") == .set)
        #expect(stubs.setScenario("no such scenario", state: "x") == .noScenario)
        #expect(stubs.choose(input("GET", "/cart"))?.call == 2)
        stubs.resetScenarios()
        #expect(stubs.snapshot().scenarios.isEmpty)
    }

    @Test func changesKeepCountsUntilAReset() throws {
        let stubs = try registry(#"{"routes": [{"method": "GET", "path": "/a"}]}"#)
        #expect(stubs.choose(input("GET", "/a")) != nil)
        let added = try StubLoader.parse(#"{"routes": [{"method": "GET", "path": "/b", "name": "b"}]}"#, file: "more.json").stubs
        stubs.add(added)
        #expect(stubs.snapshot().counts == [1, 0])
        #expect(stubs.stubs(where: { $0.name == "b" }).map(\.calls) == [0])

        stubs.saveAsLoaded()
        stubs.replace(where: { $0.name == "b" }, with: nil)
        #expect(stubs.snapshot().stubs.count == 1)
        stubs.removeAll()
        #expect(stubs.choose(input("GET", "/a")) == nil)

        stubs.resetStubs() // back to what was saved: /a and /b, every count at 0
        #expect(stubs.snapshot().counts == [0, 0])
        #expect(stubs.choose(input("GET", "/b"))?.stub.name == "b")
    }

    @Test func theUnexpectedPolicyAndFilesDirectoryComeFromTheLoadedSet() throws {
        let stubs = try registry(#"{"routes": [], "unexpected": "fail"}"#)
        #expect(stubs.unexpectedPolicy == .fail)
        stubs.unexpectedPolicy = .report
        #expect(stubs.unexpectedPolicy == .report)
        #expect(stubs.filesDirectory == "./__files") // parsed text has no file on disk
    }

    /// Matching runs outside the lock: a call counted while another thread replaces the stubs in a loop is
    /// redone or decided under the lock, never lost or counted twice.
    @Test func noCallIsLostWhileTheStubsChange() throws {
        let stubs = try registry(#"{"routes": [{"method": "GET", "path": "/a"}]}"#)
        let other = try StubLoader.parse(#"{"routes": [{"method": "GET", "path": "/other"}]}"#, file: "other.json").stubs
        let calls = 300
        let changer = Thread {
            for _ in 0..<calls { stubs.add(other) }
        }
        changer.start()
        var answered = 0
        for _ in 0..<calls where stubs.choose(input("GET", "/a")) != nil { answered += 1 }
        while !changer.isFinished { usleep(1_000) }
        #expect(answered == calls)
        #expect(stubs.snapshot().counts.first == calls)
        #expect(stubs.snapshot().stubs.count == calls + 1)
    }
}
