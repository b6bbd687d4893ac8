import Foundation
import Testing

/// The outside attack on scenario timeouts (findings 7 and 12), replayed against the built binary.
@Suite struct TimeoutAttackEndToEndTests {
    /// Finding 7: `Given the files from` a fixture of 30,000 files stops at the scenario's 500ms deadline, and
    /// the failure is pinned on that step (it used to run on for seconds and blame the next step).
    @Test func theScenarioTimeoutStopsALongCopy() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = directory.appendingPathComponent("fx")
        for folder in 0..<30 {
            let sub = fixture.appendingPathComponent("d\(folder)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for file in 0..<1000 {
                _ = FileManager.default.createFile(atPath: sub.appendingPathComponent("f\(file)").path, contents: Data("x".utf8))
            }
        }
        let feature = try CLI.write(
            "Feature: t\n  @timeout=500ms\n  Scenario: copy\n    Given the files from \"fx\"\n    When I run \"true\"\n", "t.feature",
            in: directory)
        let started = Date()
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("the copy of") && result.stdout.contains("stopped by the scenario's 500ms timeout"), "\(result.stdout)")
        #expect(!result.stdout.contains("before this step"), "\(result.stdout)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// Finding 12: two timeout tags on one scenario are an error naming both and the scenario (check and test);
    /// a near miss (`@Timeout=`, `@TIMEOUT=`, `@timeout:`, `@timout=`) is a warning, as a misspelt keyword is.
    @Test func twoTimeoutTagsAreAnErrorAndNearMissesAWarning() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let two = try CLI.write(
            "Feature: t\n\n  @timeout=1s @timeout=3s\n  Scenario: two\n    When I run \"true\"\n", "two.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, two])
            #expect(result.status == 3, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
            let said = result.stdout + result.stderr
            #expect(said.contains("two.feature:4") && said.contains("@timeout=1s") && said.contains("@timeout=3s"), "\(said)")
        }
        for tag in ["@Timeout=1s", "@TIMEOUT=1s", "@timeout:1s", "@timout=1s"] {
            let near = try CLI.write("Feature: t\n\n  \(tag)\n  Scenario: near\n    When I run \"true\"\n", "near.feature", in: directory)
            for command in ["check", "test"] {
                let result = try CLI.run([command, near])
                let said = result.stdout + result.stderr
                #expect(
                    result.status == 0 && said.contains("warning: ") && said.contains("did you mean @timeout=1s"),
                    "\(tag) \(command): \(said)")
            }
        }
    }
}
