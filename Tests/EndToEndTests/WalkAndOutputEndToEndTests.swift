import Foundation
import Testing

/// Hostile classes 3 and 8 on directory walks, artefact names and the reports and journals the user names:
/// link loops, long and odd names, `/dev/full`, links at a report's name (issue 24).
@Suite struct WalkAndOutputEndToEndTests {
    private let passing = """
        Feature: loop
          Scenario: once
            When I run "true"
            Then the exit code is 0
        """

    /// Ends a run still going after `seconds` (an exponential walk would never end): the test then fails.
    private func deadline(_ seconds: Double) -> (Process, URL) throws -> Void {
        { process, _ in
            let end = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < end { usleep(50_000) }
            if process.isRunning { process.terminate() }
        }
    }

    @Test func aFeaturesDirectoryWithLinksBackToItselfIsWalkedOnce() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let features = directory.appendingPathComponent("features")
        _ = try CLI.write(passing, "features/a.feature", in: directory)
        try FileManager.default.createSymbolicLink(atPath: features.appendingPathComponent("self1").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(
            atPath: features.appendingPathComponent("self2").path, withDestinationPath: features.path)
        try FileManager.default.createSymbolicLink(
            atPath: features.appendingPathComponent("dangling").path, withDestinationPath: "/nonexistent/x")
        let started = Date()
        let list = try CLI.run(["test", "--list", features.path], whileRunning: deadline(10))
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(list.status == 0, "\(list.stdout)\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").filter { $0.contains("once") }.count == 1, "\(list.stdout)")
        let run = try CLI.run(["test", features.path], whileRunning: deadline(20))
        #expect(run.status == 0 && run.stdout.contains("1 scenario: 1 passed"), "\(run.stdout)")
        let check = try CLI.run(["check", features.path], whileRunning: deadline(10))
        #expect(check.status == 0 && check.stdout.contains("1 scenario"), "\(check.stdout)\(check.stderr)")
    }

    @Test func aLongCJKScenarioNameAndOddNamesKeepTheirArtefactsApart() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cjk = String(repeating: "漢字テスト", count: 18) // 90 characters, 270 bytes
        let failing = { (feature: String, names: [String]) in
            "Feature: \(feature)\n"
                + names.map { "  Scenario: \($0)\n    When I run \"echo \($0.count)\"\n    Then the exit code is 1\n" }.joined()
        }
        let first = try CLI.write(failing("Same", [cjk, cjk + "x", "a/../b", "Login"]), "one/x.feature", in: directory)
        let second = try CLI.write(failing("Same", ["login", "..", "Login"]), "two/x.feature", in: directory)
        let artifacts = directory.appendingPathComponent("artefacts")
        let result = try CLI.run(["test", "--artifacts", artifacts.path, first, second])
        #expect(result.status == 1)
        let featureDirectories = try FileManager.default.contentsOfDirectory(atPath: artifacts.path)
        #expect(featureDirectories.count == 2 && featureDirectories.allSatisfy { $0.hasPrefix("Same-") }, "\(featureDirectories)")
        var outputs: [String] = []
        for feature in featureDirectories {
            for scenario in try FileManager.default.contentsOfDirectory(atPath: artifacts.appendingPathComponent(feature).path) {
                #expect(scenario.utf8.count <= 255 && !scenario.contains("/"))
                let stdout = artifacts.appendingPathComponent(feature).appendingPathComponent(scenario).appendingPathComponent(
                    "01-stdout.txt")
                outputs.append(try String(contentsOf: stdout, encoding: .utf8))
            }
        }
        #expect(outputs.sorted() == ["2\n", "5\n", "5\n", "5\n", "6\n", "90\n", "91\n"], "\(outputs)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b").path))
    }

    @Test func aReportThatCannotBeWrittenExits74AndLeavesNothingHalfWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(passing, "a.feature", in: directory)
        let full = try CLI.run(["test", "--junit", "/dev/full", feature])
        #expect(full.status == 74, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr.split(separator: "\n").filter { $0.contains("--junit /dev/full") }.count == 1, "\(full.stderr)")
        #expect(try CLI.run(["test", "--report", "/dev/null", feature]).status == 0)

        // No temporary file is left beside a report that was written, and a hard link to the old one keeps it.
        let report = directory.appendingPathComponent("out/report.json")
        _ = try CLI.write("old\n", "out/report.json", in: directory)
        try FileManager.default.linkItem(atPath: report.path, toPath: directory.appendingPathComponent("out/other.json").path)
        #expect(try CLI.run(["test", "--report", report.path, feature]).status == 0)
        #expect(try String(contentsOf: report, encoding: .utf8).contains("\"exitCode\""))
        #expect(try String(contentsOf: directory.appendingPathComponent("out/other.json"), encoding: .utf8) == "old\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).sorted() == [
                "other.json", "report.json",
            ])
    }

    @Test func aLinkAtAReportsOrJournalsNameIsRefusedBeforeAnythingRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(passing, "a.feature", in: directory)
        let target = try CLI.write("precious\n", "outside/precious.txt", in: directory)
        let link = directory.appendingPathComponent("report.xml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let test = try CLI.run(["test", "--junit", link, feature])
        #expect(test.status == 2 && test.stderr.contains("is a symbolic link"), "\(test.stderr)")
        let run = try CLI.run(["--report", link, "true"])
        #expect(run.status == 2 && run.stderr.contains("is a symbolic link"), "\(run.stderr)")
        let serve = try CLI.run(["serve", "--journal", link, "--port", "0"], whileRunning: deadline(5)) // old code: serve ran on
        #expect(serve.status == 2 && serve.stderr.contains("is a symbolic link"), "\(serve.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    }
}
