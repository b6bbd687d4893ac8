import Foundation
import ProcessEngine
import Scenarios
import Testing
import XCTest

@testable import AutomationTesting

/// Feature files whose steps mix the built-in catalog and steps written in Swift, run from `swift test`.
let libraryFeatures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Features/library.feature").path

let librarySteps: StepLibrary = {
    let steps = StepLibrary()
    steps.step("the greeting is {string}") { context, greeting in
        context.setFeatureFlag("greeting", .string(greeting))
    }
    steps.step("the output has {int} lines") { context, count in
        let lines = try context.output().split(separator: "\n").count
        if lines != count { try context.fail("expected \(count) lines, the program printed \(lines)") }
    }
    steps.step("a file {string} holding {int} lines") { context, name, count in
        let text = (1...count).map(String.init).joined(separator: "\n") + "\n"
        try text.write(toFile: context.directory + "/" + name, atomically: true, encoding: .utf8)
    }
    return steps
}()

@Suite struct StepLibraryTests {
    /// One test case per scenario (an outline's rows too).
    @Test(arguments: try StepLibrary.scenarios(in: libraryFeatures))
    func scenario(_ scenario: FeatureScenario) async throws {
        try await librarySteps.run(scenario, program: myAppCLI)
    }

    @Test func theScenariosAreTheFeaturesPickles() throws {
        #expect(
            try StepLibrary.scenarios(in: libraryFeatures).map(\.description) == [
                "Steps written in Swift: A greeting chosen by a Swift step",
                "Steps written in Swift: Numbers arrive typed (n = 3)",
                "Steps written in Swift: Numbers arrive typed (n = 12)",
            ])
    }

    @Test func aFailingSwiftStepFailsItsScenarioWithTheTrail() async throws {
        let steps = StepLibrary()
        steps.step("the output has {int} lines") { (context: StepContext, count: Int) in
            try context.fail("expected \(count) lines")
        }
        let scenario = try #require(
            try Self.scenarios(
                """
                Feature: f
                  Scenario: s
                    When I launch the program with "greet"
                    Then the output has 7 lines
                    And I see "never checked"
                """
            ).first)
        let error = await #expect(throws: AutomationError.self) { try await steps.run(scenario, program: myAppCLI) }
        let message = error?.message ?? ""
        #expect(message.contains("scenario \"s\" failed at "), "\(message)")
        #expect(message.contains("expected 7 lines"), "\(message)")
        #expect(
            message.contains(
                "  ✓ When I launch the program with \"greet\"\n  ✗ Then the output has 7 lines\n  - And I see \"never checked\""),
            "\(message)")
    }

    @Test func aSwiftStepThatClashesWithTheCatalogIsRefusedNamingBoth() async throws {
        let steps = StepLibrary()
        steps.step("I see {string}") { (_: StepContext, _: String) in }
        let scenario = try #require(try Self.scenarios("Feature: f\n  Scenario: s\n    Then I see \"x\"\n").first)
        let error = await #expect(throws: AutomationError.self) { try await steps.run(scenario, program: myAppCLI) }
        #expect(error?.message.contains("StepLibraryTests.swift:") == true, "\(error?.message ?? "")")
        #expect(
            error?.message.contains(#"step "I see {string}" clashes with the built-in step "Then I see "logged in as ada"""#) == true,
            "\(error?.message ?? "")")
    }

    @Test func anUndefinedStepOffersASwiftSnippet() async throws {
        let scenario = try #require(try Self.scenarios("Feature: f\n  Scenario: s\n    Given a user \"ada\" with 3 orders\n").first)
        let error = await #expect(throws: AutomationError.self) { try await StepLibrary().run(scenario, program: myAppCLI) }
        #expect(
            error?.message.contains(
                #"steps.step("a user {string} with {int} orders") { (context: StepContext, text1: String, number2: Int) in /* ... */ }"#)
                == true,
            "\(error?.message ?? "")")
    }

    /// The Swift API runs pickles `check` never saw: a number out of range or a bad `@timeout=` stops the scenario
    /// before it runs, naming the line, as `check` would (it used to run with 80 columns and the default timeout).
    @Test func numbersOutOfRangeAreRefusedBeforeTheScenarioRuns() async throws {
        let scenario = try #require(
            try Self.scenarios(
                """
                Feature: f
                  @timeout=abc
                  Scenario: s
                    Given the program runs in a terminal of 99999999999999999999x30
                    When I launch the program with "greet"
                    Then the exit code is 256
                """
            ).first)
        let error = await #expect(throws: AutomationError.self) { try await StepLibrary().run(scenario, program: myAppCLI) }
        let message = error?.message ?? ""
        #expect(message.contains(":3: tag @timeout=abc: 'abc' is not a duration"), "\(message)")
        #expect(message.contains(":4: the terminal's columns '99999999999999999999' is not a whole number from 1 to 1000"), "\(message)")
        #expect(message.contains(":6: the exit code '256' is not a whole number from 0 to 255"), "\(message)")
        #expect(message.contains("- When I launch the program"), "nothing ran: \(message)")
    }

    /// `{int}` past Int and `{float}` past Double are refused by name, never infinity.
    @Test(arguments: [("9223372036854775808", false), ("-9223372036854775808", true), ("1E999", false), ("+1.5E3", true), ("-0", true)])
    func typedArgumentsAreBounded(text: String, accepted: Bool) {
        let asInt = Int(stepArgument: text)
        let asDouble = Double(stepArgument: text)
        if text.contains("E") || text.contains(".") {
            #expect((asDouble != nil) == accepted && asDouble?.isFinite != false)
        } else {
            #expect((asInt != nil) == accepted)
        }
    }

    private static func scenarios(_ text: String) throws -> [FeatureScenario] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID().uuidString).feature").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try StepLibrary.scenarios(in: file)
    }
}

/// Under XCTest: every scenario in one test, each failure reported by name.
final class StepLibraryXCTests: XCTestCase {
    func testFeatureFilesRunUnderXCTest() async throws {
        try await librarySteps.runAll(in: libraryFeatures, program: myAppCLI)
    }
}
