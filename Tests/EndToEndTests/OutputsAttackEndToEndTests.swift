import Foundation
import Testing

/// The outside attack on reports (third round): outputs a program under test tried to move, and an output that
/// could not be written while the run exited 0.
@Suite struct OutputsAttackEndToEndTests {
    /// F-swap-escape: the program plants a dangling link at every report's name, then swaps the reports' directory
    /// for a link elsewhere. The directory pinned at start is written into; the link at the name there is refused by
    /// name (exit 74), never followed, and nothing lands outside (a file there is left as it was).
    @Test func aLinkPlantedAtTheNameThenADirectorySwapWritesNothingOutside() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let outside = directory.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        _ = try CLI.write("precious", "outside/j.xml", in: directory)
        let names = ["j.xml", "rr.txt", "h.html", "m.ndjson", "r.json"]
        // -f: the run's placeholder stands at each name from its start.
        let plant = names.map { "ln -sf nowhere \(out)/\($0)" }.joined(separator: " && ")
        let feature = try CLI.write(
            """
            Feature: P
              Scenario: swap
                When I run "sh -c '\(plant) && mv \(out) \(out).old && ln -s \(outside) \(out)'"
                Then the exit code is 0

            """, "swap.feature", in: directory)
        let result = try CLI.run(
            [
                "test", "-q", "--junit", "out/j.xml", "--write-rerun", "out/rr.txt", "--html", "out/h.html", "--messages",
                "out/m.ndjson", "--report", "out/r.json", feature,
            ], cwd: directory)
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("became a symbolic link during the run"), "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: outside)
        #expect(written == ["j.xml"], "written outside: \(written)")
        #expect(try String(contentsOfFile: outside + "/j.xml", encoding: .utf8) == "precious")
        for name in names {
            let kind = try FileManager.default.attributesOfItem(atPath: "\(out).old/\(name)")[.type] as? FileAttributeType
            #expect(kind == .typeSymbolicLink, "\(name) in the pinned directory was replaced")
        }
    }

    /// The reports' directory renamed away during the run (`out` → `out.moved`): the reports are written in the
    /// directory checked at start, now `out.moved`, the exit stays 0, and one warning line per report names the path
    /// that no longer leads there and where the report is.
    @Test func aReportDirectoryRenamedDuringTheRunIsSaidNotSilent() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let feature = try CLI.write(
            "Feature: P\n  Scenario: move\n    When I run \"mv \(out) \(out).moved\"\n    Then the exit code is 0\n", "move.feature",
            in: directory)
        let result = try CLI.run(["test", "-q", "--junit", "out/j.xml", "--report", "out/r.json", feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let moved = directory.resolvingSymlinksInPath().path + "/out.moved"
        for (option, name) in [("--junit", "j.xml"), ("--report", "r.json")] {
            let warning = result.stderr.split(separator: "\n").first { $0.contains("warning: \(option) out/\(name): out no longer leads") }
            #expect(warning?.contains("now \(moved)/\(name), not at out/\(name)") == true, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: "\(out).moved/\(name)"), "\(name) is not in the renamed directory")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A link at the name that leads to a device (`/dev/stdout` style) is still written in place, from the pinned
    /// directory.
    @Test func aLinkToADeviceAtTheNameIsWrittenInPlace() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("j.xml").path, withDestinationPath: "/dev/null")
        let feature = try CLI.write(
            "Feature: P\n  Scenario: s\n    When I run \"true\"\n    Then the exit code is 0\n", "s.feature", in: directory)
        let result = try CLI.run(["test", "-q", "--junit", "j.xml", feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("j.xml").path) == "/dev/null")
    }

    /// F-summary-exit0: the GitHub step summary could not be appended (a full device, a missing directory, a link):
    /// said on stderr and exit 74, never 0; the link's target is left alone.
    @Test(arguments: ["/dev/full", "/nonexistent-sut-dir/x.md", "link"])
    func aStepSummaryThatCannotBeWrittenIsExit74(summary: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var path = summary
        if summary == "link" {
            _ = try CLI.write("kept\n", "target.md", in: directory)
            path = directory.appendingPathComponent("summary.md").path
            try FileManager.default.createSymbolicLink(
                atPath: path, withDestinationPath: directory.appendingPathComponent("target.md").path)
        }
        let feature = try CLI.write(
            "Feature: P\n  Scenario: s\n    When I run \"true\"\n    Then the exit code is 0\n", "s.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = path
        let result = try CLI.run(["test", "-q", "--format", "github", feature], environment: environment, cwd: directory)
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot append the summary"), "\(result.stderr)")
        if summary == "link" {
            #expect(try String(contentsOfFile: directory.appendingPathComponent("target.md").path, encoding: .utf8) == "kept\n")
        }
    }

    /// F-messages-blowup: a 1 MiB feature whose Background doc string (control characters, 6 bytes each in JSON) is
    /// repeated in 48 scenarios made 314 MB of Messages that `report` refused. Refused at load (exit 3, naming the file
    /// and the fix, `check` too), with a parseError in place of its pickles: the Messages stay small and read back.
    @Test func aBackgroundRepeatedIntoReportsTooLargeToReadBackIsRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = "      " + String(repeating: "\u{1}", count: 1000) + "\n"
        var text = "Feature: big\n  Background:\n    Given a file \"x.txt\" with:\n      \"\"\"\n"
        text += String(repeating: line, count: 1048) + "      \"\"\"\n"
        for index in 0..<48 { text += "  Scenario: s\(index)\n    When I run \"true\"\n" }
        let feature = try CLI.write(text, "bg.feature", in: directory)
        let result = try CLI.run(["test", "-q", "--messages", "m.ndjson", feature], cwd: directory)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("bg.feature: its scenarios would bring the run's Cucumber Messages over 192 MiB"), "\(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("m.ndjson").path)[.size] as? Int
        #expect((size ?? .max) < 16 << 20, "\(size ?? -1) bytes of Messages")
        let report = try CLI.run(["report", "--json", "r.json", "m.ndjson"], cwd: directory)
        #expect(report.status == 3, "\(report.stdout)\(report.stderr)") // as test: a file that does not load
        #expect(try CLI.run(["check", feature]).status == 3)
    }

    /// Re-attack, 1: a link to a device planted at the name during the run (`/dev/loop0` took the JUnit's bytes; here
    /// `/dev/null`, which lost it silently) is refused, exit 74; a link the user made before the run still works.
    @Test func aLinkToADevicePlantedDuringTheRunIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: P
              Scenario: plant
                When I run "ln -sf /dev/null \(directory.path)/j.xml"
                Then the exit code is 0

            """, "plant.feature", in: directory)
        let result = try CLI.run(["test", "-q", "--junit", "j.xml", feature], cwd: directory)
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("j.xml became a symbolic link during the run"), "\(result.stderr)")
    }

    /// Re-attack, 2: a step summary naming a FIFO nobody reads blocked the run's end forever (SIGTERM too): exit 74 at
    /// once, naming it.
    @Test func aStepSummaryFIFOWithoutAReaderIsExit74NotAHang() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let feature = try CLI.write(
            "Feature: P\n  Scenario: s\n    When I run \"true\"\n    Then the exit code is 0\n", "s.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["GITHUB_ACTIONS"] = "true"
        environment["GITHUB_STEP_SUMMARY"] = fifo
        var ended = false
        let result = try CLI.run(["test", "-q", "--format", "github", feature], environment: environment, cwd: directory) { process, _ in
            ended = CLI.eventually(60) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
        }
        #expect(ended, "the run blocked on the FIFO")
        #expect(result.status == 74 && result.stderr.contains("is a FIFO nobody reads"), "\(result.status) \(result.stderr)")
    }

    /// R9B-6: a named FIFO whose reader waits before the run (`mkfifo p; gzip < p & sut-launch test --junit p`) never got
    /// the report: the check before the run opened and closed it, the reader saw end-of-file and left, and the run
    /// ended 74. The check holds it open until the report is written; `test` and `report` alike.
    @Test func aReportFIFOWhoseReaderWaitsGetsTheReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("j.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        _ = try CLI.write("Feature: P\n  Scenario: a\n    When I run \"true\"\n", "p.feature", in: directory)
        let first = try CLI.run(["test", "-q", "--messages", "m.ndjson", "p.feature"], cwd: directory)
        #expect(first.status == 0, "\(first.stderr)")
        for (index, arguments) in [["test", "-q", "--junit", "j.fifo", "p.feature"], ["report", "--junit", "j.fifo", "m.ndjson"]]
            .enumerated()
        {
            let got = directory.appendingPathComponent("got\(index).xml").path
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/bin/sh")
            reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, got]
            try reader.run()
            // The reader is waiting in open() once the shell made its output file.
            #expect(CLI.eventually(30) { FileManager.default.fileExists(atPath: got) })
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            let ended = CLI.eventually(30) { !reader.isRunning }
            if !ended { reader.terminate() }
            let text = (try? String(contentsOfFile: got, encoding: .utf8)) ?? ""
            #expect(text.contains("<testsuites"), "\(arguments): the reader got \(text.debugDescription)")
        }
    }
}
