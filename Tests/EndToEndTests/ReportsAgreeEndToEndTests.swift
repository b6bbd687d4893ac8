import Foundation
import Testing

/// Round 4b's findings on what a run reports (the real binary): artefacts merged with an older run's (L), a flaky
/// pass under `--fail-on-flaky` shown passed (I), `--fail-fast`'s not-run scenarios lost from JUnit and Messages (U),
/// raw names in `--list`/`--dry-run` (F), a pre-flight that said ok (G), `report` exit 0 on a dry run's Messages (AA).
@Suite struct ReportsAgreeEndToEndTests {
    /// L, classes 8 and 2: run two showed run one's `02-stdout.txt` and `directory/made-by-one`. A scenario's artefact
    /// directory now holds this run's files only; with `--retries` each failed attempt has its own.
    @Test func aScenariosArtefactsAreThisRunsOnlyAndEachAttemptHasItsOwn() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: AB
              Scenario: fails
                When I run "sh -c 'echo first-$RUNTAG; touch made-by-$RUNTAG; test $RUNTAG = one'"
                Then the exit code is 0
                When I run "sh -c 'echo second-command-of-$RUNTAG'"
                Then the exit code is 1

            """, "b.feature", in: directory)
        for tag in ["one", "two"] {
            var environment = CLI.localEnvironment
            environment["RUNTAG"] = tag
            let result = try CLI.run(["test", "--artifacts", "arts", "b.feature"], environment: environment, cwd: directory)
            #expect(result.status == 1, "\(result.stdout)")
        }
        let scenario = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: directory.path + "/arts").first { $0.hasSuffix("fails line 2") })
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path + "/arts/" + scenario).sorted()
        #expect(files == ["01-command.json", "01-stderr.txt", "01-stdout.txt", "directory", "directory/made-by-two"], "\(files)")
        let stdout = try String(contentsOfFile: directory.path + "/arts/" + scenario + "/01-stdout.txt", encoding: .utf8)
        #expect(stdout == "first-two\n")
        // --retries: attempt 1 failed at line 4, attempt 2 at line 6; each its own directory, named in the report.
        let counter = directory.appendingPathComponent("cnt").path
        _ = try CLI.write(
            """
            Feature: AC
              Scenario: fails differently
                When I run "sh -c 'n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n+1)) > \(counter); echo attempt-$n; touch made-$n; exit $n'"
                Then the exit code is 1
                When I run "sh -c 'echo second'"
                Then the exit code is 1

