import Foundation
import Testing

/// How `test` reads its feature operands' lines (`FILE:LINE`, `FILE:LINE:LINE`).
@Suite struct FeatureOperandsEndToEndTests {
    /// R10B-8: `FILE:LINE:LINE` (Cucumber's form, what `--write-rerun` writes) was "FILE:LINE: no such feature file"
    /// though FILE exists; it selects each line, as `FILE:LINE FILE:LINE` does.
    @Test func fileLineLineSelectsEachLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: T\n  Scenario: s1\n    When I run \"true\"\n  Scenario: s2\n    When I run \"true\"\n  Scenario: s3\n    When I run \"true\"\n",
            "t.feature", in: directory)
        let result = try CLI.run(["test", "--list", "t.feature:2:4"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("s1") && result.stdout.contains("s2") && !result.stdout.contains("s3"), "\(result.stdout)")
    }

    /// R10B-8: `FILE:02` was read as line 2, where every other number of the command line refuses a leading zero; a line
    /// that is no line (`:0`, `:02`, past the limit) is now exit 2 naming the operand, not "no such feature file".
    @Test(arguments: ["t.feature:02", "t.feature:0", "t.feature:2:07", "t.feature:99999999999999999999"])
    func aLineThatIsNoLineIsAUsageErrorNamingIt(operand: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: T\n  Scenario: s1\n    When I run \"true\"\n", "t.feature", in: directory)
        let result = try CLI.run(["test", "--list", operand], cwd: directory)
        #expect(result.status == 2, "\(operand): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("the feature path \(operand)") && result.stderr.contains("no leading zero"), "\(result.stderr)")
    }
}
