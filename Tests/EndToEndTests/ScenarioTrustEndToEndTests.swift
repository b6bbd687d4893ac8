import Foundation
import Testing

/// Issue 24 on the scenario runner: no step passes on output it did not see, no wait cut short passes, a
/// scenario that reaches its timeout fails, in the console and every report.
@Suite struct ScenarioTrustEndToEndTests {
    /// A script printing 17 MB (past the 16 MiB memory capture), then FATAL and DONE.
    static let bigOutput = """
      Background:
        Given a file "big.py" with:
          \"\"\"
          import sys
          line = "x" * 99 + "\\n"
          sys.stdout.write(line * 180000)
          sys.stdout.write("FATAL\\r\\nDONE\\r\\n")
          \"\"\"

    """

    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
    func outputPastTheMemoryCaptureIsSeenByEveryOutputStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: big\n" + Self.bigOutput + """
          Scenario: not seeing FATAL fails
            When I run "python3 big.py"
            Then I do not see "FATAL"

          Scenario: DONE is seen
            When I run "python3 big.py"
            Then I see "DONE"
            And I see a line matching "^DONE$"
            And I do not see "NEVER PRINTED"

          Scenario: the screen follows past the capture
            Given the program "/usr/bin/python3"
            And the program runs in a terminal of 40x5
            When I launch the program with "big.py"
            Then the screen shows "DONE" within 60s

        """, "big.feature", in: directory)
        let report = directory.appendingPathComponent("report.json")
        let result = try CLI.run(["test", "--report", report.path, feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 2 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("big.feature:12: Then I do not see \"FATAL\"\n    \"FATAL\" appeared on stdout"), "\(result.stdout)")
    }

    @Test func aWaitCutShortByTheScenarioTimeoutFailsNamingBoth() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("""
        Feature: cut
          @timeout=1s
          Scenario: watching past the scenario's end
            Given the program "/bin/sleep"
            When I launch the program with "10"
            Then I do not see "crash" within 5s

          @timeout=1s
          Scenario: waiting past the scenario's end
            When I wait 3s

          @timeout=1s
          Scenario: finishing past the scenario's end
            Given the program "/bin/sleep"
            When I launch the program with "10"
            Then the program finishes within 5s

        """, "cut.feature", in: directory)
        let junit = directory.appendingPathComponent("junit.xml"), report = directory.appendingPathComponent("report.json")
        let messages = directory.appendingPathComponent("messages.ndjson")
        let started = Date()
        let result = try CLI.run(["test", "--junit", junit.path, "--report", report.path, "--messages", messages.path, feature])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 0 passed, 3 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("\"crash\" was watched for on stdout only until the scenario's 1s timeout (the step asked for 5s)"), "\(result.stdout)")
        #expect(result.stdout.contains("the wait was cut short by the scenario's 1s timeout (the step asked for 3s)"), "\(result.stdout)")
        #expect(result.stdout.contains("the wait was cut short by the scenario's 1s timeout (the step asked for 5s)"), "\(result.stdout)")
        #expect(result.stdout.contains("timed out)"), "\(result.stdout)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "type=\"Timeout\"").count == 4, "\(xml)")
        let json = try String(contentsOf: report, encoding: .utf8)
        #expect(json.components(separatedBy: "\"timedOut\":true").count == 4, "\(json)")
        let ndjson = try String(contentsOf: messages, encoding: .utf8)
        #expect(!ndjson.contains("\"testRunFinished\":{\"success\":true"), "\(ndjson)")
        #expect(ndjson.components(separatedBy: "\"status\":\"FAILED\"").count == 4, "\(ndjson)")
    }
}
