import Foundation
import Testing

/// A FIFO or a device named where sut-launch reads a file hung in open() forever, deaf to SIGTERM
/// (`--env-file FIFO`, `--flags-file`, `--stub`, feature files). Every read opens without blocking and refuses
/// what is not a regular file by name, at once, with the documented exit code.
@Suite struct SpecialFilesEndToEndTests {
    static let cases: [([String], Int32, String)] = [
        (["--env-file", "fifo", "true"], 2, "--env-file fifo: cannot read the file (a FIFO, not a file)"),
        (["--flags-file", "fifo", "true"], 2, "--flags-file fifo: cannot read the file (a FIFO, not a file)"),
        // One rule for every option naming an input file: unusable is exit 2 naming the option (exit 3 is content).
        (["--stub", "fifo", "true"], 2, "--stub fifo: cannot read the file (a FIFO, not a file)"),
        (["--stub", "/dev/null", "true"], 2, "--stub /dev/null: cannot read the file (a character device, not a file)"),
        (["test", "fifo"], 2, "fifo: a FIFO, not a file"),
        (["test", "--steps", "fifo", "f.feature"], 2, "--steps fifo: a FIFO, not a file"),
        (
            ["test", "--shard", "1/2", "--shard-timings", "fifo", "f.feature"], 2,
            "--shard-timings fifo: cannot read the file (a FIFO, not a file)"
        ),
        (["check", "fifo"], 3, "fifo: cannot read the file (a FIFO, not a file)"),
        (["serve", "--port", "0", "fifo"], 2, "stub file fifo: cannot read the file (a FIFO, not a file)"),
        (["--env-file", "/dev/zero", "true"], 2, "--env-file /dev/zero: cannot read the file (a character device, not a file)"),
    ]

    @Test(arguments: cases)
    func aFIFOOrADeviceIsRefusedAtOnce(arguments: [String], status: Int32, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("fifo").path, 0o600) == 0)
        _ = try CLI.write(
            "Feature: f\n  Scenario: s\n    Given the program \"true\"\n    When I launch the program\n", "f.feature", in: directory)
        let started = ContinuousClock.now
        let result = try CLI.run(arguments, cwd: directory) { process, _ in
            // The old code hung in open(): do not let it hold the suite.
            if !CLI.eventually(10, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        #expect(ContinuousClock.now - started < .seconds(1), "\(arguments) took \(ContinuousClock.now - started)")
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
