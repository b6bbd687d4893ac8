import Foundation
import Testing

/// `sut-launch report` on hostile Messages files, with the built binary: a line far past the per-line limit is
/// refused as soon as it passes the limit (read block by block, never held whole), and a key given twice is named by
/// the file's line and the column of each key.
@Suite struct MessagesInputEndToEndTests {
    /// A 200 MiB line (a sparse file of NUL bytes, after one short line): exit 3 naming file:line and the limit, and
    /// the process never held the line (its peak memory, read by python3 from the kernel's accounting of the
    /// finished child, stays far below the 200 MiB a whole read takes).
    @Test func aHugeLineIsRefusedAsSoonAsItPassesTheLimit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.ndjson").path
        _ = try CLI.write("{\"meta\":{}}\n", "huge.ndjson", in: directory)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 12 + (200 << 20)) // sparse: no disk used
        try handle.close()
        try #require(CLI.hasCommand("python3"), "python3 measures the child's peak memory")
        let script = """
            import resource, subprocess, sys
            result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
            sys.stdout.write("%d %d\\n%s" % (result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, result.stderr.decode()))
            """
        let output = try CLI.output(of: ["python3", "-c", script, CLI.sutLaunch, "report", "--junit", directory.path + "/j.xml", path])
        let lines = output.split(separator: "\n", maxSplits: 1).map(String.init)
        let figures = lines[0].split(separator: " ").compactMap { Int($0) }
        #expect(figures.first == 3, "\(output)")
        #expect(lines.last?.contains("report: \(path):2: a line longer than the limit of 67108864 bytes") == true, "\(output)")
        let peakMiB = (figures.last ?? 0) >> 10
        #expect(peakMiB < 150, "report held \(peakMiB) MiB reading a 200 MiB line")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/j.xml"))
    }

    /// A key given twice in a line of a real run's Messages: the file's line, the column of the second key and of
    /// the first (bytes from 1), not "line 1" of the value.
    @Test func aDuplicateKeyIsNamedByTheFilesLineAndTheKeysColumns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        _ = try CLI.run(["test", "--messages", "m.ndjson", feature], cwd: directory)
        var lines = try String(contentsOf: directory.appendingPathComponent("m.ndjson"), encoding: .utf8).split(separator: "\n")
        lines[2] = "{\"x\":1,\"x\":2," + lines[2].dropFirst()
        _ = try CLI.write(lines.joined(separator: "\n") + "\n", "dup.ndjson", in: directory)
        let result = try CLI.run(["report", "--junit", "j.xml", "dup.ndjson"], cwd: directory)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("report: dup.ndjson:3:8: not JSON: duplicate key \"x\" (first at column 2)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
