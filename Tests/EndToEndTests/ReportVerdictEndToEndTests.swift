import Foundation
import Testing

/// One verdict in every report `sut-launch report` writes, the one its exit code says (the fifth attack on reports:
/// a missing shard, shards that split the suite differently, a file read two ways by `report` and `--rerun-failed`).
/// Each case replays the attacker's reproduction against the built binary.
@Suite struct ReportVerdictEndToEndTests {
    static func text(_ directory: URL, _ name: String) throws -> String { try ReportGapsEndToEndTests.text(directory, name) }

    /// Four scenarios, `b` and `d` failing: `--shard 1/2` runs `a` and `c` (both pass).
    static let fourScenarios = """
        Feature: F
          Scenario: a
            When I run "true"
          Scenario: b
            When I run "false"
            Then the exit code is 0
          Scenario: c
            When I run "true"
          Scenario: d
            When I run "false"
            Then the exit code is 0

        """

    /// Shard 2/2 (with the two failures) missing: JUnit holds an error, JSON exit code 1 and the error, the HTML
    /// says INCOMPLETE; the same for a partial merge (`--allow-missing-shards --messages`) rendered again.
    @Test func aMissingShardIsInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.fourScenarios, "f.feature", in: directory)
        let first = try CLI.run(["test", "-q", "--run-id", "R", "--shard", "1/2", "--messages", "m1.ndjson", "f.feature"], cwd: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let missing = try CLI.run(
            ["report", "--html", "miss.html", "--junit", "miss.xml", "--json", "miss.json", "m1.ndjson"], cwd: directory)
        #expect(missing.status == 1 && missing.stderr.contains("run R: shard 2/2 missing"), "\(missing.stderr)")
        try Self.expectIncomplete(directory, json: "miss.json", junit: "miss.xml", html: "miss.html", saying: "shard 2/2 missing")
        let partial = try CLI.run(["report", "--allow-missing-shards", "--messages", "half.ndjson", "m1.ndjson"], cwd: directory)
        #expect(partial.status == 0, "\(partial.stderr)")
        let again = try CLI.run(["report", "--json", "h2.json", "--junit", "h2.xml", "--html", "h2.html", "half.ndjson"], cwd: directory)
        #expect(again.status == 1, "\(again.stderr)")
        try Self.expectIncomplete(directory, json: "h2.json", junit: "h2.xml", html: "h2.html", saying: "shard 2/2 missing")
        // A file cut short (no testRunFinished): its JUnit now says so too.
        let lines = try Self.text(directory, "m1.ndjson").split(separator: "\n").filter { !$0.hasPrefix("{\"testRunFinished\"") }
        try (lines.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("cut.ndjson"), atomically: true, encoding: .utf8)
        let cut = try CLI.run(["report", "--json", "c.json", "--junit", "c.xml", "--html", "c.html", "cut.ndjson"], cwd: directory)
        #expect(cut.status == 1, "\(cut.stderr)")
        try Self.expectIncomplete(directory, json: "c.json", junit: "c.xml", html: "c.html", saying: "no testRunFinished")
    }

    /// R9B-4: a `--dry-run` (or `--list`) shard merged with a real one under `--allow-missing-shards` was exit 1 with no
    /// reason in any report (JUnit green, JSON without `error`), its scenarios in none. Every report now says the
    /// file launched nothing, so its scenarios did not run.
    @Test(arguments: ["--dry-run", "--list"])
    func aShardThatLaunchedNothingIsInEveryReport(option: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.fourScenarios, "f.feature", in: directory)
        let first = try CLI.run(["test", "-q", "--run-id", "R", "--shard", "1/2", "--messages", "s1.ndjson", "f.feature"], cwd: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let dry = try CLI.run(["test", option, "--run-id", "R", "--shard", "2/2", "--messages", "s2.ndjson", "f.feature"], cwd: directory)
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        let merged = try CLI.run(
            ["report", "--allow-missing-shards", "--json", "m.json", "--junit", "m.xml", "--html", "m.html", "s1.ndjson", "s2.ndjson"],
            cwd: directory)
        #expect(merged.status == 1, "\(merged.stderr)")
        try Self.expectIncomplete(
            directory, json: "m.json", junit: "m.xml", html: "m.html", saying: "s2.ndjson was written by test --dry-run or --list")
    }

    /// R9B-9: `report` ignored a FAILED `testRunHookFinished` (a BeforeAll/AfterAll hook, as another Cucumber tool writes
    /// it): the run rendered green, and exit 0 when `testRunFinished` said success. The hook's failure is an error
    /// entry in every report, and the exit is 1.
    @Test(arguments: [(false, true), (true, true), (true, false)])
    func aFailedRunHookInAnotherToolsFileIsNeverGreen(success: Bool, finished: Bool) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.runWithAnAfterAllHook(in: directory)
        #expect(lines.contains { $0.contains("\"testRunHookFinished\"") && $0.contains("\"PASSED\"") })
        // As another tool writes it: no sut-launch records; the hook FAILED.
        let foreign = lines.filter {
            !$0.contains("sut-launch-result.json") && !$0.contains("sut-launch-run.json")
                && (finished || !$0.contains("\"testRunHookFinished\""))
        }.map { line in
            line.contains("\"testRunHookFinished\"")
                ? line.replacingOccurrences(of: "\"status\":\"PASSED\"", with: "\"status\":\"FAILED\",\"message\":\"boom\"")
                : line.replacingOccurrences(of: "\"success\":true", with: "\"success\":\(success)")
        }
        try (foreign.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("f.ndjson"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["report", "--json", "r.json", "--junit", "j.xml", "f.ndjson"], cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let xml = try Self.text(directory, "j.xml")
        #expect(xml.contains("name=\"run hooks\"") && xml.contains("<error"), "\(xml)")
        #expect(xml.contains(finished ? "ended FAILED: boom" : "never finished"), "\(xml)")
    }

    /// R10B-2 (and round 9's leftover): a run hook whose `testRunHookStarted` has no `testRunHookFinished` (a run killed
    /// mid-hook, a file a tool cut) rendered green, exit 0, in sut-launch's own file as in another tool's; a finish
    /// naming a started id the file does not hold, or a start naming an unknown hook, was read as nothing. The first is
    /// a `run hooks` error entry (exit 1); the dangling ones are refused as any dangling id (exit 3), naming the line.
    @Test func aRunHookThatNeverFinishedOrNamesNothingIsNeverGreen() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try Self.runWithAnAfterAllHook(in: directory)
        func report(_ lines: [String], _ name: String) throws -> CLI.Result {
            try (lines.joined(separator: "\n") + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return try CLI.run(["report", "--json", name + ".json", "--junit", name + ".xml", name], cwd: directory)
        }
        let unfinished = try report(lines.filter { !$0.contains("\"testRunHookFinished\"") }, "own.ndjson")
        #expect(unfinished.status == 1, "\(unfinished.stdout)\(unfinished.stderr)")
        let xml = try Self.text(directory, "own.ndjson.xml")
        #expect(xml.contains("name=\"run hooks\"") && xml.contains("<error") && xml.contains("started and never finished"), "\(xml)")
        for (edited, envelope) in [
            (lines.map { $0.replacing(/"testRunHookStartedId":"[^"]*"/, with: #""testRunHookStartedId":"9999""#) }, "testRunHookFinished"),
            (
                lines.map { $0.contains("\"testRunHookStarted\"") ? $0.replacing(/"hookId":"[^"]*"/, with: #""hookId":"777""#) : $0 },
                "testRunHookStarted"
            ),
        ] {
            let result = try report(edited, "dangling.ndjson")
            #expect(result.status == 3, "\(envelope): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("dangling.ndjson:"), "\(result.stderr)")
            #expect(result.stderr.contains("a \(envelope) whose"), "\(result.stderr)")
        }
    }

    /// A passing run of one scenario with a passing AfterAll hook, its Messages written to `m.ndjson`: their lines.
    static func runWithAnAfterAllHook(in directory: URL) throws -> [String] {
        _ = try CLI.write(#"{ "steps": [], "hooks": [ { "hook": "AfterAll", "run": ["true"] } ] }"#, "h.steps.json", in: directory)
        _ = try CLI.write("Feature: I\n  Scenario: a\n    When I run \"true\"\n", "i.feature", in: directory)
        let first = try CLI.run(["test", "-q", "--messages", "m.ndjson", "i.feature"], cwd: directory)
        #expect(first.status == 0, "\(first.stderr)")
        return try Self.text(directory, "m.ndjson").split(separator: "\n").map(String.init)
    }

    static func expectIncomplete(_ directory: URL, json: String, junit: String, html: String, saying reason: String) throws {
        let report = try JSONSerialization.jsonObject(with: Data(try Self.text(directory, json).utf8)) as? [String: Any] ?? [:]
        #expect(report["exitCode"] as? Int == 1, "\(report)")
        #expect((report["error"] as? String)?.contains(reason) == true, "\(report)")
        let xml = try Self.text(directory, junit)
        #expect(!xml.contains("errors=\"0\" time") || xml.contains("<error"), "\(xml)")
        #expect(xml.contains("name=\"incomplete run\"") && xml.contains("<error") && xml.contains(reason), "\(xml)")
        if CLI.hasCommand("xmllint") {
            let lint = Process()
            lint.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            lint.arguments = ["xmllint", "--noout", directory.appendingPathComponent(junit).path]
            lint.standardError = FileHandle.nullDevice
            try lint.run()
            lint.waitUntilExit()
            #expect(lint.terminationStatus == 0, "xmllint refused \(junit)")
        }
        let page = try Self.text(directory, html)
        #expect(page.contains("\"incomplete\":\"") && page.contains("INCOMPLETE run ("), "the HTML verdict does not say incomplete")
    }

    /// Shards partitioned from different timings files, or from different feature paths, with one run id: their
    /// merge is not whole (scenarios ran on no shard), exit 1 in every report; with the same inputs it is green.
    @Test func shardsThatSplitTheSuiteDifferentlyAreNotMergedGreen() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: T\n" + (1...6).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined(), "t.feature", in: directory)
        let cases = zip(1...6, [100, 90, 1, 1, 1, 1]).map {
            "<testcase classname=\"T\" name=\"s\($0.0)\" file=\"t.feature\" line=\"\($0.0 * 2)\" time=\"\($0.1)\"/>"
        }
        _ = try CLI.write("<testsuites><testsuite name=\"T\">\(cases.joined())</testsuite></testsuites>", "tim.xml", in: directory)
        let stale = cases.joined().replacingOccurrences(of: "time=\"100\"", with: "time=\"1\"").replacingOccurrences(
            of: "time=\"90\"", with: "time=\"1\"")
        _ = try CLI.write("<testsuites><testsuite name=\"T\">\(stale)</testsuite></testsuites>", "timB.xml", in: directory)
        let shardings: [(String, [String], [String])] = [
            ("r9", ["--shard-timings", "tim.xml"], []), ("r10", ["--shard-timings", "tim.xml"], ["--shard-timings", "timB.xml"]),
            ("ok", ["--shard-timings", "tim.xml"], ["--shard-timings", "tim.xml"]),
        ]
        for (id, one, two) in shardings {
            for (index, extra) in [(1, one), (2, two)] {
                let ran = try CLI.run(
                    ["test", "-q", "--run-id", id, "--shard", "\(index)/2", "--messages", "\(id)-\(index).ndjson"] + extra + ["t.feature"],
                    cwd: directory)
                #expect(ran.status == 0, "\(id) \(index): \(ran.stderr)")
            }
            let merged = try CLI.run(
                ["report", "--json", "\(id).json", "--junit", "\(id).xml", "\(id)-1.ndjson", "\(id)-2.ndjson"], cwd: directory)
            if id == "ok" {
                #expect(merged.status == 0 && merged.stderr.contains("6 scenarios from 2 files: 6 passed"), "\(merged.stderr)")
                continue
            }
            #expect(merged.status == 1 && merged.stderr.contains("run \(id): its shards split different suites"), "\(id): \(merged.stderr)")
            let report = try Self.text(directory, "\(id).json")
            #expect(report.contains("\"exitCode\":1") && report.contains("split different suites"), "\(report)")
            #expect(try Self.text(directory, "\(id).xml").contains("name=\"incomplete run\""))
        }
        // Shard 1/2 of p.feature and 2/2 of q.feature under one run id.
        _ = try CLI.write(
            "Feature: P\n  Scenario: p1\n    When I run \"true\"\n  Scenario: p2\n    When I run \"true\"\n", "p.feature", in: directory)
        _ = try CLI.write(
            "Feature: Q\n  Scenario: q1\n    When I run \"true\"\n  Scenario: q2\n    When I run \"true\"\n", "q.feature", in: directory)
        for (index, file) in [(1, "p.feature"), (2, "q.feature")] {
            let ran = try CLI.run(
                ["test", "-q", "--run-id", "pq", "--shard", "\(index)/2", "--messages", "pq\(index).ndjson", file], cwd: directory)
            #expect(ran.status == 0, "\(ran.stderr)")
        }
        let mixed = try CLI.run(["report", "--json", "pq.json", "pq1.ndjson", "pq2.ndjson"], cwd: directory)
        #expect(mixed.status == 1 && mixed.stderr.contains("split different suites"), "\(mixed.stderr)")
    }

    /// A run that selected nothing: `report` on its Messages exits 5, as its JSON says.
    @Test func reportOfARunThatSelectedNothingExitsFive() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: T\n  Scenario: s\n    When I run \"true\"\n", "t.feature", in: directory)
        let ran = try CLI.run(["test", "--tags", "@nonexistent", "--messages", "ns.ndjson", "t.feature"], cwd: directory)
        #expect(ran.status == 5, "\(ran.stderr)")
        let report = try CLI.run(["report", "--json", "e.json", "ns.ndjson"], cwd: directory)
        #expect(report.status == 5, "\(report.stderr)")
        #expect(try Self.text(directory, "e.json").contains("\"exitCode\":5"))
        for index in 1...2 {
            let shard = try CLI.run(
                ["test", "--run-id", "e", "--tags", "@none", "--shard", "\(index)/2", "--messages", "e\(index).ndjson", "t.feature"],
                cwd: directory)
            #expect(shard.status == 5, "\(shard.stderr)")
        }
        let both = try CLI.run(["report", "--json", "e2.json", "e1.ndjson", "e2.ndjson"], cwd: directory)
        #expect(both.status == 5, "\(both.stderr)")
    }
}