            """, "c.feature", in: directory)
        let retried = try CLI.run(["test", "--retries", "1", "--artifacts", "arts2", "--report", "r.json", "c.feature"], cwd: directory)
        #expect(retried.status == 1)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any])
        let result = try #require((report["results"] as? [[String: Any]])?.first)
        let attempts = try #require(result["attempts"] as? [[String: Any]])
        let paths = attempts.compactMap { $0["artifacts"] as? String }
        #expect(paths.count == 2 && Set(paths).count == 2, "each attempt its own directory: \(paths)")
        for (index, path) in paths.enumerated() {
            let made = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/" + path + "/directory")
            #expect(made == ["made-\(index)"], "attempt \(index + 1): \(made)")
            let out = try String(contentsOfFile: directory.path + "/" + path + "/01-stdout.txt", encoding: .utf8)
            #expect(out == "attempt-\(index)\n")
        }
        // A later run without retries leaves no `attempt 1` of the earlier one beside its own directory.
        #expect(try CLI.run(["test", "--artifacts", "arts2", "c.feature"], cwd: directory).status == 1)
        let feature = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/arts2").first)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/arts2/" + feature)
        #expect(left == ["fails differently line 2"], "\(left)")
    }

    /// I, class 2: the run exited 1 while the step summary said ✅ "1 of 1 passed" and the JSON report `"passed":1`.
    @Test func aFlakyPassThatFailsTheRunIsFailedInEveryReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = directory.appendingPathComponent("cnt").path
        _ = try CLI.write(
            "Feature: MX\n  @retries=2\n  Scenario: flaky\n    When I run \"sh -c 'n=$(cat \(counter) 2>/dev/null || echo 0); "
                + "echo $((n+1)) > \(counter); [ $n -ge 1 ]'\"\n    Then the exit code is 0\n", "mx.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = directory.path + "/sum.md"
        let result = try CLI.run(
            [
                "test", "--fail-on-flaky", "--format", "github", "--report", "r.json", "--messages", "m.ndjson", "--html", "h.html",
                "mx.feature",
            ], environment: environment, cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 passed, 1 failed, 1 flaky"), "the console's summary: \(result.stdout)")
        let summary = try String(contentsOfFile: directory.path + "/sum.md", encoding: .utf8)
        #expect(summary.contains("| ❌ | MX: flaky |") && summary.contains("0 of 1 passed") && !summary.contains("✅"), "\(summary)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any])
        #expect(report["passed"] as? Int == 0 && report["failed"] as? Int == 1 && report["flaky"] as? Int == 1, "\(report)")
        let first = try #require((report["results"] as? [[String: Any]])?.first)
        #expect(first["status"] as? String == "failed" && first["flakyFailsTheRun"] as? Bool == true)
        let html = try String(contentsOfFile: directory.path + "/h.html", encoding: .utf8)
        #expect(html.contains("\"s\":\"failed\",\"flaky\":true"), "the HTML report's scenario")
        let rendered = try CLI.run(["report", "--json", "rj.json", "m.ndjson"], cwd: directory)
        #expect(rendered.status == 1 && rendered.stderr.contains("0 passed, 1 failed"), "\(rendered.stderr)")
    }

    /// U, class 2: after `--fail-fast`, `--rerun-failed` selected 1 scenario from JUnit or Messages and 4 from the rerun
    /// file. The three records of one run now select the same scenarios.
    @Test func failFastsNotRunScenariosAreRerunFromEveryRecord() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: FF\n  Scenario: fails fast\n    When I run \"false\"\n    Then the exit code is 0\n  Scenario: second\n"
                + "    When I run \"true\"\n  Scenario: third\n    When I run \"true\"\n", "ff.feature", in: directory)
        let run = try CLI.run(
            ["test", "--fail-fast", "--junit", "fj.xml", "--messages", "fm.ndjson", "--write-rerun", "frr.txt", "ff.feature"],
            cwd: directory)
        #expect(run.status == 1)
        var selections: [String] = []
        for file in ["frr.txt", "fj.xml", "fm.ndjson"] {
            let listed = try CLI.run(["test", "--list", "--rerun-failed", file, "ff.feature"], cwd: directory)
            #expect(listed.status == 0, "\(file): \(listed.stderr)")
            selections.append(listed.stdout)
        }
        #expect(selections[0].contains("ff.feature:7") && Set(selections).count == 1, "\(selections)")
        // A quarantined skip is not a not-run: a quarantined failure is still left out of JUnit's rerun.
        _ = try CLI.write(
            "Feature: Q\n  @quarantine\n  Scenario: q\n    When I run \"false\"\n    Then the exit code is 0\n", "q.feature", in: directory)
        _ = try CLI.run(["test", "--junit", "qj.xml", "q.feature"], cwd: directory)
        let quarantined = try CLI.run(["test", "--list", "--rerun-failed", "qj.xml", "--allow-empty", "q.feature"], cwd: directory)
        #expect(quarantined.status == 0 && !quarantined.stdout.contains("q.feature:3"), "\(quarantined.stdout)")
    }

    /// F, class 4: `--list` and `--dry-run` printed ESC, BEL, C1 CSI and a row's line break raw (a normal run escapes them).
    @Test func listAndDryRunEscapeNamesTagsAndPaths() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature =
            "Feature: L\u{1B}]0;TITLE\u{07} \u{1B}[2J\n  @t\u{1B}[31m\n  Scenario: s \u{1B}[1A\u{202E} rtl\r\n    When I run \"true\"\n"
            + "  Scenario Outline: o <v>\n    When I run \"echo <v>\"\n    Examples:\n      | v |\n      | \u{1B}[5mX\\n\u{9B}31m |\n"
        _ = try CLI.write(feature, "l.feature", in: directory)
        _ = try CLI.write("Feature: P\n  Scenario: s\n    When I run \"true\"\n", "d/e\u{1B}[2Jf.feature", in: directory)
        for arguments in [["--list", "l.feature"], ["--dry-run", "l.feature"], ["--list", "d"], ["--dry-run", "d"]] {
            let result = try CLI.run(["test"] + arguments, cwd: directory)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(
                !result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
            #expect(result.stdout.contains("\\u{1B}"), "\(arguments): \(result.stdout)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.allSatisfy { $0.hasPrefix("l.feature:") || $0.hasPrefix("d/e") || $0.contains("resolved") }, "\(lines)")
        }
    }

    /// G, class 2: `check` and `--dry-run` said ok (exit 0) for scenarios that could not run. Both now say what the run
    /// would find, naming the step's line, exit 3; `-D PROGRAM` that cannot start is a usage error before anything runs.
    @Test func checkAndDryRunFindWhatTheRunWouldFindBeforeLaunching() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("{ not json\n", "bad.json", in: directory)
        // The suite's own inputs: both. PATH and the program -D names belong to the run: --dry-run only (check lints a
        // suite apart from its run, without its -D PROGRAM, often before the build).
        let cases: [(String, String, Bool)] = [
            ("Given the stubs \"nope.json\"\n    When I run \"true\"", "./nope.json: cannot read the file", true),
            ("Given the stubs \"bad.json\"\n    When I run \"true\"", "./bad.json:1:3", true),
            ("Given the files from \"nodir\"\n    When I run \"true\"", "./nodir: no such directory", true),
            ("Given the program \"./no-such-program\"\n    When I launch the program", "./no-such-program: no such file", true),
            ("When I launch the program", "no program to launch", false),
            ("When I run \"no-such-command-xyz\"", "no-such-command-xyz: command not found in PATH", false),
        ]
        for (steps, problem, both) in cases {
            _ = try CLI.write("Feature: D\n  Scenario: d\n    \(steps)\n", "d.feature", in: directory)
            if !both {
                let check = try CLI.run(["check", "d.feature"], cwd: directory)
                #expect(check.status == 0 && check.stdout.contains("ok: d.feature"), "\(steps): \(check.stderr)")
            }
            for command in both ? [["check", "d.feature"], ["test", "--dry-run", "d.feature"]] : [["test", "--dry-run", "d.feature"]] {
                let result = try CLI.run(command, cwd: directory)
                #expect(result.status == 3, "\(command) \(steps): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("d.feature:") && result.stderr.contains(problem), "\(steps): \(result.stderr)")
                #expect(!result.stdout.contains("ok:"), "\(result.stdout)")
                #expect(!result.stderr.contains("././"), "\(result.stderr)")
            }
        }
        // What the run itself can settle stays allowed: a path made by an earlier step, a PATH the scenario sets.
        _ = try CLI.write(
            "Feature: D\n  Scenario: d\n    Given a file \"x.sh\" with:\n      \"\"\"\n      true\n      \"\"\"\n    When I run \"sh x.sh\"\n",
            "d.feature", in: directory)
        #expect(try CLI.run(["check", "d.feature"], cwd: directory).status == 0)
        // A program path with a quote, written `\"` in the step, is found as the run finds it.
        _ = try CLI.write("#!/bin/sh\n", "odd \"q\".sh", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path + "/odd \"q\".sh")
        _ = try CLI.write(
            "Feature: Q\n  Scenario: q\n    Given the program \"./odd \\\"q\\\".sh\"\n    When I launch the program\n", "q.feature",
            in: directory)
        for command in [["check", "q.feature"], ["test", "--dry-run", "q.feature"]] {
            let result = try CLI.run(command, cwd: directory)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        _ = try CLI.write("Feature: P\n  Scenario: p\n    When I launch the program\n", "p.feature", in: directory)
        let missing = try CLI.run(["test", "-D", "PROGRAM=./nope", "p.feature"], cwd: directory)
        #expect(missing.status == 2 && missing.stderr.contains("-D PROGRAM=./nope") && missing.stdout.isEmpty, "\(missing.stderr)")
        #expect(try CLI.run(["check", "-D", "PROGRAM=/bin/true", "p.feature"], cwd: directory).status == 0)
    }

    /// AA, class 2: `report` on a `--dry-run`'s Messages (pickles, no test case) said "0 scenarios" and exited 0.
    @Test func reportOnADryRunsMessagesSaysNothingRan() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: T\n  Scenario: a\n    When I run \"true\"\n  Scenario: b\n    When I run \"true\"\n", "t.feature", in: directory)
        for mode in ["--dry-run", "--list"] {
            #expect(try CLI.run(["test", mode, "--messages", "dm.ndjson", "t.feature"], cwd: directory).status == 0)
            let result = try CLI.run(["report", "--junit", "rj.xml", "--json", "rj.json", "dm.ndjson"], cwd: directory)
            #expect(result.status == 5, "\(mode): \(result.stderr)")
            #expect(result.stderr.contains("no scenario that ran"), "\(result.stderr)")
        }
        // A run that ran is still read as before.
        #expect(try CLI.run(["test", "--messages", "m.ndjson", "t.feature"], cwd: directory).status == 0)
        #expect(try CLI.run(["report", "--json", "r.json", "m.ndjson"], cwd: directory).status == 0)
    }
}
