import Foundation
import Testing

/// `sut-launch report` is never green for a suite that did not all run or did not all pass (the attack on merging
/// Messages): each case runs the built binary on Messages a real `sut-launch test` wrote, edited as the attacker did.
@Suite struct ReportCompletenessEndToEndTests {
    /// The file's lines, each envelope as a dictionary.
    static func envelopes(_ directory: URL, _ name: String) throws -> [[String: Any]] {
        try ReportGapsEndToEndTests.text(directory, name).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    static func write(_ envelopes: [[String: Any]], _ name: String, in directory: URL) throws {
        let lines = try envelopes.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// `envelope`'s member `key` (an object), changed by `change`.
    static func edit(_ envelope: [String: Any], _ key: String, _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        guard var value = envelope[key] as? [String: Any] else { return envelope }
        change(&value)
        return [key: value]
    }

    /// The JSON body of a sut-launch attachment (`fileName`), changed by `change`.
    static func editRecord(_ envelope: [String: Any], _ fileName: String, _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        edit(envelope, "attachment") { attachment in
            guard attachment["fileName"] as? String == fileName, let body = attachment["body"] as? String,
                var record = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            else { return }
            change(&record)
            attachment["body"] = String(decoding: (try? JSONSerialization.data(withJSONObject: record)) ?? Data(), as: UTF8.self)
        }
    }

    static func scenarios(_ count: Int) -> String {
        "Feature: f\n" + (1...count).map { "  Scenario: s\($0)\n    When I run \"true\"\n    Then the exit code is 0\n" }.joined()
    }

    /// A feature directory named `sh --shard 1`, or a `--name` holding ` --shard 1/1`: the run record's command line
    /// holds the words, yet shard 2/2 is still missing (read from the record's own field, and from old files' command
    /// line as the shell splits it).
    @Test func shardWordsInAPathOrANameDoNotHideAMissingShard() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sh --shard 1"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("ctl"), withIntermediateDirectories: true)
        for file in 1...4 {
            _ = try CLI.write(
                Self.scenarios(2).replacingOccurrences(of: "Scenario: s", with: "Scenario: \(file)s"), "sh --shard 1/f\(file).feature",
                in: directory)
            _ = try CLI.write(
                Self.scenarios(2).replacingOccurrences(of: "Scenario: s", with: "Scenario: \(file)s"), "ctl/f\(file).feature", in: directory
            )
        }
        let runs: [(String, [String])] = [
            ("y2", ["--shard", "1/2", "sh --shard 1"]), ("y5", ["--shard", "1/2", "--name", "s| --shard 1/1", "ctl"]),
            ("y6", ["--shard=1/2", "--name=--shard=1/1|s", "ctl"]),
        ]
        for (id, arguments) in runs {
            let ran = try CLI.run(["test", "-q", "--run-id", id, "--messages", "\(id).ndjson"] + arguments, cwd: directory)
            #expect(ran.status == 0, "\(id): \(ran.stderr)")
            let merged = try CLI.run(["report", "--json", "\(id).json", "\(id).ndjson"], cwd: directory)
            #expect(merged.status == 1 && merged.stderr.contains("run \(id): shard 2/2 missing"), "\(id): \(merged.stderr)")
            // The same file as an older sut-launch wrote it (no `shard` field): its command line, split as the shell does.
            let old = try Self.envelopes(directory, "\(id).ndjson").map { Self.editRecord($0, "sut-launch-run.json") { $0["shard"] = nil } }
            try Self.write(old, "\(id)-old.ndjson", in: directory)
            #expect(try !ReportGapsEndToEndTests.text(directory, "\(id)-old.ndjson").contains(#"\"shard\""#))
            let oldMerged = try CLI.run(["report", "--json", "\(id)o.json", "\(id)-old.ndjson"], cwd: directory)
            #expect(oldMerged.status == 1 && oldMerged.stderr.contains("run \(id): shard 2/2 missing"), "\(id) old: \(oldMerged.stderr)")
        }
        // Both shards: green.
        let second = try CLI.run(
            ["test", "-q", "--run-id", "y2", "--shard", "2/2", "--messages", "y2b.ndjson", "sh --shard 1"], cwd: directory)
        #expect(second.status == 0, "\(second.stderr)")
        let whole = try CLI.run(["report", "--junit", "y.xml", "y2.ndjson", "y2b.ndjson"], cwd: directory)
        #expect(whole.status == 0 && whole.stderr.contains("8 scenarios from 2 files: 8 passed"), "\(whole.stdout)\(whole.stderr)")
    }

    /// Two passing shards; the first test case of the second, and everything its attempt wrote, deleted: the scenario
    /// is not run in every report and the merge fails naming it.
    @Test func aScenarioWhoseTestCaseIsDroppedIsNotRunAndFailsTheMerge() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.scenarios(10), "f.feature", in: directory)
        for shard in 1...2 {
            let ran = try CLI.run(
                ["test", "-q", "--run-id", "g1", "--shard", "\(shard)/2", "--messages", "g\(shard).ndjson", feature], cwd: directory)
            #expect(ran.status == 0, "\(ran.stderr)")
        }
        let envelopes = try Self.envelopes(directory, "g2.ndjson")
        let testCase = try #require(envelopes.compactMap { $0["testCase"] as? [String: Any] }.first)
        let pickle = try #require(
            envelopes.compactMap { $0["pickle"] as? [String: Any] }.first { $0["id"] as? String == testCase["pickleId"] as? String })
        let location = "\(feature):\((pickle["location"] as? [String: Any])?["line"] as? Int ?? 0)"
        let started = Set(
            envelopes.compactMap { $0["testCaseStarted"] as? [String: Any] }.filter {
                $0["testCaseId"] as? String == testCase["id"] as? String
            }.compactMap { $0["id"] as? String })
        let dropped = envelopes.filter { envelope in
            guard let (key, value) = envelope.first, let value = value as? [String: Any] else { return true }
            if key == "testCase" { return value["id"] as? String != testCase["id"] as? String }
            if key == "testCaseStarted" { return !started.contains(value["id"] as? String ?? "") }
            return !started.contains(value["testCaseStartedId"] as? String ?? "")
        }
        #expect(dropped.count < envelopes.count - 4)
        try Self.write(dropped, "gB.ndjson", in: directory)
        let merged = try CLI.run(
            ["report", "--json", "gB.json", "--junit", "gB.xml", "--html", "gB.html", "g1.ndjson", "gB.ndjson"], cwd: directory)
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(merged.stderr.contains("gB.ndjson: \(location): not run"), "\(merged.stderr)")
        #expect(merged.stderr.contains("10 scenarios from 2 files: 9 passed, 1 not run"), "\(merged.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("gB.json"))) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        #expect(json?["exitCode"] as? Int == 1 && (json?["error"] as? String ?? "").contains(location))
        #expect(results.contains { $0["status"] as? String == "notRun" && $0["location"] as? String == location }, "\(results)")
        #expect(try ReportGapsEndToEndTests.text(directory, "gB.xml").contains("<skipped"))
        // The same edit on a file as an older sut-launch wrote it (no `selected`): the gap in its results' numbers.
        try Self.write(dropped.map { Self.editRecord($0, "sut-launch-run.json") { $0["selected"] = nil } }, "gBo.ndjson", in: directory)
        let old = try CLI.run(["report", "--json", "gBo.json", "g1.ndjson", "gBo.ndjson"], cwd: directory)
        #expect(old.status == 1 && old.stderr.contains("gBo.ndjson: 1 of its results missing"), "\(old.stderr)")
        // The unaltered merge: 10 passed, green.
        let whole = try CLI.run(["report", "--json", "g.json", "g1.ndjson", "g2.ndjson"], cwd: directory)
        #expect(whole.status == 0 && whole.stderr.contains("10 passed"), "\(whole.stdout)\(whole.stderr)")
        // The attempt's testCaseFinished alone deleted: that scenario never finished, an error (r13 R13-5).
        let open = envelopes.filter {
            !started.contains(($0["testCaseFinished"] as? [String: Any])?["testCaseStartedId"] as? String ?? "-")
        }
        try Self.write(open, "gO.ndjson", in: directory)
        let unfinished = try CLI.run(["report", "--json", "gO.json", "g1.ndjson", "gO.ndjson"], cwd: directory)
        #expect(unfinished.status == 1 && unfinished.stderr.contains("1 could not run"), "\(unfinished.stdout)\(unfinished.stderr)")
    }

    /// One step's status edited in a passing shard (sut-launch's records untouched), or the record edited to say passed
    /// over a FAILED step: the worse of the two stands, in report and in `--rerun-failed` reading the same file.
    @Test func aStepThatDidNotPassOutweighsARecordSayingPassed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.scenarios(2), "f.feature", in: directory)
        let ran = try CLI.run(["test", "-q", "--messages", "g.ndjson", feature], cwd: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let envelopes = try Self.envelopes(directory, "g.ndjson")
        let first = try #require(envelopes.firstIndex { $0["testStepFinished"] != nil })
        for status in ["FAILED", "PENDING", "AMBIGUOUS", "UNKNOWN", "UNDEFINED"] {
            var edited = envelopes
            edited[first] = Self.edit(edited[first], "testStepFinished") { step in
                var result = step["testStepResult"] as? [String: Any] ?? [:]
                result["status"] = status
                step["testStepResult"] = result
            }
            try Self.write(edited, "\(status).ndjson", in: directory)
            let merged = try CLI.run(
                ["report", "--json", "\(status).json", "--junit", "\(status).xml", "\(status).ndjson"], cwd: directory)
            #expect(merged.status == 1 && merged.stderr.contains("1 passed"), "\(status): \(merged.stdout)\(merged.stderr)")
            let junit = try ReportGapsEndToEndTests.text(directory, "\(status).xml")
            #expect(junit.contains("<failure") || junit.contains("<error"), "\(status): \(junit)")
            #expect(try ReportGapsEndToEndTests.text(directory, "\(status).json").contains("where sut-launch's record says passed"))
            // --rerun-failed reads the same file the same way: it reruns that scenario (which passes now).
            let rerun = try CLI.run(["test", "--rerun-failed", "\(status).ndjson", feature], cwd: directory)
            #expect(rerun.status == 0 && rerun.stdout.contains("1 scenario: 1 passed (1 not selected)"), "\(status): \(rerun.stdout)")
        }
        // Re-attack, 3: one step made SKIPPED (it did not run) under a record saying passed: never a pass (Cucumber ranks
        // a skipped step above a passed one).
        var skipped = envelopes
        skipped[first] = Self.edit(skipped[first], "testStepFinished") { step in step["testStepResult"] = ["status": "SKIPPED"] }
        try Self.write(skipped, "SKIPPED.ndjson", in: directory)
        let skippedMerge = try CLI.run(["report", "--junit", "SKIPPED.xml", "SKIPPED.ndjson"], cwd: directory)
        #expect(
            skippedMerge.status == 1 && skippedMerge.stderr.contains("1 passed"), "SKIPPED: \(skippedMerge.stdout)\(skippedMerge.stderr)")
        // The attacker's forgery: a failing run whose record, run record and testRunFinished say passed.
        let failing = try CLI.write(
            Self.scenarios(1) + "  Scenario: bad\n    When I run \"true\"\n    Then the exit code is 1\n", "b.feature", in: directory)
        let failed = try CLI.run(["test", "-q", "--messages", "s1.ndjson", failing], cwd: directory)
        #expect(failed.status == 1)
        let forged = try Self.envelopes(directory, "s1.ndjson").map { envelope in
            let result = Self.editRecord(envelope, "sut-launch-result.json") {
                if $0["status"] as? String == "failed" { $0["status"] = "passed" }
            }
            let run = Self.editRecord(result, "sut-launch-run.json") { $0["exitCode"] = 0 }
            return Self.edit(run, "testRunFinished") { $0["success"] = true }
        }
        try Self.write(forged, "C3.ndjson", in: directory)
        #expect(try !ReportGapsEndToEndTests.text(directory, "C3.ndjson").contains(#"\"status\":\"failed\""#))
        let merged = try CLI.run(["report", "--json", "C3.json", "--junit", "C3.xml", "C3.ndjson"], cwd: directory)
        #expect(merged.status == 1 && merged.stderr.contains("1 passed, 1 failed"), "\(merged.stdout)\(merged.stderr)")
        #expect(try ReportGapsEndToEndTests.text(directory, "C3.xml").contains("<failure"))
        let rerun = try CLI.run(["test", "-q", "--rerun-failed", "C3.ndjson", failing], cwd: directory)
        #expect(rerun.status == 1 && rerun.stdout.contains("1 scenario: 0 passed, 1 failed (1 not selected)"), "\(rerun.stdout)")
        // The other way: every step PASSED, the record says error: an error in report, rerun by --rerun-failed.
        let erred = envelopes.map {
            Self.editRecord($0, "sut-launch-result.json") { if $0["line"] as? Int == 2 { $0["status"] = "error" } }
        }
        try Self.write(erred, "E.ndjson", in: directory)
        let error = try CLI.run(["report", "--json", "E.json", "E.ndjson"], cwd: directory)
        #expect(error.status == 1 && error.stderr.contains("1 passed, 1 could not run"), "\(error.stdout)\(error.stderr)")
        let rerunError = try CLI.run(["test", "--rerun-failed", "E.ndjson", feature], cwd: directory)
        #expect(rerunError.status == 0 && rerunError.stdout.contains("1 scenario: 1 passed (1 not selected)"), "\(rerunError.stdout)")
    }

    /// A `parseError` (what `test` writes for a feature file that does not parse) in a passing shard: exit 3 as `test`
    /// exits, naming the file and message, and a load error in JUnit, JSON and HTML. No scenario at all: exit 5.
    @Test func aFeatureThatDidNotParseFailsTheMergeAsTestDoes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.scenarios(2), "f.feature", in: directory)
        let ran = try CLI.run(["test", "-q", "--messages", "g.ndjson", feature], cwd: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        var envelopes = try Self.envelopes(directory, "g.ndjson")
        let parseError: [String: Any] = [
            "parseError": [
                "source": ["uri": "f1/broken.feature", "location": ["line": 5]], "message": "f1/broken.feature:5: expected Scenario",
            ]
        ]
        envelopes.insert(parseError, at: 1)
        try Self.write(envelopes, "gpe.ndjson", in: directory)
        let merged = try CLI.run(
            ["report", "--json", "gpe.json", "--junit", "gpe.xml", "--html", "gpe.html", "gpe.ndjson"], cwd: directory)
        #expect(merged.status == 3, "\(merged.stderr)")
        #expect(
            merged.stderr.contains(
                "gpe.ndjson: f1/broken.feature:5: a feature file that does not parse: f1/broken.feature:5: expected Scenario"))
        for name in ["gpe.json", "gpe.xml", "gpe.html"] {
            #expect(try ReportGapsEndToEndTests.text(directory, name).contains("broken.feature"), "\(name)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("gpe.json"))) as? [String: Any]
        #expect(json?["exitCode"] as? Int == 3)
        // Its uri and message are the file's text: escaped on stderr, one line, no terminal sequence.
        envelopes[1] = ["parseError": ["source": ["uri": "x\u{1B}]0;t\u{07}\n::error::y.feature"], "message": "m\u{1B}[2J\nz"]]
        try Self.write(envelopes, "esc.ndjson", in: directory)
        let escaped = try CLI.run(["report", "--json", "esc.json", "esc.ndjson"], cwd: directory)
        let line = escaped.stderr.split(separator: "\n").first { $0.contains("does not parse") } ?? ""
        #expect(escaped.status == 3 && line.contains("::error::y.feature:0") && !escaped.stderr.contains("\u{1B}"), "\(escaped.stderr)")
        // test's own file of a broken feature, sut-launch's records removed and success set: still exit 3, still named.
        let broken = try CLI.write(
            "Feature: b\n  Scenario: s\n    When I run \"true\"\n    oops, not a step\n", "broken.feature", in: directory)
        let failed = try CLI.run(["test", "-q", "--messages", "pe.ndjson", broken], cwd: directory)
        #expect(failed.status == 3, "\(failed.stderr)")
        let stripped = try Self.envelopes(directory, "pe.ndjson")
            .filter { ($0["attachment"] as? [String: Any])?["mediaType"] as? String != "application/json" }
            .map { Self.edit($0, "testRunFinished") { $0["success"] = true } }
        try Self.write(stripped, "pe2.ndjson", in: directory)
        let bare = try CLI.run(["report", "--junit", "pe2.xml", "pe2.ndjson"], cwd: directory)
        #expect(bare.status == 3 && bare.stderr.contains("broken.feature"), "\(bare.stderr)")
        #expect(try ReportGapsEndToEndTests.text(directory, "pe2.xml").contains("broken.feature"))
        // No test case at all, success true, no record: nothing ran, as test's exit 5.
        let empty = try Self.envelopes(directory, "g.ndjson").filter { envelope in
            !["pickle", "testCase", "testCaseStarted", "testStepStarted", "testStepFinished", "testCaseFinished", "attachment"].contains(
                envelope.keys.first ?? "")
        }
        try Self.write(empty, "empty.ndjson", in: directory)
        let none = try CLI.run(["report", "--json", "empty.json", "empty.ndjson"], cwd: directory)
        #expect(none.status == 5 && none.stderr.contains("no scenario"), "\(none.stderr)")
    }

    /// Lone-CR line ends and wrongly typed members are refused naming the file, the line and the field.
    @Test func loneCarriageReturnsAndWrongTypesAreNamed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(Self.scenarios(1), "f.feature", in: directory)
        let ran = try CLI.run(["test", "-q", "--messages", "g.ndjson", feature], cwd: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
        let text = try ReportGapsEndToEndTests.text(directory, "g.ndjson")
        _ = try CLI.write(text.replacingOccurrences(of: "\n", with: "\r"), "cr.ndjson", in: directory)
        let cr = try CLI.run(["report", "--json", "cr.json", "cr.ndjson"], cwd: directory)
        #expect(cr.status == 3 && cr.stderr.contains("cr.ndjson:1: lines end in CR alone"), "\(cr.stderr)")
        var envelopes = try Self.envelopes(directory, "g.ndjson")
        envelopes[0] = ["meta": "x"]
        try Self.write(envelopes, "meta.ndjson", in: directory)
        let meta = try CLI.run(["report", "--json", "meta.json", "meta.ndjson"], cwd: directory)
        #expect(meta.status == 3 && meta.stderr.contains("meta.ndjson:1: meta is not an object"), "\(meta.stderr)")
        envelopes = try Self.envelopes(directory, "g.ndjson")
        let step = try #require(envelopes.firstIndex { $0["testStepFinished"] != nil })
        envelopes[step] = Self.edit(envelopes[step], "testStepFinished") { $0["testStepResult"] = ["status": 1] }
        try Self.write(envelopes, "num.ndjson", in: directory)
        let number = try CLI.run(["report", "--json", "num.json", "num.ndjson"], cwd: directory)
        #expect(
            number.status == 3 && number.stderr.contains("num.ndjson:\(step + 1): testStepResult.status is not a string"),
            "\(number.stderr)")
        // The run record's shard and selected, when present, say so plainly.
        for (index, (key, value)) in [
            ("shard", "x" as Any), ("shard", "3/2"), ("shard", 1), ("selected", "f.feature:2"), ("selected", [1]),
        ].enumerated() {
            let edited = try Self.envelopes(directory, "g.ndjson").map { Self.editRecord($0, "sut-launch-run.json") { $0[key] = value } }
            try Self.write(edited, "rec\(index).ndjson", in: directory)
            let record = try CLI.run(["report", "--json", "rec\(index).json", "rec\(index).ndjson"], cwd: directory)
            #expect(record.status == 3 && record.stderr.contains("sut-launch-run.json lacks"), "\(key) \(value): \(record.stderr)")
        }
    }
}
