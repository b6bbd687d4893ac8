import Foundation
import Testing

/// The outside attack on `--shard`, `--shard auto` and `--shard-timings` (findings 2, 3, 8, 10, 11, 14–17), each
/// replayed against the built binary.
@Suite struct ShardAttackEndToEndTests {
    static func shard(_ timings: String, _ feature: String) throws -> CLI.Result {
        try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", timings, feature])
    }

    /// Finding 2 and 16: a broken Messages line anywhere (never parsed or not), a JUnit that is not well-formed,
    /// each refused naming FILE:LINE (exit 3); CR-only line ends count as lines; a BOM is accepted in every format.
    @Test func brokenTimingsAreRefusedByLineAndABOMIsAcceptedEverywhere() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try ShardTimingsFormatsEndToEndTests.suite(in: directory)
        let meta = "{\"meta\":{\"protocolVersion\":\"27.0.0\"}}"
        let pickle = "{\"pickle\":{\"id\":\"p\",\"uri\":\"\(feature)\",\"location\":{\"line\":2},\"name\":\"s1\"}}"
        let timed = [
            pickle, "{\"testCase\":{\"id\":\"c\",\"pickleId\":\"p\"}}",
            "{\"testCaseStarted\":{\"id\":\"s\",\"testCaseId\":\"c\",\"timestamp\":{\"seconds\":1,\"nanos\":0}}}",
            "{\"testCaseFinished\":{\"testCaseStartedId\":\"s\",\"timestamp\":{\"seconds\":9,\"nanos\":0}}}",
        ]
        let junit = "<testsuites><testsuite name=\"timed\"><testcase classname=\"timed\" name=\"s1\" time=\"5\"/></testsuite></testsuites>"
        let cases: [(name: String, text: String, says: String)] = [
            ("line2.ndjson", ([meta, "not json {"] + timed).joined(separator: "\n"), "line2.ndjson:2"),
            ("appended.ndjson", ([meta] + timed + ["garbage{"]).joined(separator: "\n"), "appended.ndjson:6"),
            ("attachment.ndjson", ([meta, "{\"attachment\":{\"body\":\"x\""] + timed).joined(separator: "\n"), "attachment.ndjson:2"),
            (
                "wrong.xml",
                "<testsuites><testsuite name=\"Login\"><testcase classname=\"timed\" name=\"s1\" time=\"5\"></wrong></nope>garbage <<<< & &&",
                "wrong.xml:1"
            ),
            ("cut.xml", "<testsuites>\n<testsuite name=\"timed\">\n<testcase classname=\"timed\" name=\"s1\" time=\"5\"/>\n", "cut.xml:4"),
            ("amp.xml", "<testsuites>\n<testcase classname=\"a & b\" name=\"s1\" time=\"5\"/></testsuites>", "amp.xml:2"),
            ("entity.xml", "<!DOCTYPE x [<!ENTITY a \"b\">]><testsuites><testcase name=\"&a;\" time=\"1\"/></testsuites>", "entity.xml:1"),
            (
                "cr.xml", "<testsuites>\r<testsuite>\r<testcase classname=\"timed\" name=\"s1\" time=\"x\"/>\r</testsuite></testsuites>",
                "cr.xml:3"
            ),
        ]
        for item in cases {
            let file = try CLI.write(item.text, item.name, in: directory)
            let result = try Self.shard(file, feature)
            #expect(result.status == 3 && result.stderr.contains(item.says), "\(item.name): \(result.status) \(result.stderr)")
        }
        let bom = "\u{FEFF}"
        let report = "{\"results\":[{\"feature\":\"timed\",\"name\":\"s1\",\"durationMs\":5000}]}"
        for (name, text) in [("bom.ndjson", ([meta] + timed).joined(separator: "\n")), ("bom.json", report), ("bom.xml", junit)] {
            let file = try CLI.write(bom + text, name, in: directory)
            let result = try Self.shard(file, feature)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name): \(result.stderr)")
        }
    }

    /// Finding 3: a JUnit file is read in one linear pass. 60 MB of whitespace and a 16 MB attribute took 9 s and
    /// 17 s; a 64 MiB file of NUL bytes is refused at once. Bounds are generous (a debug build on a loaded machine).
    @Test func largeJUnitFilesAreReadLinearlyAndBinaryOnesRefusedAtOnce() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try ShardTimingsFormatsEndToEndTests.suite(in: directory)
        let testcase = "<testcase classname=\"timed\" name=\"s4\" time=\"50\"/>"
        let spaces = directory.appendingPathComponent("spaces.xml")
        try Data(("<testsuites>" + String(repeating: " ", count: 60 << 20) + testcase + "</testsuites>").utf8).write(to: spaces)
        let attribute = directory.appendingPathComponent("attribute.xml")
        try Data(
            ("<testsuites><testcase classname=\"timed\" name=\"s4\" time=\"50\" x=\"" + String(repeating: "a", count: 16 << 20)
                + "\"/></testsuites>").utf8
        )
        .write(to: attribute)
        for file in [spaces, attribute] {
            let started = Date()
            let result = try Self.shard(file.path, feature)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(file.lastPathComponent): \(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 8, "\(file.lastPathComponent) took \(Date().timeIntervalSince(started)) s")
        }
        let zeros = directory.appendingPathComponent("zeros.xml")
        _ = FileManager.default.createFile(atPath: zeros.path, contents: nil)
        let handle = try FileHandle(forWritingTo: zeros)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        let started = Date()
        let result = try Self.shard(zeros.path, feature)
        #expect(result.status == 3 && result.stderr.contains("zeros.xml:1: a NUL byte"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 8)
    }

    /// Finding 10: a file named twice (also as ./x, or inside a directory also named) runs once, in first-seen
    /// order; a line selection of either spelling still selects.
    @Test func overlappingPathsRunEachScenarioOnce() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try ShardAutoEndToEndTests.suite(2, in: directory.appendingPathComponent("F"))
        let run = try CLI.run(["test", "F/s.feature", "F/s.feature", "./F/s.feature"], cwd: directory)
        #expect(run.status == 0 && run.stdout.contains("2 scenarios: 2 passed"), "\(run.stdout)\(run.stderr)")
        let listed = try CLI.run(["test", "--list", "F", "./F", feature], cwd: directory)
        #expect(ShardAutoEndToEndTests.listed(listed.stdout) == ["s1", "s2"], "\(listed.stdout)")
        let lines = try CLI.run(["test", "--list", "F/s.feature:4", "./F/s.feature:2"], cwd: directory)
        #expect(ShardAutoEndToEndTests.listed(lines.stdout) == ["s1", "s2"], "\(lines.stdout)\(lines.stderr)")
    }

    /// Finding 11: `café.feature` in NFC and in NFD, one scenario each: the two shards of a matrix are the same
    /// whatever the order of the arguments (paths ordered by their bytes).
    @Test func shardsDoNotDependOnTheOrderOfTheArguments() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Written by the shell: the names' bytes as given (NFC é is C3 A9, NFD is e + CC 81).
        let made = try CIRecipesEndToEndTests.shell(
            #"printf 'Feature: nfc\n  Scenario: nfc one\n    When I run "true"\n' > "$(printf 'caf\303\251.feature')"; "#
                + #"printf 'Feature: nfd\n  Scenario: nfd one\n    When I run "true"\n' > "$(printf 'cafe\314\201.feature')""#,
            in: directory)
        #expect(made.status == 0, "\(made.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".feature") }
        #expect(names.count == 2, "\(names)")
        for k in 1...2 {
            let forward = try CIRecipesEndToEndTests.shell(
                "sut-launch test --list --shard \(k)/2 \"$(printf 'caf\\303\\251.feature')\" \"$(printf 'cafe\\314\\201.feature')\"",
                in: directory)
            let backward = try CIRecipesEndToEndTests.shell(
                "sut-launch test --list --shard \(k)/2 \"$(printf 'cafe\\314\\201.feature')\" \"$(printf 'caf\\303\\251.feature')\"",
                in: directory)
            #expect(forward.status == 0 && ShardAutoEndToEndTests.listed(forward.stdout) == ShardAutoEndToEndTests.listed(backward.stdout))
            #expect(ShardAutoEndToEndTests.listed(forward.stdout).count == 1, "\(forward.stdout)")
        }
    }

    /// Findings 8 and 14: Bazel's status file is touched, never truncated; a FIFO nobody reads at XML_OUTPUT_FILE
    /// (or --junit) is refused before anything runs; a JUnit that cannot be written names XML_OUTPUT_FILE.
    @Test func bazelsFilesAreTouchedCheckedAndNamed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try ShardAutoEndToEndTests.suite(3, in: directory)
        let status = try CLI.write("KEEP\n", "keep2.txt", in: directory)
        let bazel = ShardAutoEndToEndTests.base.merging([
            "TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": status,
        ]) { $1 }
        let kept = try CLI.run(["test", "--shard", "auto", feature], environment: bazel)
        let keptText = try String(contentsOfFile: status, encoding: .utf8)
        #expect(kept.status == 0 && keptText == "KEEP\n", "\(kept.stderr)")
        let full = try CLI.run(["test", "--shard", "auto", feature], environment: bazel.merging(["XML_OUTPUT_FILE": "/dev/full"]) { $1 })
        #expect(
            full.status == 74 && full.stderr.contains("XML_OUTPUT_FILE /dev/full") && !full.stderr.contains("--junit"), "\(full.stderr)")
        let fifo = directory.appendingPathComponent("fifo.xml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let piped = try CLI.run(["test", "--shard", "auto", feature], environment: bazel.merging(["XML_OUTPUT_FILE": fifo]) { $1 })
        #expect(piped.status == 2 && piped.stderr.contains("XML_OUTPUT_FILE") && piped.stderr.contains("FIFO"), "\(piped.stderr)")
        let junit = try CLI.run(["test", "--junit", fifo, feature])
        #expect(junit.status == 2 && junit.stderr.contains("FIFO") && !junit.stdout.contains("passed"), "\(junit.stdout)\(junit.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// Finding 15: a signed index (`-0`, `+1`) is not a CI's value: refused naming the variable.
    @Test(arguments: [
        ["CIRCLE_NODE_INDEX": "-0", "CIRCLE_NODE_TOTAL": "2"], ["JOB_COMPLETION_INDEX": "-0"],
        ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "+2"],
    ])
    func aSignedIndexIsRefused(variables: [String: String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try ShardAutoEndToEndTests.suite(3, in: directory)
        let shard = variables["JOB_COMPLETION_INDEX"] != nil ? "auto/2" : "auto"
        let result = try CLI.run(
            ["test", "--list", "--shard", shard, feature], environment: ShardAutoEndToEndTests.base.merging(variables) { $1 })
        let named = variables.first { $0.value.hasPrefix("-") || $0.value.hasPrefix("+") }!.key
        #expect(result.status == 2 && result.stderr.contains(named), "\(result.stderr)")
    }

    /// Finding 17: with stdout closed (`>&-`) the summary is lost: exit 74 naming standard output, as `>/dev/full`.
    @Test func aClosedStdoutIsOutputLost() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try ShardAutoEndToEndTests.suite(1, in: directory)
        let result = try CIRecipesEndToEndTests.shell("sut-launch test s.feature >&-", in: directory)
        #expect(result.status == 74 && result.stderr.contains("standard output"), "\(result.status) \(result.stderr)")
    }
}
