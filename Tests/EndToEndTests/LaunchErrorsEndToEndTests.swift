import Foundation
import Testing

/// Why a program could not be launched, said as it is (M3, M6): a path that cannot be followed is not "no such
/// file", and an argument list too long names what helps.
@Suite struct LaunchErrorsEndToEndTests {
    /// M3: `./loop/prog` (loop, a symlink to itself) and `./file/prog` (file, a regular file) were "no such file"
    /// (exit 127); they are what bash and env say, exit 126 as theirs.
    @Test func aPathThatCannotBeFollowedSaysWhy() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("loop").path, withDestinationPath: "loop")
        _ = try CLI.write("", "file", in: directory)
        let loop = try CLI.run(["./loop/prog"], cwd: directory)
        #expect(loop.status == 126, "\(loop.stderr)")
        #expect(loop.stderr.contains("./loop/prog: too many levels of symbolic links"), "\(loop.stderr)")
        #expect(!loop.stderr.contains("no such file"), "\(loop.stderr)")
        let file = try CLI.run(["./file/prog"], cwd: directory)
        #expect(file.status == 126, "\(file.stderr)")
        #expect(file.stderr.contains("./file/prog: not a directory (a component of its path is a file"), "\(file.stderr)")
        let missing = try CLI.run(["./missing/prog"], cwd: directory)
        #expect(missing.status == 127 && missing.stderr.contains("./missing/prog: no such file"), "\(missing.stderr)")
    }

    /// M6: flags larger than one argument may hold (E2BIG) named no remedy that works: `--flags-in` does not lift the
    /// per-argument cap, a file does; flags too many in all for both channels can travel once.
    @Test func anArgumentListTooLongNamesWhatHelps() throws {
        // Two flags of 70,000 bytes: each reaches sut-launch, their JSON object (one argument) is over the cap.
        let half = String(repeating: "a", count: 70_000)
        let single = try CLI.run(["-f", "a=\(half)", "-f", "b=\(half)", "true"])
        #expect(single.status == 125, "\(single.stderr)")
        #expect(single.stderr.contains("the flags travel as one JSON text (EPHEMERAL_"), "\(single.stderr)")
        #expect(single.stderr.contains("send its path as a flag"), "\(single.stderr)")
        // Under the cap each, over the system's limit in all because they travel twice: --flags-in env sends them once.
        let limit = sysconf(Int32(_SC_ARG_MAX))
        guard limit > 1 << 20 && limit <= 8 << 20 else { return } // an unusual stack limit: the first half stands
        let flag = String(repeating: "b", count: 120_000)
        let room = limit - 180_000
        let fill =
            (0..<(room / 100_000)).map { _ in String(repeating: "c", count: 100_000) } + [String(repeating: "d", count: room % 100_000)]
        let twice = try CLI.run(["-f", "a=\(flag)", "true"] + fill)
        #expect(twice.status == 125, "\(twice.stderr)")
        #expect(twice.stderr.contains("--flags-in env (or args) sends them once"), "\(twice.stderr)")
        let once = try CLI.run(["--flags-in", "env", "-f", "a=\(flag)", "true"] + fill)
        #expect(once.status == 0, "\(once.stderr)")
    }
}
