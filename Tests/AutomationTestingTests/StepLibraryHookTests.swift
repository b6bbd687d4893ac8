import Foundation
import Scenarios
import Testing

@testable import AutomationTesting

/// Hooks written in Swift: Before in order with a tag filter, After with the scenario's status after a failure,
/// a throwing hook that fails its scenario naming its line, and a hook past its deadline.
/// What the hooks saw, in order.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var current: [String] { lock.withLock { items } }
}

@Suite struct StepLibraryHookTests {
    static func scenario(_ text: String) throws -> FeatureScenario {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString).feature")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try #require(try StepLibrary.scenarios(in: url.path).first)
    }

    @Test func beforeHooksRunInOrderAndAfterHooksSeeAFailure() async throws {
        let steps = StepLibrary()
        let seen = Seen()
        steps.before(order: 2) { _ in seen.append("second") }
        steps.before(order: 1) { context in seen.append("first \(context.scenarioName)") }
        steps.before(tags: "@other") { _ in seen.append("never") }
        steps.after { context in seen.append("after \(context.scenarioStatus ?? "?")") }
        let scenario = try Self.scenario("Feature: f\n  Scenario: s\n    When I run \"false\"\n    Then the exit code is 0\n")
        await #expect(throws: AutomationError.self) { try await steps.run(scenario) }
        #expect(seen.current == ["first s", "second", "after failed"])
    }

    @Test func aThrowingHookFailsItsScenarioNamingItsLine() async throws {
        let steps = StepLibrary()
        steps.before { context in try context.fail("the database is down") }
        let scenario = try Self.scenario("Feature: f\n  Scenario: s\n    When I run \"true\"\n")
        let error = await #expect(throws: AutomationError.self) { try await steps.run(scenario) }
        #expect(
            error?.message.contains("Before hook (AutomationTestingTests/StepLibraryHookTests.swift:") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the database is down") == true)
        #expect(error?.message.contains("- When I run \"true\"") == true, "the steps were skipped: \(error?.message ?? "")")
    }

    @Test func aHookPastItsDeadlineFailsItsScenario() async throws {
        let steps = StepLibrary()
        steps.after(timeout: .milliseconds(200)) { _ in Thread.sleep(forTimeInterval: 20) }
        let scenario = try Self.scenario("Feature: f\n  Scenario: s\n    When I run \"true\"\n")
        // The message is only written at the deadline: a scenario that waited for the 20 s closure would say nothing of it.
        let error = await #expect(throws: AutomationError.self) { try await steps.run(scenario) }
        #expect(error?.message.contains("was still running after its 200ms timeout") == true, "\(error?.message ?? "")")
    }

    @Test func aHookWithABadTagExpressionIsRefused() async throws {
        let steps = StepLibrary()
        steps.before(tags: "@a and (") { _ in }
        let scenario = try Self.scenario("Feature: f\n  Scenario: s\n    When I run \"true\"\n")
        let error = await #expect(throws: AutomationError.self) { try await steps.run(scenario) }
        #expect(error?.message.contains("hook tags \"@a and (\"") == true, "\(error?.message ?? "")")
    }
}
