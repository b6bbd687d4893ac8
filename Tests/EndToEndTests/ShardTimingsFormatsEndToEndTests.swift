import Foundation
import Testing

/// `--shard-timings` reads an earlier run's JUnit, JSON report or Cucumber Messages, as the built binary wrote them.
@Suite struct ShardTimingsFormatsEndToEndTests {
    /// Six scenarios, the fourth one slow (a real `sleep 1`): measured by a real run.
    static func suite(in directory: URL) throws -> String {
        let scenarios = (1...6).map { "  Scenario: s\($0)\n    When I run \"\($0 == 4 ? "sleep 1" : "true")\"\n" }.joined()
        return try CLI.write("Feature: timed\n" + scenarios, "t.feature", in: directory)
    }

    static func shard(_ index: Int, _ timings: String, _ feature: String) throws -> [String] {
        let listed = try CLI.run(["test", "--list", "--shard", "\(index)/2", "--shard-timings", timings, feature])
        #expect(listed.status == 0, "\(listed.stderr)")
        return ShardAutoEndToEndTests.listed(listed.stdout)
    }

    /// The Messages and the JUnit of one real run each balance the next run: the slow scenario gets a shard to
    /// itself, and the shards together are the suite.
    @Test func messagesAndJUnitOfARealRunBalanceTheShards() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(in: directory)
        let messages = directory.appendingPathComponent("m.ndjson").path
        let junit = directory.appendingPathComponent("j.xml").path
        let run = try CLI.run(["test", "--messages", messages, "--junit", junit, feature])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for file in [messages, junit] {
            #expect(try Self.shard(1, file, feature) == ["s4"], "\(file)")
            #expect(try Self.shard(2, file, feature) == ["s1", "s2", "s3", "s5", "s6"], "\(file)")
        }
    }

    /// By `file:line` first: two scenarios with one name are told apart, and a renamed feature keeps its times.
    /// A scenario the file does not know (added since) takes the median, so it lands beside the short ones.
    @Test func timesAreKeyedByFileAndLineAndNewScenariosTakeTheMedian() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: same\n  Scenario: x\n    When I run \"true\"\n  Scenario: x\n    When I run \"true\"\n  Scenario: y\n    When I run \"true\"\n  Scenario: new\n    When I run \"true\"\n",
            "same.feature", in: directory)
        let junit = try CLI.write(
            """
            <testsuites><testsuite name="renamed">
            <testcase classname="renamed" name="x" file="\(feature)" line="2" time="1"/>
            <testcase classname="renamed" name="x" file="\(feature)" line="4" time="100"/>
            <testcase classname="renamed" name="y" file="\(feature)" line="6" time="2"/>
            </testsuite></testsuites>
            """, "old.xml", in: directory)
        let first = try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", junit, feature])
        #expect(first.stdout.contains("same.feature:4") && !first.stdout.contains("same.feature:2"), "\(first.stdout)")
        let second = try CLI.run(["test", "--list", "--shard", "2/2", "--shard-timings", junit, feature])
        #expect(second.stdout.contains("same.feature:8  same: new"), "\(second.stdout)")
    }

    /// Hostile timing files (classes 1, 6, 7): each refused by name with the file and line (exit 3), or as not a
    /// timings file (exit 2); a repeated entry counts with its longest time (documented), never summed or lost.
    @Test func hostileTimingFilesAreRefusedNamingFileAndLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(in: directory)
        let pickle = "{\"pickle\":{\"id\":\"p\",\"uri\":\"\(feature)\",\"location\":{\"line\":2},\"name\":\"s1\"}}"
        let testCase = "{\"testCase\":{\"id\":\"c\",\"pickleId\":\"p\"}}"
        func started(_ seconds: String) -> String {
            "{\"testCaseStarted\":{\"id\":\"s\",\"testCaseId\":\"c\",\"timestamp\":{\"seconds\":\(seconds),\"nanos\":0}}}"
        }
        func finished(_ seconds: String) -> String {
            "{\"testCaseFinished\":{\"testCaseStartedId\":\"s\",\"timestamp\":{\"seconds\":\(seconds),\"nanos\":0}}}"
        }
        let meta = "{\"meta\":{\"protocolVersion\":\"27.0.0\"}}"
        let cases: [(name: String, text: String, status: Int32, says: String)] = [
            (
                "backwards.ndjson", [meta, pickle, testCase, started("100"), finished("50")].joined(separator: "\n"), 3,
                "backwards.ndjson:5"
            ),
            ("huge.ndjson", [meta, pickle, testCase, started("1"), finished("1e300")].joined(separator: "\n"), 3, "huge.ndjson:5"),
            ("negative.ndjson", [meta, pickle, testCase, started("-5"), finished("1")].joined(separator: "\n"), 3, "negative.ndjson:4"),
            ("broken.ndjson", [meta, "{\"pickle\":{\"id\":", testCase].joined(separator: "\n"), 3, "broken.ndjson:2"),
            ("empty.ndjson", meta + "\n", 2, "Cucumber Messages with a scenario's time"),
            ("nan.xml", "<testsuite><testcase classname=\"timed\" name=\"s1\" time=\"NaN\"/></testsuite>", 3, "nan.xml:1"),
            ("minus.xml", "<testsuite>\n<testcase classname=\"timed\" name=\"s1\" time=\"-1\"/></testsuite>", 3, "minus.xml:2"),
            ("inf.json", "{\"results\":[{\"feature\":\"timed\",\"name\":\"s1\",\"durationMs\":1e400}]}", 3, "inf.json:1"),
            ("text.txt", "s1 1.0\ns2 2.0\n", 2, "not a JUnit file"),
        ]
        for item in cases {
            let file = try CLI.write(item.text, item.name, in: directory)
            let result = try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", file, feature])
            #expect(result.status == item.status, "\(item.name): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(item.says), "\(item.name): \(result.stderr)")
        }
        // Huge (a sparse 300 MiB file: no disk used) and a FIFO nobody writes: refused by name, never read or waited on.
        let huge = directory.appendingPathComponent("huge.xml")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let big = try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", huge.path, feature])
        #expect(big.status == 2 && big.stderr.contains("larger than 256 MiB"), "\(big.stderr)")
        let fifo = directory.appendingPathComponent("fifo").path
        _ = try CLI.output(of: ["mkfifo", fifo])
        let waited = try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", fifo, feature])
        #expect(waited.status == 2 && waited.stderr.contains("FIFO"), "\(waited.stderr)")
        // Listed twice (a retried attempt): the longest counts, so s1 (1 s then 500 s) gets a shard to itself.
        let twice = try CLI.write(
            "<testsuite><testcase classname=\"timed\" name=\"s1\" time=\"1\"/><testcase classname=\"timed\" name=\"s1\" time=\"500\"/>"
                + (2...6).map { "<testcase classname=\"timed\" name=\"s\($0)\" time=\"1\"/>" }.joined() + "</testsuite>", "twice.xml",
            in: directory)
        #expect(try Self.shard(1, twice, feature) == ["s1"])
    }
}
