import AutomationTesting
import Foundation
import ProcessEngine
import Scenarios
import Testing

/// Any program from a Swift test, as the scenario steps drive it: commands, signals, a scratch space with
/// its own HOME, snapshots and file assertions (issue 13).
@Suite(.automationScope) struct CommandTests {
    @Test func aCommandRunsInTheTestsScratchSpaceWithItsOwnHome() throws {
        let scratch = try #require(try AutomationScope.current?.scratch)
        try "pear\napple\nfig\n".write(toFile: scratch.path("in.txt"), atomically: true, encoding: .utf8)
        let sorted = try SUTApplication.run("sort in.txt")
        #expect(sorted.exitCode == 0)
        #expect(sorted.stdout == "apple\nfig\npear\n")
        assertSnapshot(of: sorted.stdout, named: "sorted")
        let home = try SUTApplication.run("sh -c 'echo $HOME; echo $TMPDIR; touch made-here'")
        #expect(home.stdout == "\(scratch.environment["HOME"]!)\n\(scratch.environment["TMPDIR"]!)\n")
        #expect(!home.stdout.contains(ProcessInfo.processInfo.environment["HOME"] ?? "\u{0}"))
        assertFile("made-here")
        let failing = try SUTApplication.run("ls no-such-file")
        #expect(failing.exitCode == 2 && failing.stderr.contains("no-such-file"))
        #expect { try SUTApplication.run("echo 'open") } throws: { "\($0)".contains("unterminated") }
    }

    @Test func aSignalReachesTheProgramsGroup() async throws {
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "trap 'echo got INT; exit 3' INT; echo ready; while true; do sleep 0.1; done"])
        try await app.waitForOutput(containing: "ready")
        try app.signal("INT")
        try await app.waitForOutput(containing: "got INT")
        #expect(try await app.exitCode == 3)
        #expect { try app.signal("BOOM") } throws: { "\($0)".contains("unknown signal") }
    }

    @Test func snapshotMismatchesAndMissingSnapshotsAreIssues() throws {
        withKnownIssue {
            assertSnapshot(of: "not what was stored\n", named: "sorted")
        } matching: {
            $0.comments.description.contains("-apple") || "\($0)".contains("differs")
        }
        withKnownIssue {
            assertSnapshot(of: "x\n", named: "never-recorded")
        } matching: {
            "\($0)".contains("no snapshot")
        }
        withKnownIssue {
            assertSnapshot(of: "x\n", named: "a/b")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent("__snapshots__/CommandTests.swift/never-recorded.txt").path))
    }
}
