import Foundation
import Testing

/// Usage errors and the reports named on the same command line: an earlier run's passing report must never stand
/// as this run's.
@Suite struct UsageErrorReportsEndToEndTests {
    /// R8C-5: an unknown option followed by a word (`--timout 5s`, `--flg a=1`, `--stubs st.json`) ended the options at
    /// the word, so a `--report` after it was never read: exit 2 with the first run's passing report left in place.
    @Test func anUnknownOptionWithAWordAfterItStillWritesTheReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        for mistake in [["--timout", "5s"], ["--flg", "a=1"], ["--stubs", "st.json"], ["--bogus", "a=1"]] {
            let passed = try CLI.run(["-q", "--report", report, "true"])
            #expect(passed.status == 0, "\(passed.stderr)")
            let result = try CLI.run(mistake + ["--report", report, "sh", "-c", "exit 1"])
            #expect(result.status == 2 && result.stderr.contains("unknown option '\(mistake[0])'"), "\(mistake): \(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(json?["exitCode"] as? Int == 2, "\(mistake): \(String(describing: json))")
            #expect(json?["launched"] as? Bool == false, "\(mistake): \(String(describing: json))")
        }
    }

    /// R8C-5: `test --bogus --junit j.xml` rewrote `--report` but left an earlier run's passing JUnit
    /// (`tests="0" failures="0" errors="0"`) for a CI publisher to show. The JUnit now holds the usage error.
    @Test func aUsageErrorOfTestRewritesTheJUnitToo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "a.feature", in: directory)
        let junit = directory.appendingPathComponent("j.xml").path
        let report = directory.appendingPathComponent("r.json").path
        let passed = try CLI.run(["test", "--junit", junit, feature])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        for mistake in [["--bogus"], ["--tgas", "@x"]] {
            let result = try CLI.run(["test"] + mistake + ["--junit", junit, "--report", report, feature])
            #expect(result.status == 2, "\(mistake): \(result.stderr)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains("errors=\"1\"") && xml.contains("unknown option"), "\(mistake): \(xml)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(json?["exitCode"] as? Int == 2, "\(mistake): \(String(describing: json))")
        }
    }
}
