import Foundation
import Testing

/// `--shard auto`: the shard read from the CI's variables, with the built binary and a clean environment (nothing
/// of the machine running the tests leaks in: a CI running this suite sets some of these very variables).
@Suite struct ShardAutoEndToEndTests {
    static let base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]

    /// A feature of `count` scenarios named s1…sN.
    static func suite(_ count: Int, in directory: URL) throws -> String {
        let scenarios = (1...count).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined()
        return try CLI.write("Feature: sharded\n" + scenarios, "s.feature", in: directory)
    }

    /// The scenario names `test --list` printed.
    static func listed(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { $0.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Every CI's variables, one machine after another: the shards together are the whole suite, none twice,
    /// and each run says on stderr which CI and variables it used.
    @Test(arguments: [
        ("GitLab CI", 1, "CI_NODE_INDEX", "CI_NODE_TOTAL"),
        ("Bazel", 0, "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS"),
        ("Buildkite", 0, "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT"),
        ("CircleCI", 0, "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL"),
        ("a Kubernetes Indexed Job", 0, "JOB_COMPLETION_INDEX", ""),
    ])
    func theShardsOfEveryCIAreTheWholeSuiteWithNoOverlap(ci: String, base: Int, indexName: String, totalName: String) throws {
        func variables(_ k: Int) -> [String: String] { totalName.isEmpty ? [indexName: "\(k)"] : [indexName: "\(k)", totalName: "4"] }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(10, in: directory)
        var seen: [String] = []
        for k in base..<(base + 4) {
            let shard = ci.hasPrefix("a Kubernetes") ? "auto/4" : "auto"
            let result = try CLI.run(["test", "--list", "--shard", shard, feature], environment: Self.base.merging(variables(k)) { $1 })
            #expect(result.status == 0, "\(ci) \(k): \(result.stderr)")
            #expect(result.stderr.contains("--shard auto: shard \(k - base + 1)/4 from \(ci) ("), "\(result.stderr)")
            for (name, value) in variables(k) { #expect(result.stderr.contains("\(name)=\(value)"), "\(result.stderr)") }
            seen += Self.listed(result.stdout)
        }
        #expect(seen.sorted() == (1...10).map { "s\($0)" }.sorted(), "\(ci): \(seen)")
    }

    /// Bazel's test protocol: the status file is touched (this runner shards) and JUnit lands in XML_OUTPUT_FILE.
    @Test func bazelGetsItsStatusFileAndItsJUnit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(3, in: directory)
        let status = directory.appendingPathComponent("status").path
        let xml = directory.appendingPathComponent("test.xml").path
        let environment = Self.base.merging(
            ["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": status, "XML_OUTPUT_FILE": xml]) { $1 }
        let result = try CLI.run(["test", "--shard", "auto", feature], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: status))
        let junit = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(junit.contains("name=\"s2\"") && !junit.contains("name=\"s1\""), "\(junit)")
        // A status file Bazel cannot have meant (a directory that is not there) is a usage error, nothing run.
        let missing = environment.merging(["TEST_SHARD_STATUS_FILE": directory.appendingPathComponent("no/such").path]) { $1 }
        let refused = try CLI.run(["test", "--shard", "auto", feature], environment: missing)
        #expect(refused.status == 2 && refused.stderr.contains("TEST_SHARD_STATUS_FILE"), "\(refused.stderr)")
        // A link planted at XML_OUTPUT_FILE is not written through.
        let target = directory.appendingPathComponent("elsewhere").path
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link.xml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = try CLI.run(["test", "--shard", "auto", feature], environment: environment.merging(["XML_OUTPUT_FILE": link]) { $1 })
        #expect(linked.status == 2 && linked.stderr.contains("XML_OUTPUT_FILE"), "\(linked.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    /// R9B-5: XML_OUTPUT_FILE is an output like the options: one of them naming the same file is refused (exit 2,
    /// naming both), as two options are; it was written over (`--messages` became JUnit, Bazel's test.xml JSON), exit 0.
    /// R10B-1: and refused before any placeholder, as two options are: the file and every other output kept their bytes
    /// (they were left "the run did not finish").
    @Test(arguments: ["--messages", "--report", "--html", "--write-rerun"])
    func anOutputOptionNamingXMLOutputFileIsRefused(option: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(1, in: directory)
        let xml = directory.appendingPathComponent("t.out").path
        let other = directory.appendingPathComponent("other.out").path
        try "PRECIOUS".write(toFile: xml, atomically: true, encoding: .utf8)
        try "P2".write(toFile: other, atomically: true, encoding: .utf8)
        let otherOption = option == "--messages" ? "--html" : "--messages"
        let environment = Self.base.merging(["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "1", "XML_OUTPUT_FILE": xml]) { $1 }
        let result = try CLI.run(
            ["test", "--shard", "auto", option, "./t.out", otherOption, other, feature], environment: environment, cwd: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(option) ./t.out and XML_OUTPUT_FILE \(xml) name the same file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: xml, encoding: .utf8) == "PRECIOUS")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "P2")
    }

    /// Hostile values (classes 1 and 2): each is a usage error (exit 2) naming the variable, nothing run, nothing
    /// guessed; control characters in a value are escaped in the message (class 4).
    @Test(arguments: [
        (["CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"], "auto", "CI_NODE_INDEX='5'"),
        (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"], "auto", "GitLab CI counts from 1"),
        (["CIRCLE_NODE_INDEX": "-1", "CIRCLE_NODE_TOTAL": "4"], "auto", "CIRCLE_NODE_INDEX='-1'"),
        (["BUILDKITE_PARALLEL_JOB": "one", "BUILDKITE_PARALLEL_JOB_COUNT": "4"], "auto", "BUILDKITE_PARALLEL_JOB='one'"),
        (["TEST_SHARD_INDEX": "", "TEST_TOTAL_SHARDS": "4"], "auto", "TEST_SHARD_INDEX=''"),
        (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "0"], "auto", "TEST_TOTAL_SHARDS='0'"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "9223372036854775808"], "auto", "CI_NODE_TOTAL='9223372036854775808'"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": " 4"], "auto", "CI_NODE_TOTAL=' 4'"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "0x4"], "auto", "CI_NODE_TOTAL='0x4'"),
        (["CI_NODE_INDEX": "1\u{1B}]0;x\u{07}", "CI_NODE_TOTAL": "4"], "auto", "CI_NODE_INDEX='1\\u{1B}]0;x\\u{7}'"),
        (["CI_NODE_TOTAL": "3"], "auto", "CI_NODE_INDEX is not set"),
        (["BUILDKITE_PARALLEL_JOB": "2"], "auto", "BUILDKITE_PARALLEL_JOB_COUNT is not"),
        (["JOB_COMPLETION_INDEX": "2"], "auto", "pass --shard auto/N"),
        (["JOB_COMPLETION_INDEX": "4"], "auto/4", "JOB_COMPLETION_INDEX='4'"),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], "auto/3", "CI_NODE_TOTAL=4"),
        (
            ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4", "CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "4"], "auto",
            "but CircleCI says 3/4"
        ),
        (["GITHUB_ACTIONS": "true"], "auto", "this is GitHub Actions, which sets no shard index: pass --shard ${{ matrix.shard }}/N"),
        ([:], "auto", "CI_NODE_INDEX/CI_NODE_TOTAL"),
        ([:], "auto/0", "the total after auto/"),
        ([:], "auto/-1", "the total after auto/"),
        ([:], "autox", "is not K/N"),
    ])
    func hostileVariablesAreUsageErrorsNamingTheVariable(variables: [String: String], shard: String, named: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(2, in: directory)
        let result = try CLI.run(["test", "--shard", shard, feature], environment: Self.base.merging(variables) { $1 })
        #expect(result.status == 2, "\(variables): \(result.status) \(result.stdout)")
        #expect(result.stderr.contains(named), "\(variables): \(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "a control character reached the terminal: \(result.stderr.debugDescription)")
        #expect(!result.stdout.contains("✓"), "something ran: \(result.stdout)")
    }

    /// Precedence: a CI that does not split (GitLab's CI_NODE_TOTAL=1 on every job) does not contradict Bazel inside it.
    @Test func aCIThatDoesNotSplitDoesNotContradictTheOneThatDoes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(4, in: directory)
        let environment = Self.base.merging(["CI_NODE_TOTAL": "1", "TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2"]) { $1 }
        let result = try CLI.run(["test", "--list", "--shard", "auto", feature], environment: environment)
        #expect(result.status == 0 && result.stderr.contains("shard 2/2 from Bazel"), "\(result.stderr)")
        #expect(Self.listed(result.stdout) == ["s2", "s4"], "\(result.stdout)")
    }

    /// A 2-way `--shard auto` on GitLab (one pipeline id, CI_NODE_INDEX/CI_NODE_TOTAL per job): each run record
    /// keeps the shard it resolved, so `report` given one shard's Messages names the other as missing (exit 1),
    /// both are a whole merge (exit 0), and one given twice is named.
    @Test func autoShardsAreCountedByReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.suite(4, in: directory)
        for k in 1...2 {
            let environment = Self.base.merging(["CI_PIPELINE_ID": "77", "CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "2"]) { $1 }
            let run = try CLI.run(
                ["test", "--shard", "auto", "--messages", "m\(k).ndjson", feature], environment: environment, cwd: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let messages = try String(contentsOf: directory.appendingPathComponent("m\(k).ndjson"), encoding: .utf8)
            #expect(messages.contains("\\\"shard\\\":\\\"\(k)/2\\\""), "shard \(k)'s record does not say \(k)/2")
        }
        let partial = try CLI.run(["report", "--junit", "one.xml", "m1.ndjson"], environment: Self.base, cwd: directory)
        #expect(partial.status == 1, "\(partial.stdout)\(partial.stderr)")
        #expect(partial.stderr.contains("report: run gitlab:77: shard 2/2 missing"), "\(partial.stderr)")
        let whole = try CLI.run(["report", "--junit", "all.xml", "m1.ndjson", "m2.ndjson"], environment: Self.base, cwd: directory)
        #expect(whole.status == 0, "\(whole.stderr)")
        let twice = try CLI.run(
            ["report", "--merge-any", "--junit", "t.xml", "m2.ndjson", "m1.ndjson", "m2.ndjson"], environment: Self.base, cwd: directory)
        #expect(twice.status == 1 && twice.stderr.contains("shard 2/2 given 2 times"), "\(twice.stderr)")
    }
}
