import Foundation
import Testing

/// The fifth attack on `test`'s and `check`'s outputs, replayed against the built binary: `-D` values in every
/// spelling left out of the reports' command line; `check --messages` never over a step, stub or fixture file (and
/// `check DIR` reads step files as step files); `GITHUB_STEP_SUMMARY` checked like any output and kept under GitHub's
/// 1 MiB; a scenario whose Messages line would pass what `report` reads refused when it loads.
@Suite struct OutputsAgainstInputsEndToEndTests {
    static let passing = "Feature: F\n  Scenario: a\n    When I run \"true\"\n"

    @Test func everySpellingOfDefineIsLeftOutOfTheCommandLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.passing, "f.feature", in: directory)
        let spellings: [[String]] = [
            ["-DTOK=s3cr3tA"], ["-D=TOK=s3cr3tA"], ["-D", "TOK=s3cr3tA"], ["-qD", "TOK=s3cr3tA"], ["-qDTOK=s3cr3tA"],
            ["--define=TOK=s3cr3tA"], ["--define", "TOK=s3cr3tA"],
        ]
        for (index, spelling) in spellings.enumerated() {
            let ran = try CLI.run(
                ["test"] + spelling + ["--messages", "d\(index).ndjson", "--html", "d\(index).html", "f.feature"], cwd: directory)
            #expect(ran.status == 0, "\(spelling): \(ran.stderr)")
            for file in ["d\(index).ndjson", "d\(index).html"] {
                let text = try ReportGapsEndToEndTests.text(directory, file)
                #expect(!text.contains("s3cr3tA"), "\(spelling): \(file) holds the value")
                #expect(text.contains("TOK=…"), "\(spelling): \(file) does not show the name")
            }
        }
    }

    @Test func checkMessagesIsRefusedOverAnInputAndReadsStepFilesAsStepFiles() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let steps = #"{"steps":[{"step":"zz","run":["true"]}]}"#
        _ = try CLI.write(ReportVerdictEndToEndTests.fourScenarios, "sd3/f.feature", in: directory)
        _ = try CLI.write(steps, "sd3/s.steps.json", in: directory)
        _ = try CLI.write(#"{"routes":[{"path":"/a","status":200}]}"#, "sd5/stubs/r.json", in: directory)
        _ = try CLI.write("input", "sd5/fx/in.txt", in: directory)
        _ = try CLI.write(
            "Feature: S\n  Scenario: s\n    Given the stubs \"stubs/r.json\"\n    Given the files from \"fx\"\n    When I run \"true\"\n",
            "sd5/s.feature", in: directory)
        for (output, operand, input) in [
            ("sd3/s.steps.json", "sd3", "sd3/s.steps.json"), ("sd5/stubs/r.json", "sd5/s.feature", "sd5/stubs/r.json"),
            ("sd5/fx/in.txt", "sd5/s.feature", "sd5/fx/in.txt"),
        ] {
            let before = try ReportGapsEndToEndTests.text(directory, input)
            let checked = try CLI.run(["check", "--messages", output, operand], cwd: directory)
            #expect(checked.status == 2 && checked.stderr.contains("--messages \(output) would overwrite"), "\(output): \(checked.stderr)")
            #expect(try ReportGapsEndToEndTests.text(directory, input) == before, "\(input) was written")
        }
        _ = try CLI.write("Feature: S\n  Scenario: s\n    When zz\n", "sd4/s.feature", in: directory)
        _ = try CLI.write(steps, "sd4/s.steps.json", in: directory)
        let test = try CLI.run(["test", "-q", "sd4"], cwd: directory)
        let check = try CLI.run(["check", "sd4"], cwd: directory)
        #expect(test.status == 0 && check.status == 0, "test \(test.status), check \(check.status): \(check.stderr)")
        let fresh = try CLI.run(["check", "--messages", "new.ndjson", "sd4"], cwd: directory)
        #expect(fresh.status == 0, "\(fresh.stderr)")
    }

    /// GITHUB_STEP_SUMMARY naming the feature file or another output: exit 2 naming both, the file untouched.
    @Test func theStepSummaryIsCheckedLikeAnyOutput() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.passing, "s.feature", in: directory)
        _ = try CLI.write("", "j.xml", in: directory)
        func github(_ summary: String, _ arguments: [String]) throws -> CLI.Result {
            var environment = CLI.localEnvironment
            environment["GITHUB_ACTIONS"] = "true"
            environment["GITHUB_STEP_SUMMARY"] = directory.appendingPathComponent(summary).path
            return try CLI.run(["test", "--format", "github"] + arguments + ["s.feature"], environment: environment, cwd: directory)
        }
        let overFeature = try github("s.feature", [])
        #expect(
            overFeature.status == 2 && (overFeature.stdout + overFeature.stderr).contains("GITHUB_STEP_SUMMARY"), "\(overFeature.stderr)")
        #expect(try ReportGapsEndToEndTests.text(directory, "s.feature") == Self.passing)
        for (file, option) in [("j.xml", "--junit"), ("r.json", "--report"), ("m.ndjson", "--messages")] {
            let ran = try github(file, [option, file])
            let said = ran.stdout + ran.stderr
            #expect(ran.status == 2 && said.contains("GITHUB_STEP_SUMMARY") && said.contains("\(option) \(file)"), "\(option): \(said)")
        }
    }

    /// 600 passing scenarios with 2,000-character names (1.2 MB of rows) and one failing: the summary stays under
    /// 1 MiB, the failure listed first; each name is cut at 500 characters, so every row fits.
    @Test func theStepSummaryStaysUnderGitHubsLimit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = String(repeating: "x", count: 2000)
        let scenarios = (1...600).map { "  Scenario: \(long) \($0)\n    When I run \"true\"\n" }.joined()
        _ = try CLI.write(
            "Feature: B\n" + scenarios + "  Scenario: last fails\n    When I run \"false\"\n    Then the exit code is 0\n", "big.feature",
            in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = directory.appendingPathComponent("sum.md").path
        let ran = try CLI.run(["test", "--jobs", "2", "--format", "github", "big.feature"], environment: environment, cwd: directory)
        #expect(ran.status == 1, "\(ran.stderr)")
        let summary = try ReportGapsEndToEndTests.text(directory, "sum.md")
        #expect(summary.utf8.count < 1 << 20, "\(summary.utf8.count) bytes")
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(rows.dropFirst().first?.contains("last fails") == true, "the failure is not listed first")
        #expect(rows.count == 602 && rows.allSatisfy { $0.utf8.count < 700 }, "\(rows.count) rows")
        #expect(!summary.contains("not listed") && summary.contains("600 of 601 passed"), "\(summary.suffix(300))")
    }

    /// An Outline row that fills a doc string with control characters (4.4 million, 26 MB escaped in one pickle line):
    /// refused when it loads, naming the scenario's line, before anything runs.
    @Test func aPickleOverTheMessagesLineBudgetIsRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = (1...10).map { _ in "      " + String(repeating: "<a>", count: 400) }.joined(separator: "\n")
        let value = String(repeating: "\u{1}", count: 1100)
        let feature = """
            Feature: B
              Scenario Outline: o
                Given a file "t" with:
                  \"\"\"
            \(lines)
                  \"\"\"
                When I run "true"
                Examples:
                  | a |
                  | \(value) |

            """
        _ = try CLI.write(feature, "b.feature", in: directory)
        let ran = try CLI.run(["test", "--messages", "b.ndjson", "b.feature"], cwd: directory)
        #expect(ran.status == 3 && ran.stderr.contains("b.feature:") && ran.stderr.contains("one Cucumber Messages line"), "\(ran.stderr)")
        let check = try CLI.run(["check", "b.feature"], cwd: directory)
        #expect(check.status == 3, "\(check.stderr)")
    }
}
