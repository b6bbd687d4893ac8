import Foundation
import Testing

/// Round 4b's findings on what a run writes over (the real binary): `--coverage DIR` over the suite's own inputs
/// (K), report options over the scripts step files run (O), an earlier run's Go data taken for this run's and a
/// user's files deleted (J), output directories where nothing can be created (Y).
@Suite struct OutputCollisionEndToEndTests {
    /// K, class 3: `--coverage fx` with `fx/c.feature` deleted the fixture `fx/go/main.go` and `fx/summary.txt` before
    /// the scenario ran. Now DIR that is, holds or sits inside a feature directory or a fixture is exit 2 naming both,
    /// and nothing in it is touched (no `.lock`, no `raw/`).
    @Test func aCoverageDirectoryOverTheSuitesInputsIsRefusedBeforeAnythingIsRemoved() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("package main\n", "fx/go/main.go", in: directory)
        _ = try CLI.write("orig\n", "fx/summary.txt", in: directory)
        _ = try CLI.write("[]\n", "fx/stubs/s.json", in: directory)
        _ = try CLI.write(
            "Feature: C\n  Scenario: c\n    Given the files from \"go\"\n    When I run \"cat main.go\"\n    Then I see \"package main\"\n",
            "fx/c.feature", in: directory)
        _ = try CLI.write("Feature: D\n  Scenario: d\n    When I run \"true\"\n", "features/d.feature", in: directory)
        let cases: [([String], String)] = [
            (["--coverage", "fx", "fx/c.feature"], "holds fx/c.feature"), // the finding: DIR is the feature file's directory
            (["--coverage", ".", "fx/c.feature"], "holds"), // DIR holds the feature directory
            (["--coverage", "fx/go", "fx/c.feature"], "is fx/go"), // DIR is the fixture
            (["--coverage", "fx/go/cov", "fx/c.feature"], "is inside fx/go"), // DIR inside the fixture
            (["--coverage", "./fx/", "fx/c.feature"], "holds"), // another spelling of it
            (["--coverage", "features/cov", "features"], "is inside features"), // inside a directory operand
            (["--coverage", "features", "features"], "is features"),
        ]
        for (arguments, relation) in cases {
            let result = try CLI.run(["test"] + arguments, cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("--coverage") && result.stderr.contains(relation), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("fx/go/main.go"), encoding: .utf8) == "package main\n")
        #expect(try String(contentsOf: directory.appendingPathComponent("fx/summary.txt"), encoding: .utf8) == "orig\n")
        for untouched in ["fx/.lock", "fx/raw", "fx/go/cov", "features/cov/.lock", ".lock", "raw"] {
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(untouched).path), "\(untouched) made")
        }
        // A DIR of its own beside the features (the usual layout) is still taken.
        let beside = try CLI.run(["test", "--list", "--coverage", "cov", "fx/c.feature"], cwd: directory)
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    /// K, neighbours: a DIR that holds a stub file, a step file or the program the run reads is refused as well.
    @Test func aCoverageDirectoryHoldingAFileTheRunReadsIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("[]\n", "data/s.json", in: directory)
        _ = try CLI.write("#!/bin/sh\necho hi\n", "bin/prog", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path + "/bin/prog")
        _ = try CLI.write("{ \"steps\": [ { \"step\": \"mine\", \"run\": [\"../tools/x.sh\"] } ] }\n", "f/m.steps.json", in: directory)
        _ = try CLI.write("#!/bin/sh\n", "tools/x.sh", in: directory)
        _ = try CLI.write(
            "Feature: F\n  Scenario: s\n    Given the stubs \"../data/s.json\"\n    When I run \"true\"\n", "f/f.feature", in: directory)
        for (arguments, named) in [
            (["--coverage", "data", "f/f.feature"], "data/s.json"),
            (["--coverage", "bin", "-D", "PROGRAM=bin/prog", "f/f.feature"], "bin/prog"),
            (["--coverage", "tools", "f/f.feature"], "tools/x.sh"),
            (["--coverage", "stepdir", "--steps", "stepdir/s.steps.json", "f/f.feature"], "stepdir/s.steps.json"),
        ] {
            if arguments.contains("stepdir/s.steps.json") { _ = try CLI.write("[]\n", "stepdir/s.steps.json", in: directory) }
            let result = try CLI.run(["test"] + arguments, cwd: directory)
            #expect(result.status == 2 && result.stderr.contains(named), "\(arguments): \(result.stderr)")
        }
        // A run (no `test`): its program, stub, env and flags files.
        _ = try CLI.write("A=1\n", "env/e.env", in: directory)
        for (arguments, named) in [
            (["--coverage", "bin", "bin/prog"], "bin/prog"), (["--coverage", ".", "./bin/prog"], "./bin/prog"),
            (["--coverage", "data", "--stub", "data/s.json", "/bin/true"], "data/s.json"),
            (["--coverage", "data/cov", "--stub", "data", "/bin/true"], "is inside data"),
            (["--coverage", "env", "--env-file", "env/e.env", "/bin/true"], "env/e.env"),
        ] {
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 2 && result.stderr.contains(named), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path + "/\(arguments[1])/.lock"), "DIR left untouched")
        }
    }

    /// O, class 3: `--junit s.sh --report hook.sh` replaced a step's `run` script and a Before hook's with XML and JSON,
    /// exit 0. Every output option on a file a step or hook runs (as written, `./` or absolute, an absolute argument
    /// of `sh`) is exit 2 naming both, and the scripts stay as they were.
    @Test func anOutputOnAScriptAStepOrHookRunsIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in [("s.sh", "step-script-ran"), ("hook.sh", "hook-ran"), ("arg.sh", "arg-ran")] {
            _ = try CLI.write("#!/bin/sh\necho \(text)\n", name, in: directory)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path + "/" + name)
        }
        let steps = """
            { "steps": [ { "step": "my step", "run": ["./s.sh"] }, { "step": "by sh", "run": ["sh", "\(directory.path)/arg.sh"] } ],
              "hooks": [ { "hook": "Before", "run": ["./hook.sh"] } ] }
            """
        _ = try CLI.write(steps, "o.steps.json", in: directory)
        _ = try CLI.write("Feature: OV\n  Scenario: s\n    Given my step\n    And by sh\n", "o.feature", in: directory)
        let before = try ["s.sh", "hook.sh", "arg.sh"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        for arguments in [
            ["--junit", "s.sh"], ["--report", "hook.sh"], ["--messages", "./s.sh"], ["--html", directory.path + "/hook.sh"],
            ["--write-rerun", "arg.sh"], ["--junit", "s.sh", "--report", "hook.sh"],
        ] {
            let result = try CLI.run(["test"] + arguments + ["o.feature"], cwd: directory)
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("would overwrite") && result.stderr.contains("o.steps.json:"), "\(arguments): \(result.stderr)")
        }
        #expect(try ["s.sh", "hook.sh", "arg.sh"].map { try Data(contentsOf: directory.appendingPathComponent($0)) } == before)
        let run = try CLI.run(["test", "o.feature"], cwd: directory)
        #expect(run.status == 0, "the scripts still run: \(run.stdout)\(run.stderr)")
        // The "could not start" message names the script as written, not `././hook.sh`.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory.path + "/hook.sh")
        let refused = try CLI.run(["test", "o.feature"], cwd: directory)
        #expect(refused.stdout.contains("could not start ./hook.sh:") && !refused.stdout.contains("././"), "\(refused.stdout)")
    }

    /// J, classes 2 and 3: a leftover `DIR/go/old/covmeta.stale` turned "nothing measured" (exit 6) into exit 0, and
    /// `DIR/go/main.go` was deleted. Only Go's own files directly in `DIR/go` are cleared and counted.
    @Test func onlyGosOwnFilesInTheGoDirectoryAreClearedAndCounted() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: C\n  Scenario: c\n    When I run \"true\"\n", "c.feature", in: directory)
        _ = try CLI.write("x\n", "c2/go/old/covmeta.stale", in: directory)
        _ = try CLI.write("package main\n", "c2/go/main.go", in: directory)
        _ = try CLI.write("x\n", "c2/go/covmeta.0123", in: directory)
        _ = try CLI.write("x\n", "c2/go/covcounters.0123.1.2", in: directory)
        let result = try CLI.run(["test", "--coverage", "c2", "--report", "r.json", "c.feature"], cwd: directory)
        #expect(result.status == 6, "nothing this run launched wrote Go data: \(result.stderr)")
        #expect(!result.stderr.contains("Go coverage data"), "\(result.stderr)")
        let go = directory.appendingPathComponent("c2/go").path
        #expect(FileManager.default.fileExists(atPath: go + "/main.go"), "a user's file is never deleted")
        #expect(FileManager.default.fileExists(atPath: go + "/old/covmeta.stale"), "a subdirectory is left as it is")
        #expect(!FileManager.default.fileExists(atPath: go + "/covmeta.0123"), "an earlier run's Go data is cleared")
        #expect(!FileManager.default.fileExists(atPath: go + "/covcounters.0123.1.2"))
        // Go data this run's program writes is still found.
        _ = try CLI.write(
            "Feature: G\n  Scenario: g\n    When I run \"sh -c 'echo x > $GOCOVERDIR/covmeta.1'\"\n", "g.feature", in: directory)
        let written = try CLI.run(["test", "--coverage", "c2", "g.feature"], cwd: directory)
        #expect(written.status == 0 && written.stderr.contains("Go coverage data only"), "\(written.stderr)")
    }

    /// Y: `/proc` and `/sys` pass the "directory writable" check as root, and creating fails: the whole suite ran, then
    /// exit 74. A file is created (and removed) in the directory at check time: exit 2 before anything launches.
    @Test(arguments: ["--junit", "--report", "--messages", "--html", "--write-rerun"])
    func anOutputWhereNoFileCanBeCreatedIsAUsageErrorBeforeLaunch(_ option: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("Feature: R\n  Scenario: r\n    When I run \"touch ran\"\n", "rl.feature", in: directory)
        for place in ["/proc/out.x", "/sys/out.x"] {
            let result = try CLI.run(["test", option, place, "rl.feature"], cwd: directory)
            #expect(result.status == 2, "\(option) \(place): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(option), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path + "/ran"), "nothing launched")
        }
        let run = try CLI.run(["--report", "/proc/r.json", "/bin/true"], cwd: directory)
        #expect(run.status == 2, "run's outputs too: \(run.stderr)")
        // No probe file is left in a directory that can be written.
        let fine = try CLI.run(["test", option, "out.x", "rl.feature"], cwd: directory)
        #expect(fine.status == 0, "\(fine.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".sut-probe") }
        #expect(left.isEmpty, "\(left)")
    }
}
