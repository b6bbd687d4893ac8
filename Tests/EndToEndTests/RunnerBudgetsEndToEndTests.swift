import Foundation
import Testing

/// The second outside attack on `sut-launch test` (findings F1, F11, F16): one big text never costs a run its
/// reports. A whole-file comparison reads at most 16 MiB (refused by name beyond), a diff is cut with how much it
/// left out, a feature file too big to report is refused when it loads, and a snapshot comparison of a long file is
/// linear (it ran past the scenario's deadline, comparing every line with every line).
@Suite struct RunnerBudgetsEndToEndTests {
    /// Runs sut-launch, killed (SIGKILL) if it is still running after `seconds`: a hang is a failure, not a stuck suite.
    static func runBounded(_ arguments: [String], cwd: URL, seconds: Double) throws -> (result: CLI.Result, killed: Bool) {
        var killed = false
        let result = try CLI.run(arguments, cwd: cwd) { process, _ in
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning {
                killed = true
                kill(process.processIdentifier, SIGKILL)
            }
        }
        return (result, killed)
    }

    static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1
    }

    /// `d.feature`: a file holding "x" and then what `append` (a shell command) adds, compared with "x" alone.
    static func writeFileStep(_ append: String, in directory: URL) throws {
        let script = try CLI.write("printf 'x\\n' > f.txt; " + append, "make.sh", in: directory)
        _ = try CLI.write(
            "Feature: D\n  Scenario: big file\n    When I run \"sh \(script)\"\n    Then the file \"f.txt\" is:\n      \"\"\"\n      x\n      \"\"\"\n",
            "d.feature", in: directory)
    }

    /// F1: a 20 MB file against `the file "f.txt" is:` printed the whole file as its diff and, with reports, ended
    /// "cannot read back the run's own Messages" with none of the four reports written.
    @Test func aFileOverTheCapIsRefusedByNameAndEveryReportIsWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeFileStep("head -c 20000000 /dev/zero >> f.txt", in: directory)
        let reports = ["--junit", "d.xml", "--report", "d.json", "--messages", "d.ndjson", "--html", "d.html"]
        let (result, killed) = try Self.runBounded(["test"] + reports + ["d.feature"], cwd: directory, seconds: 120)
        #expect(!killed)
        #expect(result.status == 1, "\(result.stdout.suffix(2000))\(result.stderr)")
        #expect(result.stdout.contains("f.txt is 20000002 bytes; whole-file steps compare at most 16 MiB"), "\(result.stdout.prefix(3000))")
        #expect(result.stdoutBytes < 1 << 20, "the console holds \(result.stdoutBytes) bytes")
        for name in ["d.xml", "d.json", "d.ndjson", "d.html"] {
            let size = Self.fileSize(directory.appendingPathComponent(name))
            #expect(size > 0 && size < 4 << 20, "\(name): \(size) bytes")
        }
    }

    /// F1: under the cap, a 5 MB line's diff is cut (4 KiB of a line, 256 KiB in all) with how many bytes it left
    /// out, in the console and in Messages `report` reads back.
    @Test func aDiffIsCutWithAMarkerNeverSilently() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeFileStep("head -c 5000000 /dev/zero | tr \\\\0 y >> f.txt", in: directory)
        let (result, killed) = try Self.runBounded(["test", "--messages", "d.ndjson", "d.feature"], cwd: directory, seconds: 120)
        #expect(!killed)
        #expect(result.status == 1)
        #expect(result.stdout.contains("… 4995904 more bytes on this line"), "\(result.stdout.prefix(6000))")
        #expect(result.stdoutBytes < 1 << 20)
        let report = try CLI.run(["report", "--junit", "r.xml", "d.ndjson"], cwd: directory)
        #expect(report.status == 1, "\(report.stderr)")
        let junit = try String(contentsOf: directory.appendingPathComponent("r.xml"), encoding: .utf8)
        #expect(junit.contains("more bytes on this line"))
    }

    /// F11: a 70 MB feature file with `--messages` ran the suite, then lost every report (exit 74). Over 8 MiB a
    /// feature file is refused when it loads, by `check` and `test` alike, naming it.
    @Test func aFeatureFileTooBigToReportIsRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = "      " + String(repeating: "a", count: 1000) + "\n"
        let text =
            "Feature: T\n  Scenario: s\n    Given a file \"x\" with:\n      \"\"\"\n" + String(repeating: line, count: 9000)
            + "      \"\"\"\n    When I run \"false\"\n"
        _ = try CLI.write(text, "big.feature", in: directory)
        for arguments in [["check", "big.feature"], ["test", "--junit", "j.xml", "--messages", "m.ndjson", "big.feature"]] {
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            let said = result.stdout + result.stderr
            #expect(said.contains("big.feature: a feature file of \(text.utf8.count) bytes (the limit is 8 MiB"), "\(said)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x").path))
    }

    /// F16: a snapshot of a 40 MB file was still being compared at 100 s, past a 5 s scenario deadline. A file over
    /// 16 MiB is refused by name; one under it (an 8 MB file of 108,000 lines) compares in linear time.
    @Test func fileSnapshotsAreCappedAndCompareInLinearTime() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S
              Scenario: long file
                When I run "sh -c 'head -c ${BYTES} /dev/urandom | base64 > f.txt'"
                Then the file "f.txt" matches the snapshot "big"

            """, "s.feature", in: directory)
        let update = try CLI.run(["test", "-D", "BYTES=6000000", "--update-snapshots", "s.feature"], cwd: directory)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let (changed, killed) = try Self.runBounded(
            ["test", "-D", "BYTES=6000000", "--scenario-timeout", "60s", "s.feature"], cwd: directory, seconds: 100)
        #expect(!killed, "the comparison ran past its deadline")
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("more bytes of diff") || changed.stdout.contains("large output"), "\(changed.stdout.prefix(3000))")
        #expect(!changed.stdout.contains("timed out"), "\(changed.stdout.prefix(3000))")
        let (big, bigKilled) = try Self.runBounded(
            ["test", "-D", "BYTES=13000000", "--scenario-timeout", "60s", "s.feature"], cwd: directory, seconds: 100)
        #expect(!bigKilled)
        #expect(big.status == 1)
        #expect(big.stdout.contains("whole-file steps compare at most 16 MiB"), "\(big.stdout.prefix(3000))")
    }
}
