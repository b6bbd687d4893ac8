import Foundation
import ProcessEngine
import Testing

@testable import Scenarios

/// The races of an interrupted `sut-launch test`, made to happen in a fixed order: a signal before any scenario
/// started, a step that ends after the signal, a scenario that finishes as the signal comes, a scenario about to
/// start after it, and a signal after the reports began to be written.
@Suite struct ScenarioReportsInterruptionTests {
    static func pickle(_ name: String, line: Int) -> Pickle {
        let steps = (1...3).map { GherkinDocument.Step(keyword: "When ", kind: "When", text: "step \($0)", line: line + $0) }
        return Pickle(uri: "f.feature", featureName: "F", ruleName: nil, name: name, line: line, tags: [], steps: steps)
    }

    /// Reports into a fresh directory, with the scenarios selected; returns them and the JSON report's path.
    static func reports(_ selected: [Pickle]) throws -> (ScenarioReports, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString).json").path
        let reports = ScenarioReports()
        reports.configure(junit: nil, report: path)
        reports.setConsole(ScenarioConsole(quiet: true, total: selected.count, environment: [:]), selected: selected, notSelected: 0)
        return (reports, path)
    }

    static func results(_ path: String) throws -> [[String: Any]] {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return json["results"] as? [[String: Any]] ?? []
    }

    /// Every scenario not run, and one error entry for the run (r6b-9: the JUnit held only skipped tests, green with
    /// skips, for a run that exited 130 having tested nothing).
    @Test func aSignalBeforeAnyScenarioStartedLeavesThemAllNotRun() throws {
        let (reports, path) = try Self.reports([Self.pickle("a", line: 1), Self.pickle("b", line: 10)])
        #expect(reports.interrupt())
        // The runner asks to start one after the signal: refused.
        #expect(!reports.scenarioStarted(ScenarioProgress(Self.pickle("a", line: 1))))
        #expect(reports.write(exitCode: 130, interruption: "interrupted by SIGINT") == 130)
        let results = try Self.results(path)
        #expect(results.map { $0["status"] as? String } == ["error", "notRun", "notRun"], "\(results)")
        #expect((results.first?["message"] as? String)?.contains("interrupted by SIGINT before any scenario started") == true, "\(results)")
        #expect(results.dropFirst().allSatisfy { $0["message"] as? String == "not run: interrupted by SIGINT" })
    }

    /// r11 R11-1: a signal between two scenarios (the first passed, none running) left passed and not-run entries only:
    /// JUnit said `failures="0" errors="0"` with the rest skipped, green to its readers, for a run that exited 143. One
    /// error entry says how many did not run, in JUnit and the JSON report alike.
    @Test func aSignalBetweenTwoScenariosIsAnErrorEntryNamingWhatDidNotRun() throws {
        let first = Self.pickle("a", line: 1)
        let (reports, path) = try Self.reports([first, Self.pickle("b", line: 10), Self.pickle("c", line: 20)])
        let junit = path + ".xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        reports.configure(junit: junit, report: path)
        #expect(reports.scenarioStarted(ScenarioProgress(first)))
        reports.scenarioFinished(
            ScenarioResult(pickle: first, status: .passed, duration: .seconds(1), trail: [], outputTail: "", unexpectedRequests: []))
        #expect(reports.interrupt())
        #expect(reports.write(exitCode: 143, interruption: "interrupted by SIGTERM") == 143)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="sut-launch" tests="4" failures="0" errors="1""#), "\(xml)")
        let results = try Self.results(path)
        #expect(results.map { $0["status"] as? String } == ["passed", "notRun", "notRun", "error"], "\(results)")
        #expect(results.last?["message"] as? String == "interrupted by SIGTERM between two scenarios: 2 scenarios not run", "\(results)")
    }

    /// Before anything was selected (the files loading): one error entry saying so, never zero scenarios.
    @Test func aSignalWhileTheFilesLoadIsOneErrorEntry() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString).json").path
        let reports = ScenarioReports()
        reports.configure(junit: nil, report: path)
        #expect(reports.interrupt())
        #expect(reports.write(exitCode: 143, interruption: "interrupted by SIGTERM") == 143)
        let results = try Self.results(path)
        #expect(results.map { $0["status"] as? String } == ["error"], "\(results)")
        #expect(results.first?["message"] as? String == "interrupted by SIGTERM while the feature files were loading: no scenario ran")
    }

    @Test func aStepThatEndsAfterTheSignalChangesNothing() throws {
        let pickle = Self.pickle("a", line: 1)
        let (reports, path) = try Self.reports([pickle])
        let progress = ScenarioProgress(pickle)
        #expect(reports.scenarioStarted(progress))
        progress.stepStarted(0)
        progress.stepFinished(0, mark: "✓", duration: .milliseconds(5), failure: nil)
        progress.stepStarted(1)
        #expect(reports.interrupt())
        // The program of step 2 stopped by the interruption: the step "passes", the scenario finishes. Both ignored.
        progress.stepFinished(1, mark: "✓", duration: .milliseconds(5), failure: nil)
        reports.scenarioFinished(
            ScenarioResult(pickle: pickle, status: .passed, duration: .seconds(1), trail: [], outputTail: "", unexpectedRequests: []))
        reports.write(exitCode: 143, interruption: "interrupted by SIGTERM")
        let result = try #require(try Self.results(path).first)
        #expect(result["status"] as? String == "error")
        #expect(result["steps"] as? [String] == ["✓ When step 1", "✗ When step 2", "- When step 3"], "\(result)")
        #expect(result["failedStep"] as? String == "f.feature:3: When step 2")
        #expect(result["message"] as? String == "interrupted by SIGTERM")
    }

    @Test func aScenarioPastItsLastStepAtTheSignalKeepsItsOwnVerdict() throws {
        let pickle = Self.pickle("a", line: 1)
        let (reports, path) = try Self.reports([pickle])
        let progress = ScenarioProgress(pickle)
        #expect(reports.scenarioStarted(progress))
        for index in 0..<3 {
            progress.stepStarted(index)
            progress.stepFinished(index, mark: "✓", duration: .milliseconds(1), failure: nil)
        }
        progress.stepsFinished()
        #expect(reports.interrupt())
        var passed = ScenarioResult(
            pickle: pickle, status: .passed, duration: .seconds(1), trail: [], outputTail: "", unexpectedRequests: [])
        passed.trail = ["✓ When step 1", "✓ When step 2", "✓ When step 3"]
        let result = passed
        let finisher = Thread { reports.scenarioFinished(result) } // while the interruption waits for it
        finisher.start()
        reports.write(exitCode: 130, interruption: "interrupted by SIGINT")
        let written = try #require(try Self.results(path).first)
        #expect(written["status"] as? String == "passed", "\(written)")
    }

    @Test func aScenarioThatAlreadyFailedKeepsItsFailure() throws {
        let pickle = Self.pickle("a", line: 1)
        let progress = ScenarioProgress(pickle)
        progress.stepStarted(0)
        progress.stepFinished(0, mark: "✗", duration: .milliseconds(1), failure: StepFailure("expected 0, got 1"))
        progress.stepStarted(1)
        progress.freeze()
        let result = progress.interruptedResult("interrupted by SIGINT")
        #expect(result.status == .failed && result.failedStep == "f.feature:2: When step 1")
        #expect(result.trail == ["✗ When step 1", "- When step 2", "- When step 3"])
        #expect(result.message == "expected 0, got 1\n(then interrupted by SIGINT)")
    }

    @Test func aSignalAfterTheReportsBeganToBeWrittenIsRefused() throws {
        let (reports, path) = try Self.reports([])
        #expect(reports.write([], exitCode: 0) == 0)
        #expect(!reports.interrupt())
        _ = try Self.results(path)
    }
}
