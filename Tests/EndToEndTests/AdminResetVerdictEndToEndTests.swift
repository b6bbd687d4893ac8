import Foundation
import Testing

/// R4a-20: the program under test drives the admin API (a WireMock client's `reset()` between its own cases), and the
/// run's verdict still reads every call it made. A reset clears what the admin API shows, never what `expect` counts
/// nor what `--journal` writes.
@Suite struct AdminResetVerdictEndToEndTests {
    /// `expect: {"times": 1}` called three times with a reset (each kind) in between: exit 4 naming 3 calls, and the
    /// journal holds the 3 requests (it held 1 after `POST /__admin/reset`, and the run passed).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aResetThroughTheAdminAPIDoesNotEraseTheCallsExpectCounts() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/once","body":"x","expect":{"times":1}}]}"#, "once.json", in: directory)
        let resets = [
            "-X POST $U/__admin/reset", "-X POST $U/__admin/mappings/reset", "-X DELETE $U/__admin/requests",
            "-X POST $U/__admin/requests/reset", "-X DELETE $U/__admin/mappings",
        ]
        for reset in resets {
            let journal = directory.appendingPathComponent("journal.json").path
            let script =
                "U=$SUT_MOCK_SERVER_URL; J='Content-Type: application/json'; curl -s -o /dev/null $U/once; curl -s -o /dev/null $U/once; "
                + "curl -s -o /dev/null -H \"$J\" \(reset); curl -s -o /dev/null -X POST -H \"$J\" $U/__admin/mappings/reset; "
                + "curl -s -o /dev/null $U/once; curl -s $U/__admin/requests | grep -c '\"url\":\"/once\"'"
            // The program is a WireMock client here: its resets are allowed (refused by default, r5c-8).
            let result = try CLI.run(
                ["--strict", "--admin-writes", "allow", "--journal", journal, "--port", "0", "--stub", stubs, "sh", "-c", script])
            #expect(result.status == 4, "\(reset): \(result.stderr)")
            #expect(result.stderr.contains("expected 1 call, got 3"), "\(reset): \(result.stderr)")
            #expect(result.stdout == "1\n", "\(reset): the admin API shows the calls since its reset: \(result.stdout)")
            let written = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(written.components(separatedBy: #""url":"/once""#).count - 1 == 3, "\(reset): \(written)")
            #expect(written.hasPrefix(#"{"total":"#) && result.stderr.contains("mock server: 3 requests"), "\(reset): \(result.stderr)")
        }
    }
}
