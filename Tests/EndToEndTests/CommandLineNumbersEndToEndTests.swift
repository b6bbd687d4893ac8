import Foundation
import Testing

/// Every number on the command line and in the shard-timings file, tried with HOSTILE.md's list: a usage error
/// (exit 2) naming the option, or exit 3 naming FILE:LINE, never a trap (issue 24: `--shard 1/9223372036854775807
/// --shard-timings F` segfaulted).
@Suite struct CommandLineNumbersEndToEndTests {
    static let hostile = [
        "0", "-1", "-0", "NaN", "nan", "inf", "1e300", "1e-300", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "0x10", "1_000", " 5", "5 ", "", String(repeating: "9", count: 10_000),
    ]

    static let feature =
        "Feature: f\n  Scenario: one\n    Given the program \"true\"\n    When I launch the program\n    Then the exit code is 0\n"
        + "  Scenario: two\n    Given the program \"true\"\n    When I launch the program\n    Then the exit code is 0\n"

    /// `(arguments before the value, arguments after it, values that are valid)`.
    static let options: [(String, [String], [String], Set<String>)] = [
        ("--jobs", ["test", "--list", "--jobs"], [], []),
        ("--shard", ["test", "--list", "--shard"], [], []),
        ("--step-timeout", ["test", "--list", "--step-timeout"], [], ["0"]),
        ("--scenario-timeout", ["test", "--list", "--scenario-timeout"], [], ["0"]),
        ("--port", ["--stub", "STUBS", "--port"], ["true"], ["0"]),
        ("--timeout", ["--timeout"], ["true"], ["0"]),
        ("--kill-grace", ["--kill-grace"], ["true"], ["0"]),
        ("--journal-limit", ["--stub", "STUBS", "--port", "0", "--journal-limit"], ["true"], []),
        ("--journal-limit", ["serve", "--port", "0", "--journal-limit"], [], []),
    ]

    @Test(arguments: 0..<options.count)
    func everyHostileNumberIsAUsageErrorNamingTheOption(which: Int) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.feature, "f.feature", in: directory)
        let stubs = try CLI.write("{\"routes\": []}", "stubs.json", in: directory)
        let (name, before, after, valid) = Self.options[which]
        var values = Self.hostile
        if name == "--shard" {
            values =
                Self.hostile.map { "1/\($0)" } + Self.hostile.map { "\($0)/8" } + ["1/9223372036854775807", "0/0", "2/1", "1/2/3", "/"]
        }
        for value in values {
            var arguments = before.map { $0 == "STUBS" ? stubs : $0 } + [value] + after
            if before.first == "test" { arguments.append(feature) }
            let result = try CLI.run(arguments)
            let shown = String(value.prefix(30))
            if valid.contains(value) {
                #expect(result.status == 0, "\(name) '\(shown)': \(result.stderr)")
            } else {
                #expect(result.status == 2, "\(name) '\(shown)': exit \(result.status) \(result.stderr.prefix(300))")
                #expect(result.stderr.contains(name), "\(name) '\(shown)': \(result.stderr.prefix(300))")
                #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr.prefix(300))")
            }
        }
    }

    @Test func aHugeShardCountWithTimingsRunsItsShareWithoutCrashing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.feature, "f.feature", in: directory)
        let junit = directory.appendingPathComponent("timings.xml").path
        #expect(try CLI.run(["test", "--junit", junit, feature]).status == 0)
        let huge = try CLI.run(["test", "--shard", "1/9223372036854775807", "--shard-timings", junit, "--list", feature])
        #expect(huge.status == 2 && huge.stderr.contains("--shard"), "\(huge.stderr)")
        // The largest count there is: shard 1 gets one scenario, shard 10000 none (exit 0, said on stderr).
        let first = try CLI.run(["test", "--shard", "1/10000", "--shard-timings", junit, feature])
        #expect(first.status == 0 && first.stdout.contains("1 scenario: 1 passed"), "\(first.stdout) \(first.stderr)")
        let last = try CLI.run(["test", "--shard", "10000/10000", "--shard-timings", junit, feature])
        #expect(last.status == 0 && last.stderr.contains("shard 10000/10000 has no scenarios"), "\(last.stderr)")
        // Both shards of 2 together run each scenario once.
        let one = try CLI.run(["test", "--shard", "1/2", "--shard-timings", junit, "--list", feature]).stdout
        let two = try CLI.run(["test", "--shard", "2/2", "--shard-timings", junit, "--list", feature]).stdout
        #expect(one.contains("one") != two.contains("one") && one.contains("two") != two.contains("two"), "\(one) | \(two)")
    }

    @Test func aBadNumberInTheTimingsFileIsExit3NamingFileAndLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.feature, "f.feature", in: directory)
        for time in ["nan", "inf", "-1", "1e300", "0x10", "", " 5", "1,5", String(repeating: "9", count: 10_000)] {
            let junit = try CLI.write(
                "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"f\">\n<testcase classname=\"f\" name=\"one\" time=\"1\"/>\n"
                    + "<testcase classname=\"f\" name=\"two\" time=\"\(time)\"/>\n</testsuite>\n</testsuites>\n", "t.xml", in: directory)
            let result = try CLI.run(["test", "--shard", "1/2", "--shard-timings", junit, feature])
            #expect(result.status == 3, "time '\(time.prefix(20))': \(result.stderr)")
            #expect(result.stderr.contains("t.xml:5: testcase time"), "\(result.stderr)")
        }
        // A `line` attribute that is no line (it was dropped in silence: the scenario fell back to its name).
        for line in ["9999999999999999999999", "-1", "3x", "", " 3", "1e3", "0x10"] {
            let junit = try CLI.write(
                "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"f\">\n<testcase classname=\"f\" name=\"one\" time=\"1\"/>\n"
                    + "<testcase classname=\"f\" name=\"two\" file=\"f.feature\" line=\"\(line)\" time=\"2\"/>\n</testsuite>\n</testsuites>\n",
                "t.xml", in: directory)
            let result = try CLI.run(["test", "--shard", "1/2", "--shard-timings", junit, feature])
            #expect(result.status == 3, "line '\(line)': \(result.stderr)")
            #expect(result.stderr.contains("t.xml:5: testcase line '\(line)' is not a whole number"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        for milliseconds in ["1e300", "-1", "1e13", "\"5\"", "null", "-9223372036854775808"] {
            let report = try CLI.write(
                "{\"results\": [\n  {\"feature\": \"f\", \"name\": \"one\", \"durationMs\": 5},\n"
                    + "  {\"feature\": \"f\", \"name\": \"two\", \"durationMs\": \(milliseconds)}\n]}\n", "r.json", in: directory)
            let result = try CLI.run(["test", "--shard", "1/2", "--shard-timings", report, feature])
            #expect(result.status == 3, "durationMs \(milliseconds): \(result.stderr)")
            #expect(result.stderr.contains("r.json:3:"), "\(result.stderr)")
        }
        let broken = try CLI.write("{\"results\": [\n  {\"feature\": \"f\",\n", "broken.json", in: directory)
        let result = try CLI.run(["test", "--shard", "1/2", "--shard-timings", broken, feature])
        #expect(result.status == 3 && result.stderr.contains("broken.json:"), "\(result.stderr)")
    }
}
