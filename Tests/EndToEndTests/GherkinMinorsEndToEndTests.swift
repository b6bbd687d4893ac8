import Foundation
import Testing

/// Fifth attack on `sut-launch test` (r5b), the minor notes: an empty XML_OUTPUT_FILE, near-miss `@retries=` and
/// `@quarantine` tags, a report on the console's stdout, `the file "d" exists` on a directory, `exit code is -0`
/// and blank run ids.
@Suite struct GherkinMinorsEndToEndTests {
    private static let passing = "Feature: P\n  Scenario: s\n    When I run \"true\"\n"

    /// m1: `XML_OUTPUT_FILE=` (set, empty) under Bazel's `--shard auto` would write no JUnit: exit 2 saying so.
    @Test func anEmptyXMLOutputFileIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.passing, "p.feature", in: directory)
        let environment = CLI.localEnvironment.merging(["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "1", "XML_OUTPUT_FILE": ""]) { $1 }
        let result = try CLI.run(["test", "--shard", "auto", feature], environment: environment, cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("XML_OUTPUT_FILE is set and empty"), "\(result.stderr)")
    }

    /// m2: tags that look meant as `@retries=` or `@quarantine` are warned about as `@timeout` near misses are.
    @Test func nearMissRetriesAndQuarantineTagsAreWarnedAbout() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: M\n  @Retries=2 @retries:2 @retry=1 @Quarantine @quarantined @retries=1 @quarantine @smoke\n"
                + "  Scenario: s\n    When I run \"true\"\n", "m.feature", in: directory)
        let result = try CLI.run(["check", feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for (tag, meant) in [
            ("@Retries=2", "@retries=2"), ("@retries:2", "@retries=2"), ("@retry=1", "@retries=1"), ("@Quarantine", "@quarantine"),
            ("@quarantined", "@quarantine"),
        ] {
            #expect(result.stderr.contains("tag \(tag) ") && result.stderr.contains("did you mean \(meant)?"), "\(tag): \(result.stderr)")
        }
        #expect(!result.stderr.contains("tag @smoke") && !result.stderr.contains("tag @retries=1 "), "\(result.stderr)")
    }

    /// m3: `--messages /dev/stdout` where the console writes (a pipe) would interleave both: exit 2.
    @Test func aReportOnTheConsolesStdoutIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.passing, "p.feature", in: directory)
        // stdout a pipe (a file at /dev/stdout is refused as a link already).
        let piped = try CLI.output(of: [
            "sh", "-c", "\"$0\" test --messages /dev/stdout \"$1\" 2>&1; echo \"exit $?\"", CLI.sutLaunch, feature,
        ])
        #expect(piped.contains("--messages /dev/stdout is where the console writes (stdout)"), "\(piped)")
        #expect(piped.hasSuffix("exit 2\n") && !piped.contains("{\"meta\""), "\(piped)")
        // The way out the message gives: the report on descriptor 3, the console on stderr.
        let console = directory.appendingPathComponent("console.txt").path
        let moved = try CLI.output(of: [
            "sh", "-c", "\"$0\" test --messages /dev/fd/3 \"$1\" 3>&1 1>\"$2\" 2>&1", CLI.sutLaunch, feature, console,
        ])
        #expect(moved.hasPrefix("{\"meta\""), "\(moved.prefix(200))")
        #expect(try String(contentsOfFile: console, encoding: .utf8).contains("1 scenario: 1 passed"))
        // /dev/null for both stays allowed.
        let null = try CLI.output(of: [
            "sh", "-c", "\"$0\" test -q --junit /dev/null \"$1\" >/dev/null 2>&1; echo $?", CLI.sutLaunch, feature,
        ])
        #expect(null.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(null)")
    }

    /// m4: `the file "d" exists` fails on a directory (and `does not exist` too); `exit code is -0` and `00` are refused.
    @Test func fileStepsAndExitCodesAreTakenAsWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: D\n  Scenario: exists\n    When I run \"mkdir d\"\n    Then the file \"d\" exists\n"
                + "  Scenario: absent\n    When I run \"mkdir d\"\n    Then the file \"d\" does not exist\n", "d.feature", in: directory)
        let result = try CLI.run(["test", feature], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 passed, 2 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("it is a directory, not a file"), "\(result.stdout)")
        for written in ["-0", "00", "+0"] {
            let codes = try CLI.write(
                "Feature: E\n  Scenario: s\n    When I run \"true\"\n    Then the exit code is \(written)\n", "e.feature", in: directory)
            let checked = try CLI.run(["check", codes], cwd: directory)
            #expect(checked.status == 3, "\(written): \(checked.stdout)\(checked.stderr)")
            #expect(checked.stderr.contains("e.feature:4: the exit code '\(written)'"), "\(checked.stderr)")
        }
    }

    /// m5: a run id that is blank or starts or ends with a space is refused, from `--run-id` or a CI variable.
    @Test func blankRunIdsAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.passing, "p.feature", in: directory)
        for id in [" ", " a", "a "] {
            let result = try CLI.run(["test", "--run-id", id, feature], cwd: directory)
            #expect(result.status == 2, "'\(id)': \(result.stdout)\(result.stderr)")
        }
        let environment = CLI.localEnvironment.merging(["GITHUB_RUN_ID": " 5"]) { $1 }
        let result = try CLI.run(["test", feature], environment: environment, cwd: directory)
        #expect(result.status == 2 && result.stderr.contains("GITHUB_RUN_ID"), "\(result.stdout)\(result.stderr)")
        #expect(try CLI.run(["test", "--run-id", "a b", feature], cwd: directory).status == 0)
    }
}
