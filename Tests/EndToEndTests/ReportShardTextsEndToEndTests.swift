import Foundation
import Testing

/// `report` merging shards that ran other texts of a feature file, dangling pickle step ids, and run ids read back
/// from files reaching the reports (round 10).
@Suite struct ReportShardTextsEndToEndTests {
    private static let first = "Feature: F\n  Scenario: one\n    When I run \"true\"\n  Scenario: two\n    When I run \"true\"\n"
    private static let second =
        "Feature: F\n  Scenario: one\n    When I run \"true\"\n  Scenario: TWO RENAMED\n    When I run \"true\"\n    Then I see \"nothing\"\n"

    /// The envelopes of an NDJSON file, each changed by `change`, written back.
    private static func rewrite(_ url: URL, to target: URL, _ change: (inout [String: Any]) -> Void) throws {
        var lines: [String] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            var envelope = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            change(&envelope)
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: target, atomically: true, encoding: .utf8)
    }

    /// R10B-3: shards of two checkouts with the same scenario lines passed the partition check and were merged as the
    /// first's text, without a word; the merged Messages had a test step naming a pickle step no pickle held, which
    /// `report` rendered as a failing step with no text under the other scenario's name.
    @Test func shardsThatRanOtherTextsAreNamedAndTheMergeKeepsEachText() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = directory.appendingPathComponent("f.feature")
        try Self.first.write(to: feature, atomically: true, encoding: .utf8)
        _ = try CLI.run(["test", "--shard", "1/2", "--run-id", "R", "--messages", "s1.ndjson", "f.feature"], cwd: directory)
        try Self.second.write(to: feature, atomically: true, encoding: .utf8)
        _ = try CLI.run(["test", "--shard", "2/2", "--run-id", "R", "--messages", "s2.ndjson", "f.feature"], cwd: directory)
        let merged = try CLI.run(["report", "--messages", "m.ndjson", "--junit", "j.xml", "s1.ndjson", "s2.ndjson"], cwd: directory)
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(
            merged.stderr.contains("shard 2/2 (s2.ndjson) ran another text of f.feature than shard 1/2 (s1.ndjson)"), "\(merged.stderr)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(junit.contains("ran another text of f.feature"), "\(junit)")
        // The merge read as another Cucumber tool would (no sut-launch records): each step named, under its own scenario.
        let foreign = directory.appendingPathComponent("mf.ndjson")
        let kept = try String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8).split(separator: "\n")
            .filter { !$0.contains("sut-launch-result.json") && !$0.contains("sut-launch-run.json") }
        try (kept.joined(separator: "\n") + "\n").write(to: foreign, atomically: true, encoding: .utf8)
        let read = try CLI.run(["report", "--json", "r.json", "mf.ndjson"], cwd: directory)
        #expect(read.status == 1, "\(read.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as! [String: Any]
        let results = report["results"] as! [[String: Any]]
        let renamed = try #require(results.first { $0["name"] as? String == "TWO RENAMED" }, "\(results)")
        #expect((renamed["steps"] as? [String])?.contains { $0.hasSuffix("I see \"nothing\"") } == true, "\(renamed)")
        #expect(!results.contains { ($0["steps"] as? [String])?.contains { $0 == "✗ " } == true }, "\(results)")
    }

    /// R10B-3: a test step naming a pickle step its pickle does not hold was read as an unnamed failing step; it is a
    /// dangling id, refused by name (exit 3) as a test case naming no pickle is.
    @Test func aDanglingPickleStepIdIsRefusedByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.first, "f.feature", in: directory)
        _ = try CLI.run(["test", "--messages", "m.ndjson", "f.feature"], cwd: directory)
        try Self.rewrite(directory.appendingPathComponent("m.ndjson"), to: directory.appendingPathComponent("d.ndjson")) { envelope in
            guard var testCase = envelope["testCase"] as? [String: Any], var steps = testCase["testSteps"] as? [[String: Any]],
                let index = steps.firstIndex(where: { $0["pickleStepId"] != nil })
            else { return }
            steps[index]["pickleStepId"] = "nowhere-8"
            testCase["testSteps"] = steps
            envelope["testCase"] = testCase
        }
        let result = try CLI.run(["report", "--json", "r.json", "d.ndjson"], cwd: directory)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("names pickleStepId nowhere-8"), "\(result.stderr)")
    }

    /// R10B-4: a run id read back from a file reached JUnit raw: its line break began a line `::error::INJ` of the
    /// `<error>` body, a bidi override was kept; the console escaped it. Every report now shows it escaped.
    @Test func aRunIdFromAFileIsEscapedInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 1...2 {
            _ = try CLI.write("Feature: F\(index)\n  Scenario: s\(index)\n    When I run \"true\"\n", "f\(index).feature", in: directory)
        }
        _ = try CLI.run(["test", "--shard", "1/2", "--run-id", "R", "--messages", "s1.ndjson", "."], cwd: directory)
        let hostile = "R\n::error::INJ\u{1B}]0;title\u{07}\u{202E}"
        try Self.rewrite(directory.appendingPathComponent("s1.ndjson"), to: directory.appendingPathComponent("h1.ndjson")) { envelope in
            for key in ["testRunStarted"] where envelope[key] != nil {
                var value = envelope[key] as! [String: Any]
                value["id"] = hostile
                envelope[key] = value
            }
            for key in ["testCaseStarted", "testRunHookStarted", "testRunFinished", "attachment"] {
                guard var value = envelope[key] as? [String: Any], value["testRunStartedId"] != nil else { continue }
                value["testRunStartedId"] = hostile
                if value["fileName"] as? String == "sut-launch-run.json", let body = value["body"] as? String,
                    var record = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                {
                    record["runId"] = hostile
                    value["body"] = String(decoding: (try? JSONSerialization.data(withJSONObject: record)) ?? Data(), as: UTF8.self)
                }
                envelope[key] = value
            }
        }
        let result = try CLI.run(["report", "--junit", "x.xml", "--html", "x.html", "h1.ndjson"], cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let junit = try String(contentsOf: directory.appendingPathComponent("x.xml"), encoding: .utf8)
        #expect(junit.contains("shard 2/2 missing"), "\(junit)")
        #expect(!junit.split(separator: "\n").contains { $0.hasPrefix("::error::") }, "\(junit)")
        #expect(!junit.unicodeScalars.contains("\u{202E}") && !junit.unicodeScalars.contains("\u{1B}"), "\(junit)")
        #expect(junit.contains("\\u{202E}"), "\(junit)")
        let html = try String(contentsOf: directory.appendingPathComponent("x.html"), encoding: .utf8)
        #expect(!html.unicodeScalars.contains("\u{202E}"), "the HTML keeps the bidi override")
    }
}
