import Foundation
import Testing

/// Where reports land (issue 29, docs/threat-model.md "Report writers", class 3). The policy: links in the path the
/// user typed are followed (as git and cargo follow them), but resolved once, before anything launches; a link a
/// program under test plants on that path during the run is not followed; a link at the file's own name, dangling
/// or not, is refused by name; a file hard-linked elsewhere is replaced at this name, the other name keeps its bytes;
/// no directory is created through a dangling link.
@Suite struct OutputPathsEndToEndTests {
    static func contents(_ url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    @Test func aLinkPlantedOnAReportsPathDuringTheRunIsNotFollowed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (reports, outside) = (directory.appendingPathComponent("reports"), directory.appendingPathComponent("outside"))
        for url in [reports, outside] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        // The program swaps reports/ for a link to outside/ while the run goes on.
        let feature = try CLI.write(
            """
            Feature: swap
              Scenario: plants a link
                When I run "sh -c 'mv \(reports.path) \(directory.path)/moved && ln -s \(outside.path) \(reports.path)'"
                Then the exit code is 3

            """, "swap.feature", in: directory)
        let names = ["j.xml", "r.json", "m.ndjson", "h.html", "rerun.txt"]
        let options = ["--junit", "--report", "--messages", "--html", "--write-rerun"]
        let result = try CLI.run(
            ["test", "--run-id", "o:1"] + zip(options, names).flatMap { [$0, "reports/" + $1] } + [feature], cwd: directory)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(Self.contents(outside).isEmpty, "written through the planted link: \(Self.contents(outside))")
        #expect(Self.contents(directory.appendingPathComponent("moved")) == names.sorted(), "the directory opened before the run")
    }

    @Test func linksTheUserTypedAreFollowedButNotAtTheFilesName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("out/link").path, withDestinationPath: elsewhere.path)
        // A directory link the user typed: followed, as git and cargo do.
        let typed = try CLI.run(["test", "--html", "out/link/r.html", "--messages", "out/link/m.ndjson", feature], cwd: directory)
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(Self.contents(elsewhere) == ["m.ndjson", "r.html"])
        // A link at the name, dangling or not, for test and for report: a one-line usage error naming it, nothing created.
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("dangling.xml").path,
            withDestinationPath: elsewhere.appendingPathComponent("new.xml").path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("linked.html").path,
            withDestinationPath: elsewhere.appendingPathComponent("r.html").path)
        for (arguments, named) in [
            (["test", "--junit", "dangling.xml", feature], "dangling.xml"),
            (["report", "--junit", "dangling.xml", "out/link/m.ndjson"], "dangling.xml"),
            (["report", "--html", "linked.html", "out/link/m.ndjson"], "linked.html"),
        ] {
            let refused = try CLI.run(arguments, cwd: directory)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(
                refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains(named)
                    && refused.stderr.contains("symbolic link"))
        }
        #expect(Self.contents(elsewhere) == ["m.ndjson", "r.html"], "nothing created through the dangling link")
        // A report hard-linked to another file: replaced at its name; the other name keeps its bytes.
        try "keep me\n".write(to: directory.appendingPathComponent("other.txt"), atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(
            at: directory.appendingPathComponent("other.txt"), to: directory.appendingPathComponent("hard.xml"))
        let hard = try CLI.run(["report", "--junit", "hard.xml", "out/link/m.ndjson"], cwd: directory)
        #expect(hard.status == 0, "\(hard.stderr)")
        #expect(try String(contentsOf: directory.appendingPathComponent("other.txt"), encoding: .utf8) == "keep me\n")
        #expect(try String(contentsOf: directory.appendingPathComponent("hard.xml"), encoding: .utf8).hasPrefix("<?xml"))
    }

    /// A report name over 255 bytes: a usage error before anything runs, not exit 74 after the whole suite ran.
    @Test func aNameTooLongIsAUsageErrorBeforeAnythingRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"touch ran\"\n", "f.feature", in: directory)
        let long = String(repeating: "a", count: 300) + ".xml"
        for arguments in [["test", "--messages", "m.ndjson", "--junit", long, feature], ["test", "--report", long, feature]] {
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 2 && result.stderr.contains("at most 255"), "\(result.stderr)")
            // Nothing ran; `--messages` holds the placeholder of a run that did not finish (R9C-4), never a run.
            #expect(Self.contents(directory).filter { $0 != "m.ndjson" } == ["f.feature"], "nothing ran, nothing else written")
            let messages = (try? String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8)) ?? ""
            #expect(messages.isEmpty || messages.contains(#""success":false"#), "\(messages)")
        }
        _ = try CLI.run(["test", "--messages", "m.ndjson", feature], cwd: directory)
        let report = try CLI.run(["report", "--html", long, "m.ndjson"], cwd: directory)
        #expect(report.status == 2 && report.stderr.contains("at most 255"), "\(report.stderr)")
    }

    @Test func noDirectoryIsCreatedThroughADanglingLink() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"false\"\n", "f.feature", in: directory)
        let target = directory.appendingPathComponent("target")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("arts").path, withDestinationPath: target.path)
        let result = try CLI.run(["test", "--artifacts", "arts", feature], cwd: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("arts") && result.stderr.contains("symbolic link"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// M1: `--report a.json --report b.json` was a usage error that wrote no report at all, though a report is written
    /// for every usage error: each report asked for now carries the error (exit 2, naming both), for runs and `test`.
    @Test func aReportGivenTwiceIsAUsageErrorWrittenToEach() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.json").path
        let second = directory.appendingPathComponent("b.json").path
        let runs = [["--report", first, "--report", second, "true"], ["test", "--report", first, "--report", second, directory.path]]
        for arguments in runs {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("--report is given twice: --report \(first) (argument"), "\(result.stderr)")
            for path in [first, second] {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
                #expect(json?["exitCode"] as? Int == 2 && (json?["error"] as? String)?.contains("given twice") == true, "\(path)")
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// R10C-14: `--report /dev/tty` with no controlling terminal was found only when the report was written, after the
    /// program had run (its side effects done), exit 74. The device is opened when the outputs are checked: exit 2,
    /// nothing launched.
    @Test func aDeviceThatCannotBeOpenedIsRefusedBeforeTheLaunch() throws {
        let output = try CLI.output(of: [
            "setsid", "sh", "-c", #""$0" -q --report /dev/tty sh -c 'echo LAUNCHED' </dev/null 2>&1; echo "status $?""#, CLI.sutLaunch,
        ])
        #expect(output.contains("status 2") && !output.contains("LAUNCHED"), "\(output)")
        #expect(output.contains("/dev/tty") && output.contains("no such device or address"), "\(output)")
    }

    /// R10B-9: a feature or scenario named `.env loading` made a hidden directory under `--artifacts`, which `ls` and a
    /// CI's upload (upload-artifact skips hidden files by default) leave out.
    @Test func artefactsOfADotNamedFeatureAreNotHidden() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            "Feature: .env loading\n  Scenario: .hidden scenario\n    When I run \"false\"\n    Then the exit code is 0\n", "f/x.feature",
            in: directory)
        let result = try CLI.run(["test", "--artifacts", "art", "f"], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let art = directory.appendingPathComponent("art")
        let features = try FileManager.default.contentsOfDirectory(atPath: art.path)
        #expect(features.count == 1 && features.allSatisfy { $0.hasPrefix("_env loading-") }, "\(features)")
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: art.appendingPathComponent(features[0]).path)
        #expect(scenarios.count == 1 && scenarios.allSatisfy { $0.hasPrefix("_hidden scenario line 2-") }, "\(scenarios)")
    }
}
