import Foundation
import Testing

/// `--write-rerun` and `--rerun-failed`: a run's failures, written as Cucumber's rerun file and read back from that
/// file, the run's JUnit (with and without file/line) or its Messages, run again and nothing else; and every hostile
/// input refused with one line naming the file and line.
@Suite struct RerunEndToEndTests {
    static let feature = """
        Feature: mixed
          Scenario: passes
            When I run "true"
          Scenario: fails
            When I run "false"
            Then the exit code is 0
          Scenario Outline: rows
            When I run "sh -c 'exit <code>'"
            Then the exit code is 0
            Examples:
              | code |
              | 0    |
              | 2    |

        """

    static func setUp() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.write(feature, "features/mixed.feature", in: directory)
        return directory
    }

    @Test func eachFormatOfAnEarlierRunRerunsExactlyWhatFailed() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try CLI.run(
            ["test", "--junit", "j.xml", "--messages", "m.ndjson", "--write-rerun", "rerun.txt", "features/"], cwd: directory)
        #expect(first.status == 1)
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "features/mixed.feature:4:13\n")
        _ = try CLI.run(["test", "--junit", "strict.xml", "--junit-strict", "features/"], cwd: directory)
        for file in ["rerun.txt", "j.xml", "strict.xml", "m.ndjson"] {
            // Spelled another way (./features): the same files by their real path.
            let again = try CLI.run(["test", "--rerun-failed", file, "--report", "r.json", "./features"], cwd: directory)
            #expect(again.status == 1, "\(file): \(again.stderr)")
            #expect(again.stdout.contains("2 scenarios: 0 passed, 2 failed (2 not selected)"), "\(file): \(again.stdout)")
        }
        // The rerun file may be the one this run writes: it is read before, written after.
        let cycle = try CLI.run(["test", "--rerun-failed", "rerun.txt", "--write-rerun", "rerun.txt", "features/"], cwd: directory)
        #expect(cycle.status == 1)
        #expect(try String(contentsOf: directory.appendingPathComponent("rerun.txt"), encoding: .utf8) == "features/mixed.feature:4:13\n")
    }

    /// Cucumber-Ruby writes a run's files on one line, separated by spaces; a space elsewhere belongs to the path.
    @Test func cucumberRubysOneLineRerunFilesAreRead() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: other\n  Scenario: fails too\n    When I run \"false\"\n    Then the exit code is 0\n", "features/other file.feature",
            in: directory)
        _ = try CLI.write("features/mixed.feature:4  features/other file.feature:2\n", "rerun.txt", in: directory)
        let result = try CLI.run(["test", "--rerun-failed", "rerun.txt", "features/"], cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 0 passed, 2 failed (3 not selected)"), "\(result.stdout)\(result.stderr)")
        // A long line of spaces and digits is split in one pass (it once scanned back to the line's start at each space).
        let crowded = String(repeating: "1:2 ", count: 200_000) + "features/mixed.feature:4\n"
        _ = try CLI.write(crowded, "crowded.txt", in: directory)
        let started = Date()
        let refused = try CLI.run(["test", "--rerun-failed", "crowded.txt", "features/"], cwd: directory)
        #expect(refused.status != 0 && Date().timeIntervalSince(started) < 60, "\(refused.stderr)")
    }

    @Test func aRerunWithNothingToRunSaysSoAndExits5() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("# all passed\n\n", "rerun.txt", in: directory)
        let result = try CLI.run(["test", "--rerun-failed", "rerun.txt", "features/"], cwd: directory)
        #expect(result.status == 5)
        #expect(result.stderr.contains("the earlier run (--rerun-failed) had no failed scenarios; nothing to run"), "\(result.stderr)")
        let allowed = try CLI.run(["test", "--rerun-failed", "rerun.txt", "--allow-empty", "features/"], cwd: directory)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test func hostileRerunFilesAreRefusedNamingFileAndLine() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String)] = [
            ("features/mixed.feature:4\n../../etc/passwd:1\n", "bad:2: ../../etc/passwd is not one of the feature files of this run"),
            ("/etc/passwd:1\n", "bad:1: /etc/passwd is not one of the feature files of this run"),
            ("features/mixed.feature:5\n", "bad:1: features/mixed.feature:5: no scenario or Examples row starts at line 5"),
            ("features/mixed.feature:0\n", "bad:1: 'features/mixed.feature:0' is not FILE.feature:LINE"),
            ("features/mixed.feature:-1\n", "bad:1: 'features/mixed.feature:-1' is not FILE.feature:LINE"),
            ("features/mixed.feature:9223372036854775808\n", "bad:1: 'features/mixed.feature:9223372036854775808' is not"),
            ("features/mixed.feature\n", "bad:1: 'features/mixed.feature' is not FILE.feature:LINE"),
            ("features/mixed.feature:4\u{1B}]0;pwned\u{07}\n", "bad:1: 'features/mixed.feature:4\\u{1B}]0;pwned\\u{7}' is not"),
            (
                "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<testsuites/>\n",
                "bad:2: the XML declares a document type or entities; refused"
            ),
            ("<testsuites>\n<testcase name=\"&lol9;\"><failure/></testcase>\n</testsuites>\n", "bad:2: the entity &lol9; is not XML's own"),
            (
                "<testsuites>\n<testcase name=\"nope\" classname=\"mixed\"><failure/></testcase>\n</testsuites>\n",
                "bad:2: no scenario \"nope\" in feature \"mixed\""
            ),
            (
                "<testsuites><testcase name=\"x\" file=\"features/mixed.feature\" line=\"1e300\"><error/></testcase></testsuites>",
                "bad:1: line=\"1e300\" is not a line number"
            ),
            ("{\"pickle\":\n", "bad:1: not a Messages envelope"),
            ("\u{FF}\u{FE}not text", "bad:1: not UTF-8 text"),
            // Attack 2, m2: the bad byte on line 2 was reported on line 1.
            ("features/mixed.feature:4\n\u{E9}\n", "bad:2: not UTF-8 text"),
        ]
        for (text, problem) in cases {
            try Data(text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }).write(
                to: directory.appendingPathComponent("bad"))
            let result = try CLI.run(["test", "--rerun-failed", "bad", "features/"], cwd: directory)
            #expect(result.status == 2, "\(text): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("--rerun-failed " + problem), "\(text): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    @Test func hugeAndSpecialRerunFilesAreRefused() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = directory.appendingPathComponent("huge")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 65 << 20) // sparse: 65 MiB of NULs
        try handle.close()
        let big = try CLI.run(["test", "--rerun-failed", "huge", "features/"], cwd: directory)
        #expect(big.status == 2 && big.stderr.contains("huge:1: larger than 64 MiB"), "\(big.stderr)")
        for special in ["/dev/zero", directory.path, "missing.txt"] {
            let result = try CLI.run(["test", "--rerun-failed", special, "features/"], cwd: directory)
            #expect(result.status == 2 && result.stderr.contains("--rerun-failed \(special): cannot read the file"), "\(result.stderr)")
        }
    }

    @Test func theRerunFileIsWrittenWithoutFollowingAPlantedLink() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim")
        try "keep\n".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("rerun.txt").path, withDestinationPath: victim.path)
        let result = try CLI.run(["test", "--write-rerun", "rerun.txt", "features/"], cwd: directory)
        #expect(result.status == 2, "refused before anything runs: \(result.stderr)")
        #expect(result.stderr.contains("--write-rerun rerun.txt: cannot write there"), "\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep\n", "the link's target is untouched")
        let full = try CLI.run(["test", "--write-rerun", "/dev/full", "features/"], cwd: directory)
        #expect(full.status == 2 || full.status == 74, "\(full.stderr)")
    }
}
