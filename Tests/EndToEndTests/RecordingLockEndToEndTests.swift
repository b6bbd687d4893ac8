import Foundation
import Testing

/// Two recordings into one root at once (r11 R11-10): both exited 0 and the one that stopped last silently replaced the
/// other's answers; they shared one in-progress marker. A recording now takes a lock on its root before it serves, as
/// `--coverage DIR` does: a second one is a usage error naming the first's pid, and the lock goes with its holder.
@Suite struct RecordingLockEndToEndTests {
    /// While `record --into DIR` runs, every other way to record into DIR (`record`, a run's and `test`'s
    /// `--record-from`, `serve --record-mappings`) is exit 2 naming its pid, before the program launches.
    @Test func aSecondRecordingIntoOneRootIsRefusedNamingTheFirst() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("rec").path
        let backend = "http://127.0.0.1:\(try CLI.freePort())"
        let marker = directory.appendingPathComponent("launched").path
        let feature = try CLI.write("Feature: F\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        var seconds: [([String], CLI.Result)] = []
        let port = try CLI.freePort()
        _ = try CLI.run(["record", "-q", "--port", String(port), "--target", backend, "--into", root]) { first, _ in
            defer { kill(first.processIdentifier, SIGTERM) }
            try #require(CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil })
            for arguments in [
                ["record", "--port", "0", "--target", backend, "--into", root],
                ["--port", "0", "--record-from", backend, "--into", root, "touch", marker],
                ["test", "--record-from", backend, "--into", root, feature],
                ["serve", "--port", "0", "--proxy-all", backend, "--record-mappings", "--root-dir", root],
            ] {
                seconds.append((arguments, try Self.bounded(arguments)))
            }
            for (arguments, result) in seconds {
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("(pid \(first.processIdentifier)) is recording into this directory"), "\(result.stderr)")
            }
        }
        try #require(seconds.count == 4)
        #expect(!FileManager.default.fileExists(atPath: marker), "refused before the program launched")
        // Stopped by its signal, the first let the root go: the next recording is not refused.
        let after = try Self.bounded(["--port", "0", "--record-from", backend, "--into", root, "true"])
        #expect(!after.stderr.contains("is recording into this directory"), "\(after.stderr)")
    }

    /// A recorder killed with SIGKILL leaves its lock file with its pid: the kernel dropped the lock, and the next
    /// recording into the root is not refused.
    @Test func theLockOfAKilledRecorderDoesNotBlock() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("rec").path
        let backend = "http://127.0.0.1:\(try CLI.freePort())"
        let port = try CLI.freePort()
        _ = try CLI.run(["record", "-q", "--port", String(port), "--target", backend, "--into", root]) { first, _ in
            defer { kill(first.processIdentifier, SIGKILL) }
            try #require(CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil })
        }
        #expect(FileManager.default.fileExists(atPath: root + "/.sut-recording.lock"))
        let after = try Self.bounded(["--port", "0", "--record-from", backend, "--into", root, "true"])
        #expect(!after.stderr.contains("is recording into this directory"), "\(after.stderr)")
    }

    /// Runs `arguments`, stopped with SIGTERM when still running after 15 s (a recorder that was not refused).
    private static func bounded(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(arguments) { process, _ in
            if !CLI.eventually(15, { !process.isRunning }) { kill(process.processIdentifier, SIGTERM) }
        }
    }
}
