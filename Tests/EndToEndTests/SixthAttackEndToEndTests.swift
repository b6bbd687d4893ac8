import Foundation
import Testing

/// Sixth outside attack (r6a launcher/control/init, r6b `test` and its reports): each finding replayed against the
/// built binary.
@Suite struct SixthAttackEndToEndTests {
    /// r6b-2: `the file "X" exists` passed on a link to a directory, a dangling link and a FIFO, which every content
    /// step refuses as "not a file": only a regular file exists, and `does not exist` fails on them too.
    @Test func onlyARegularFileExists() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var feature = "Feature: E\n"
        let shapes = [
            ("mkdir d; ln -s d ld", "ld", "a symbolic link (sut-launch reads no file through a link)"),
            ("ln -s nowhere dl", "dl", "a symbolic link (sut-launch reads no file through a link)"), ("mkfifo p", "p", "a FIFO"),
            ("ln -s /dev/null n", "n", "a symbolic link (sut-launch reads no file through a link)"),
        ]
        for (index, (make, name, _)) in shapes.enumerated() {
            feature += "  Scenario: exists \(index)\n    When I run \"sh -c '\(make)'\"\n    Then the file \"\(name)\" exists\n"
            feature += "  Scenario: absent \(index)\n    When I run \"sh -c '\(make)'\"\n    Then the file \"\(name)\" does not exist\n"
        }
        feature += "  Scenario: a file\n    When I run \"sh -c 'echo x > f'\"\n    Then the file \"f\" exists\n"
        let path = try CLI.write(feature, "e.feature", in: directory)
        let result = try CLI.run(["test", path], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("9 scenarios: 1 passed, 8 failed"), "\(result.stdout)")
        for (_, name, what) in shapes {
            #expect(
                result.stdout.contains("expected \(name) to exist in the scenario's directory; it is \(what), not a file"),
                "\(result.stdout)")
            #expect(result.stdout.contains("expected \(name) not to exist in the scenario's directory; it is \(what), not a file"))
        }
    }

    /// r6b-5: an exact-output doc string made only of `...` lines matches any output: a load error naming the line,
    /// and a snapshot holding only `...` fails (an update replaces it).
    @Test func anExpectedOutputOfOnlyEllipsesIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dots = "      \"\"\"\n      ...\n      ...\n      \"\"\"\n"
        let feature = try CLI.write(
            "Feature: D\n  Scenario: o\n    When I run \"echo FATAL\"\n    Then the output is:\n\(dots)"
                + "  Scenario: f\n    When I run \"sh -c 'echo x > f'\"\n    Then the file \"f\" is:\n\(dots)", "d.feature", in: directory)
        let checked = try CLI.run(["check", feature], cwd: directory)
        #expect(checked.status == 3, "\(checked.stdout)\(checked.stderr)")
        for line in [4, 11] {
            #expect(checked.stderr.contains("d.feature:\(line): the expected text is only `...` lines"), "\(checked.stderr)")
        }
        // A literal line of three dots stays possible.
        let literal = try CLI.write(
            "Feature: L\n  Scenario: l\n    When I run \"echo ...\"\n    Then the output is:\n      \"\"\"\n      \\...\n      \"\"\"\n",
            "l.feature", in: directory)
        let passed = try CLI.run(["test", literal], cwd: directory)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")

        let snapshot = try CLI.write(
            "Feature: S\n  Scenario: s\n    When I run \"echo FATAL\"\n    Then the output matches the snapshot \"dots\"\n", "s.feature",
            in: directory)
        let snapshots = directory.appendingPathComponent("__snapshots__/s.feature")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try "...\n".write(to: snapshots.appendingPathComponent("dots.txt"), atomically: true, encoding: .utf8)
        let vacuous = try CLI.run(["test", snapshot], cwd: directory)
        #expect(vacuous.status == 1, "\(vacuous.stdout)\(vacuous.stderr)")
        #expect(vacuous.stdout.contains("holds only `...` lines, which match any output"), "\(vacuous.stdout)")
        let updated = try CLI.run(["test", "--update-snapshots", snapshot], cwd: directory)
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        #expect(try String(contentsOf: snapshots.appendingPathComponent("dots.txt"), encoding: .utf8) == "FATAL\n")
    }

    /// r6b-6: an Examples column named twice: the second's values are never used, a warning naming it.
    @Test func anExamplesColumnNamedTwiceIsWarnedAbout() throws {
        let result = try Self.run(
            "check",
            "Feature: D\n  Scenario Outline: dup <a>\n    When I run \"echo <a>\"\n\n    Examples:\n      | a | a |\n      | 1 | 2 |\n")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("f.feature:6: column \"a\" of Examples \"\" is named twice"), "\(result.stderr)")
    }

    /// r6b-1: `When I press Ctrl-C` without a terminal wrote a byte into a pipe and passed: a load error.
    @Test func pressingAKeyNeedsATerminal() throws {
        let result = try Self.run(
            "test",
            "Feature: K\n  Scenario: k\n    Given the program \"/bin/sh\"\n    When I launch the program with \"-c 'sleep 1'\"\n"
                + "    And I press Ctrl-C\n")
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("f.feature:5: When I press Ctrl-C needs Given the program runs in a terminal"), "\(result.stderr)")
    }

    /// `sut-launch COMMAND f.feature` on `feature` in a directory of its own.
    private static func run(_ command: String, _ feature: String) throws -> CLI.Result {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try CLI.run([command, try CLI.write(feature, "f.feature", in: directory)], cwd: directory)
    }

    /// r6b-7: reports of a run where nothing ran (`--dry-run`, no scenario selected) said "all passed, exit code 0"
    /// and JUnit held zero tests: they say exit 5 and JUnit has an error entry, from `test` and from `report` alike.
    @Test func reportsOfARunWhereNothingRanSayExit5() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: C\n  Scenario: c\n    When I run \"false\"\n", "c.feature", in: directory)
        let file = { (name: String) in directory.appendingPathComponent(name).path }
        let dry = try CLI.run(
            ["test", "--dry-run", "--junit", file("j.xml"), "--report", file("r.json"), "--messages", file("m.ndjson"), feature],
            cwd: directory)
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        let merged = try CLI.run(["report", "--json", file("r2.json"), "--junit", file("j2.xml"), file("m.ndjson")], cwd: directory)
        #expect(merged.status == 5, "\(merged.stdout)\(merged.stderr)")
        for (json, junit) in [("r.json", "j.xml"), ("r2.json", "j2.xml")] {
            let report = try String(contentsOfFile: file(json), encoding: .utf8)
            #expect(report.hasPrefix("{\"exitCode\":5,\"error\":\"the files hold no scenario that ran"), "\(report)")
            let xml = try String(contentsOfFile: file(junit), encoding: .utf8)
            #expect(xml.contains("errors=\"1\"") && xml.contains("name=\"no scenario ran\""), "\(xml)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file("r.json"))) == Data(contentsOf: URL(fileURLWithPath: file("r2.json"))))

        let none = try CLI.run(["test", "--tags", "@none", "--junit", file("j3.xml"), feature], cwd: directory)
        #expect(none.status == 5, "\(none.stdout)\(none.stderr)")
        let xml = try String(contentsOfFile: file("j3.xml"), encoding: .utf8)
        #expect(xml.contains("errors=\"1\"") && xml.contains("the run selected none (exit 5)"), "\(xml)")
    }

    /// r6a-3: `init --program ./bin/app DIR` with DIR a link elsewhere wrote `../../bin/app`, which resolves through the
    /// link to nothing: an absolute path, and the starter passes.
    @Test func initThroughALinkNamesTheProgramSoItResolves() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("elsewhere/deep"), withIntermediateDirectories: true)
        _ = try CLI.write("#!/bin/sh\necho app-ran\n", "app", in: bin)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("app").path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("lk").path, withDestinationPath: "elsewhere/deep")
        let made = try CLI.run(["init", "--program", "./bin/app", "lk"], cwd: directory)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let starter = try String(contentsOf: directory.appendingPathComponent("lk/features/example.feature"), encoding: .utf8)
        #expect(starter.contains("Given the program \"/"), "\(starter)")
        let ran = try CLI.run(["test", "lk/features"], cwd: directory)
        #expect(ran.status == 0, "\(ran.stdout)\(ran.stderr)")
    }

    /// r6a-5: a relative PATH entry with `-C DIR`: the file found from the caller's directory is the one run (the
    /// spawn launcher ran `./prog` in DIR, another file, or failed 127).
    @Test func aRelativePathEntryRunsTheFileItFound() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sub = directory.appendingPathComponent("sub")
        let empty = directory.appendingPathComponent("empty")
        for made in [sub, empty] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        for (text, place) in [("TOP", directory), ("SUB", sub)] {
            _ = try CLI.write("#!/bin/sh\necho \(text)\n", "prog", in: place)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: place.appendingPathComponent("prog").path)
        }
        for launcher in [CLI.sutLaunch, CLI.product("sut-launch-foundation")] {
            for workingDirectory in ["..", "../empty"] {
                let text = try CLI.output(
                    of: [
                        "sh", "-c", "PATH=.:/usr/bin:/bin \"$0\" -q -C \"$1\" prog 2>/dev/null; echo \"exit $?\"", launcher,
                        workingDirectory,
                    ],
                    in: sub)
                #expect(text == "SUB\nexit 0\n", "\(launcher) -C \(workingDirectory): \(text)")
            }
        }
    }

    /// r6a-6/15: the launcher's `--report`/`--journal` inside a `--stub DIR` root or an `--into` root, on the
    /// `--https-cert`/`--https-key` PEM, or on the file or pipe its console writes to: exit 2 naming both, nothing run.
    @Test func launcherReportsStayOffInputsAndTheConsole() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("root")
        for sub in ["mappings", "__files"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        _ = try CLI.write(
            #"{"request":{"method":"GET","url":"/b"},"response":{"status":200,"bodyFileName":"body.json"}}"#, "m.json",
            in: root.appendingPathComponent("mappings"))
        _ = try CLI.write(#"{"a":1}"#, "body.json", in: root.appendingPathComponent("__files"))
        let pem = try CLI.write("not a pem\n", "cc.pem", in: directory)
        let marker = directory.appendingPathComponent("ran").path
        for (arguments, named) in [
            (["--stub", "root", "--report", "root/__files/body.json"], "is inside --stub root, whose files the run reads"),
            (
                ["--stub", "root", "--journal", "root/mappings/new.json"],
                "--journal root/mappings/new.json (argument 5) is inside --stub root"
            ),
            (["--record-from", "http://127.0.0.1:9", "--into", "rec", "--report", "rec/mappings/r.json"], "is inside --into rec"),
            (["--https", "--https-cert", pem, "--https-key", pem, "--report", pem], "would overwrite"),
        ] {
            let result = try CLI.run(["-p", "0"] + arguments + ["touch", marker], cwd: directory)
            #expect(result.status == 2 && result.stderr.contains(named), "\(arguments): \(result.stderr)")
        }
        #expect(try String(contentsOf: root.appendingPathComponent("__files/body.json"), encoding: .utf8) == #"{"a":1}"#)
        #expect(
            !FileManager.default.fileExists(atPath: marker) && !FileManager.default.fileExists(atPath: root.path + "/mappings/new.json"))

        // The console's own file and pipe.
        let same = try CLI.output(
            of: ["sh", "-c", "\"$0\" --report same.txt echo OUT > same.txt 2>err.txt; echo \"exit $?\"; cat err.txt", CLI.sutLaunch],
            in: directory)
        #expect(same.hasPrefix("exit 2\n") && same.contains("is where the console writes (stdout)"), "\(same)")
        let piped = try CLI.output(of: ["sh", "-c", "\"$0\" --journal /dev/stderr -p 0 echo OUT 2>&1 | cat", CLI.sutLaunch], in: directory)
        #expect(piped.contains("is where the console writes (std") && !piped.contains("OUT\n"), "\(piped)")
    }

    /// r6a-16: a relative TMPDIR with `-C DIR`: the trust files `--https` gives the program are named absolutely.
    @Test func aRelativeTMPDIRGivesTheProgramTrustFilesItCanFind() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for sub in ["tmp", "elsewhere"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let stub = try CLI.write(#"{"routes":[]}"#, "s.json", in: directory)
        var environment = CLI.localEnvironment
        environment["TMPDIR"] = "tmp"
        let result = try CLI.run(
            [
                "-q", "--https", "-p", "0", "--stub", stub, "-C", "elsewhere", "sh", "-c",
                "test -f \"$SSL_CERT_FILE\" && echo \"$SSL_CERT_FILE\"",
            ],
            environment: environment, cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("/") && result.stdout.contains("/tmp/sut-https-"), "\(result.stdout)")
    }

    /// r6a-10: `--launcher foundation` under a low open-file limit trapped (SIGILL) or failed "Bad file descriptor":
    /// a clear refusal naming the limit (exit 125), the report written; the default launcher runs there.
    @Test func theFoundationLauncherRefusesALowDescriptorLimitByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(#"{"routes":[{"method":"GET","path":"/x","status":200}]}"#, "s.json", in: directory)
        for limit in [16, 64] {
            let text = try CLI.output(
                of: [
                    "sh", "-c",
                    "ulimit -n \(limit); \"$0\" --launcher foundation -p 0 --stub \"$1\" --report r.json true 2>&1; echo \"exit $?\"",
                    CLI.sutLaunch, stub,
                ], in: directory)
            #expect(text.contains("the Foundation launcher needs at least 256 open files and the limit is \(limit)"), "\(text)")
            #expect(text.hasSuffix("exit 125\n"), "\(text)")
            #expect(try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8).contains("\"exitCode\" : 125"))
        }
        let spawned = try CLI.output(
            of: ["sh", "-c", "ulimit -n 16; \"$0\" -q -p 0 --stub \"$1\" true 2>&1; echo \"exit $?\"", CLI.sutLaunch, stub], in: directory)
        #expect(spawned.hasSuffix("exit 0\n"), "\(spawned)")
    }

    /// r6a-M2: `-C ''` was exit 125 "cannot use working directory : no such directory", the option unnamed.
    @Test func anEmptyWorkingDirectoryIsAUsageErrorNamingTheOption() throws {
        let result = try CLI.run(["-C", "", "true"])
        #expect(result.status == 2 && result.stderr.contains("-C (argument 1) names no directory"), "\(result.stderr)")
    }
}
