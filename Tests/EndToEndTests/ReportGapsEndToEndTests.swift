import Foundation
import Testing

/// The report surfaces' trust gaps the last attack left (issue 29), each replayed from the outside with the built
/// binary and real files: a merge re-rendered keeps its shard count; run ids from CI variables are checked like
/// `--run-id`; invalid UTF-8 in Messages shows as U+FFFD as a WHATWG decoder shows it; terminal sequences in a
/// program's output (OSC titles and links, C1 forms) stay out of JUnit, the JSON report and GitHub annotations; a
/// colour never reset stays in its stream's section of the HTML transcript.
@Suite struct ReportGapsEndToEndTests {
    /// The environment of this process without any CI's run variables, plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = CLI.localEnvironment
        for name in ["GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "CI_PIPELINE_ID", "BUILDKITE_BUILD_ID", "CIRCLE_WORKFLOW_ID", "BUILD_TAG"] {
            environment[name] = nil
        }
        return environment.merging(extra) { $1 }
    }

    static func text(_ directory: URL, _ name: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
    }

    @Test func aMergedRunKeepsItsShardCountWhenRenderedAgainAndMergesAgain() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: shards\n" + (1...6).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined(), "s.feature", in: directory)
        for shard in 1...3 {
            let ran = try CLI.run(
                ["test", "--run-id", "ci:7", "--shard", "\(shard)/3", "--messages", "m\(shard).ndjson", feature], cwd: directory)
            #expect(ran.status == 0, "\(ran.stderr)")
        }
        // Two of three shards: a partial merge, said so (--allow-missing-shards), or it is exit 1.
        let partial = try CLI.run(["report", "--messages", "partial.ndjson", "m1.ndjson", "m2.ndjson"], cwd: directory)
        #expect(partial.status == 1 && partial.stderr.contains("shard 3/3 missing"), "\(partial.stderr)")
        let merged = try CLI.run(
            ["report", "--allow-missing-shards", "--messages", "merged.ndjson", "m1.ndjson", "m2.ndjson"], cwd: directory)
        #expect(merged.status == 0, "\(merged.stderr)")
        let again = try CLI.run(["report", "--allow-missing-shards", "--html", "again.html", "merged.ndjson"], cwd: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.text(directory, "again.html").contains("{\"shards\":2,"), "the merged file says it holds 2 shards")
        // A merge of the merged file and the third shard: 3 shards, no id twice, still Cucumber Messages.
        let all = try CLI.run(["report", "--messages", "all.ndjson", "--html", "all.html", "merged.ndjson", "m3.ndjson"], cwd: directory)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Self.text(directory, "all.html").contains("{\"shards\":3,"))
        let reread = try CLI.run(["report", "--html", "reread.html", "--junit", "all.xml", "all.ndjson"], cwd: directory)
        #expect(reread.status == 0, "\(reread.stderr)")
        #expect(try Self.text(directory, "reread.html").contains("{\"shards\":3,"))
        #expect(try Self.text(directory, "all.xml").components(separatedBy: "<testcase ").count == 7)
        let schema = try ReportTrustEndToEndTests.schemaVerdict([directory.appendingPathComponent("all.ndjson").path])
        #expect(schema.hasPrefix("ok") || schema.contains("skipped"), "\(schema)")
        // A shard cut short (no run record, no testRunFinished) merged: the merged file is cut short too, never green.
        let cut = try Self.text(directory, "m2.ndjson").split(separator: "\n")
            .filter { !$0.contains("testRunFinished") && !$0.contains("sut-launch-run.json") }.joined(separator: "\n")
        try (cut + "\n").write(to: directory.appendingPathComponent("cut.ndjson"), atomically: true, encoding: .utf8)
        let mergedCut = try CLI.run(["report", "--messages", "mcut.ndjson", "m1.ndjson", "cut.ndjson"], cwd: directory)
        #expect(mergedCut.status == 1 && mergedCut.stderr.contains("incomplete"), "\(mergedCut.stderr)")
        let rereadCut = try CLI.run(["report", "--junit", "cut.xml", "mcut.ndjson"], cwd: directory)
        #expect(rereadCut.status == 1 && rereadCut.stderr.contains("mcut.ndjson: incomplete"), "\(rereadCut.stderr)")
    }

    /// A merge record's count at the edges (another tool's, or edited): 1…10,000 is read, anything else refused naming
    /// the file, the line and the record (it was read as 1), never a trap. The file holds no scenario: exit 5.
    @Test func mergeRecordCountsAtTheEdgesAreReadOrRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, Int?)] = [
            ("9223372036854775807", nil), ("9223372036854775808", nil), ("-9223372036854775808", nil), ("1e300", nil), ("0", nil),
            ("-1", nil), ("\"3\"", nil), ("\"x\"", nil), ("null", nil), ("7", 7), ("10000", 10_000), ("1", 1),
        ]
        for (index, (count, shown)) in cases.enumerated() {
            let body = "{\"shards\":\(count)}"
            let lines = [
                #"{"testRunStarted":{"id":"r","timestamp":{"seconds":1,"nanos":0}}}"#,
                #"{"attachment":{"testRunStartedId":"r","body":"# + String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
                    + #","contentEncoding":"IDENTITY","mediaType":"application/json","fileName":"sut-launch-merge.json"}}"#,
                #"{"testRunFinished":{"success":true,"timestamp":{"seconds":2,"nanos":0}}}"#,
            ]
            _ = try CLI.write(lines.joined(separator: "\n") + "\n", "m\(index).ndjson", in: directory)
            let result = try CLI.run(["report", "--html", "h\(index).html", "m\(index).ndjson"], cwd: directory)
            guard let shown else {
                #expect(
                    result.status == 3 && result.stderr.contains("m\(index).ndjson:2: sut-launch-merge.json"), "\(count): \(result.stderr)")
                continue
            }
            #expect(result.status == 5 && result.stderr.contains("no scenario"), "\(count): \(result.stderr)")
            #expect(try Self.text(directory, "h\(index).html").contains("{\"shards\":\(shown),"), "\(count)")
        }
    }

    @Test func runIdsFromCIVariablesAreCheckedLikeTheOption() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        let hostile: [(String, String)] = [
            ("GITHUB_RUN_ID", "12\nSET-LINE"), ("CI_PIPELINE_ID", "9\u{1B}]0;owned\u{07}"),
            ("BUILDKITE_BUILD_ID", String(repeating: "b", count: 10_240)),
            ("CIRCLE_WORKFLOW_ID", "w\u{9B}31m"), ("BUILD_TAG", "tag\r"),
        ]
        for (variable, value) in hostile {
            let extra = [variable: value]
            let result = try CLI.run(
                ["test", "--messages", "m.ndjson", "--junit", "j.xml", "--html", "h.html", feature], environment: Self.environment(extra),
                cwd: directory)
            #expect(result.status == 2, "\(variable): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(variable) && lines[0].contains("--run-id"), "\(variable): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("SET-LINE") && result.stderr.utf8.count < 400)
            // Nothing ran: the Messages file, when a usage error writes it (R9C-4: no earlier run's file stays whole), is
            // the placeholder of a run that did not finish, never a passing run.
            let messages = (try? String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8)) ?? ""
            #expect(messages.isEmpty || (messages.contains(#""success":false"#) && !messages.contains("testCaseStarted")), "\(messages)")
        }
        // --run-id is refused as the variables are, and a CI id that is only odd text is carried inert.
        let option = try CLI.run(["test", "--run-id", "x\u{85}y", "--messages", "m.ndjson", feature], cwd: directory)
        #expect(option.status == 2 && option.stderr.contains("--run-id"), "\(option.stderr)")
        let odd = try CLI.run(
            ["test", "--format", "github", "--messages", "m.ndjson", "--html", "h.html", feature],
            environment: Self.environment(["BUILD_TAG": "::error::owned"]), cwd: directory)
        #expect(odd.status == 0, "\(odd.stderr)")
        #expect(!odd.stdout.split(separator: "\n").contains { $0.hasPrefix("::error::owned") })
        #expect(try Self.text(directory, "m.ndjson").contains("\"testRunStarted\":{\"id\":\"jenkins:::error::owned\""))
        // Run ids another tool wrote, shown by report when it refuses to merge: escaped, on one line.
        let messages = try Self.text(directory, "m.ndjson")
        try messages.replacingOccurrences(of: "jenkins:::error::owned", with: "evil\\u001b]0;t\\u0007\\nnext")
            .write(to: directory.appendingPathComponent("evil.ndjson"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["report", "--junit", "x.xml", "m.ndjson", "evil.ndjson"], cwd: directory)
        #expect(refused.status == 2 && refused.stderr.contains("evil\\u{1B}]0;t\\u{7}\\nnext"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("\u{1B}") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    /// What a WHATWG decoder (Chromium's, Node's `TextDecoder`, which Cucumber's tools use) shows for `bytes`:
    /// Python's "replace" decoding follows the same maximal-subpart rule.
    static func replaced(_ bytes: [UInt8]) throws -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let script = "import sys,json;print(json.dumps(bytes.fromhex(sys.argv[1]).decode('utf-8','replace')))"
        let quoted = try CLI.output(of: ["python3", "-c", script, hex]).trimmingCharacters(in: .whitespacesAndNewlines)
        return try JSONDecoder().decode(String.self, from: Data(quoted.utf8))
    }

    @Test func invalidUTF8InMessagesStringsIsShownAsReplacementCharacters() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name: [UInt8] = Array("name ".utf8) + [0xFF, 0xFE] + Array(" A ".utf8) + [0xC0, 0xAF] + Array(" B".utf8)
        let message: [UInt8] =
            Array("msg ".utf8) + [0xED, 0xA0, 0x80] + Array(" C ".utf8) + [0xE2, 0x82] + Array(" D ".utf8) + [0xF4, 0x90, 0x80, 0x80]
        let lines: [[UInt8]] = [
            Array(
                #"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"x"},"runtime":{"name":"x"},"os":{"name":"x"},"cpu":{"name":"x"}}}"#
                    .utf8),
            Array(#"{"pickle":{"id":"p1","uri":"a.feature","location":{"line":3},"name":""#.utf8) + name
                + Array(#"","steps":[{"id":"ps1","text":"I do it","astNodeIds":[]}],"tags":[]}}"#.utf8),
            Array(#"{"testRunStarted":{"id":"r","timestamp":{"seconds":10,"nanos":0}}}"#.utf8),
            Array(#"{"testCase":{"id":"tc1","pickleId":"p1","testSteps":[{"id":"ts1","pickleStepId":"ps1"}]}}"#.utf8),
            Array(#"{"testCaseStarted":{"id":"a0","testCaseId":"tc1","attempt":0,"timestamp":{"seconds":10,"nanos":0}}}"#.utf8),
            Array(
                #"{"testStepFinished":{"testCaseStartedId":"a0","testStepId":"ts1","testStepResult":{"status":"FAILED","duration":{"seconds":0,"nanos":0},"message":""#
                    .utf8)
                + message + Array(#"\n"},"timestamp":{"seconds":10,"nanos":1}}}"#.utf8),
            Array(#"{"testCaseFinished":{"testCaseStartedId":"a0","willBeRetried":false,"timestamp":{"seconds":10,"nanos":2}}}"#.utf8),
            Array(#"{"testRunFinished":{"success":false,"timestamp":{"seconds":12,"nanos":0}}}"#.utf8),
        ]
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: directory.appendingPathComponent("bad.ndjson"))
        let result = try CLI.run(["report", "--junit", "b.xml", "--json", "b.json", "--html", "b.html", "bad.ndjson"], cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        let (shownName, shownMessage) = (try Self.replaced(name), try Self.replaced(message))
        #expect(shownName == "name \u{FFFD}\u{FFFD} A \u{FFFD}\u{FFFD} B")
        let junit = try Self.text(directory, "b.xml")
        #expect(junit.contains("name=\"\(shownName)\"") && junit.contains(shownMessage), "\(junit)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("b.json"))) as? [String: Any]
        let first = (json?["results"] as? [[String: Any]])?.first
        #expect(
            first?["name"] as? String == shownName && first?["message"] as? String == shownMessage + "\n", "\(String(describing: first))")
        let html = try Self.text(directory, "b.html")
        #expect(html.contains(shownName) && html.contains(shownMessage))
    }
}
