import AutomationTesting
import Foundation
import Testing

/// Finding r5c-2's neighbour: `SUTApplication` stops what its program started that left the program's group and
/// session (`setsid`) when the program is terminated, found by the launch's token (SUT_LAUNCH_ID), although this
/// test's process is no subreaper (the orphan lives under init meanwhile).
@Suite struct EscapedDescendantsTests {
    @Test func terminateStopsADescendantThatLeftTheSession() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("escaped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pid").path
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: [
            "-c",
            #"setsid sh -c 'echo $$ > "$0"; exec sleep 3600' "$0" </dev/null >/dev/null 2>&1 & while [ ! -s "$0" ]; do sleep 0.01; done; echo ready; exec sleep 3600"#,
            pidFile,
        ])
        try await app.waitForOutput(containing: "ready")
        let pid = Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if pid > 0 { kill(pid, SIGKILL) } }
        #expect(pid > 0 && kill(pid, 0) == 0)
        app.terminate(grace: .seconds(1))
        #expect(pid > 0 && !Self.isAlive(pid), "the setsid descendant \(pid) outlived terminate()")
    }

    /// Not ended (a zombie waiting for init to reap it is ended).
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
