import Foundation
import Testing

/// The outside attack on `init` (findings 4, 5, 9, 13), replayed against the built binary in a scratch directory.
@Suite struct InitAttackEndToEndTests {
    static func scratch() throws -> URL { try CLI.temporaryDirectory() }

    /// A program at `bin/name` in `directory`: a shell script with `body`.
    static func program(_ name: String, _ body: String, in directory: URL) throws -> String {
        let path = try CLI.write("#!/bin/sh\n\(body)\n", "bin/\(name)", in: directory)
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// Finding 4: `--program ./bin/app` is named from features/ (it resolves there at test time), in DIR or in
    /// sub/dir; the CI files of `init sub/dir` run sub/dir/features, as `next:` says.
    @Test func aRelativeProgramAndASubdirectoryPassAsWritten() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.program("app", "cat >/dev/null; exit 0", in: directory)
        for target in [".", "sub/dir"] {
            let made = try CIRecipesEndToEndTests.shell("sut-launch init --program ./bin/app \(target)", in: directory)
            #expect(made.status == 0, "\(made.stderr)")
            let features = target == "." ? "features" : "\(target)/features"
            #expect(made.stdout.contains("next: sut-launch test \(features)\n"), "\(made.stdout)")
            let run = try CIRecipesEndToEndTests.shell("sut-launch test \(features)", in: directory)
            #expect(run.status == 0 && run.stdout.contains("3 scenarios: 3 passed"), "\(target): \(run.stdout)\(run.stderr)")
            let workflow = try String(contentsOfFile: directory.path + "/\(target)/ci/github-actions.yml", encoding: .utf8)
            let pipeline = try String(contentsOfFile: directory.path + "/\(target)/ci/gitlab-ci.yml", encoding: .utf8)
            #expect(workflow.contains(".ndjson \(features)\n") && pipeline.contains(".ndjson \(features)\n"), "\(workflow)")
        }
    }

    /// Finding 4: a program name that is not UTF-8 is refused by name, nothing written.
    @Test func aProgramNameThatIsNotUTF8IsRefused() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try CIRecipesEndToEndTests.shell("sut-launch init --program \"$(printf 'a\\377b')\" d", in: directory)
        #expect(made.status == 2 && made.stderr.contains("UTF-8"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/d"))
    }

    /// Finding 5: the starter checks the exit status: a program that fails or crashes fails it.
    @Test(arguments: ["exit 1", "kill -SEGV $$"])
    func aFailingOrCrashingProgramFailsTheStarter(body: String) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = try Self.program("bad", body, in: directory)
        #expect(try CLI.run(["init", "--program", program, directory.path + "/s"]).status == 0)
        let run = try CLI.run(["test", directory.path + "/s/features"])
        #expect(run.status == 1 && !run.stdout.contains("3 passed"), "\(run.stdout)")
        let falsy = try CLI.run(["init", "--program", "false", directory.path + "/f"])
        #expect(falsy.status == 0)
        #expect(try CLI.run(["test", directory.path + "/f/features"]).status == 1)
    }

    /// Finding 9: DIR is printed with its control characters escaped, `next:` is one shell word a user can paste
    /// (run here by sh, it passes), and an empty DIR is refused.
    @Test(arguments: ["esc\u{1B}]0;TITLE\u{07}\nnext", "my dir", "--weird", "it's $(id)"])
    func directoriesArePrintedEscapedAndQuoted(name: String) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try CLI.run(["init", "--", name], cwd: directory)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!made.stdout.contains("\u{1B}") && !made.stdout.contains("\u{07}"), "\(made.stdout)")
        // Four `wrote` lines, the note that the CI files run `features` (DIR is no plain word), `next:`.
        #expect(made.stdout.split(separator: "\n").count == 6, "\(made.stdout)")
        let next = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        #expect(next.hasPrefix("next: "))
        if !name.contains("\u{1B}") {
            let run = try CIRecipesEndToEndTests.shell(String(next.dropFirst("next: ".count)), in: directory)
            #expect(run.status == 0 && run.stdout.contains("3 scenarios: 3 passed"), "\(next): \(run.stdout)\(run.stderr)")
        }
        let empty = try CLI.run(["init", ""], cwd: directory)
        #expect(empty.status == 2 && empty.stderr.contains("DIR is empty"), "\(empty.stderr)")
    }

    /// Finding 13: a link inside DIR is named as a link (not "pass --force"), refused with --force too; a link on
    /// the way to a DIR that init would create is refused naming it, nothing written outside.
    @Test func linksAreNamedAndNeverWrittenThrough() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("s1"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/s1/features", withDestinationPath: "../outside")
        for force in [[], ["--force"]] {
            let made = try CLI.run(["init"] + force + ["s1"], cwd: directory)
            #expect(
                made.status == 2 && made.stderr.contains("s1/features (a symbolic link)") && !made.stderr.contains("pass --force"),
                "\(made.stderr)")
        }
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/lk", withDestinationPath: "outside")
        let through = try CLI.run(["init", "lk/b/c"], cwd: directory)
        #expect(through.status == 2 && through.stderr.contains("lk (a symbolic link"), "\(through.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    /// R9D-15: a `--program` that cannot start (missing, not executable, a directory, not in PATH) was taken, and the
    /// starter then failed as written (127 or 126 in every launch): a usage error naming why, nothing written.
    @Test func aProgramThatCannotStartIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("adir"), withIntermediateDirectories: true)
        _ = try CLI.write("not a program\n", "plain.txt", in: directory)
        for (program, said) in [
            ("./does-not-exist", "no such file"), ("./plain.txt", "not executable"), ("adir", "command not found"),
            ("./adir", "is a directory"), ("sh -c", "command not found"),
        ] {
            let result = try CLI.run(["init", "--program", program, "s"], cwd: directory)
            #expect(result.status == 2 && result.stderr.contains(said), "\(program): \(result.stderr)")
            #expect(result.stderr.contains("the starter would fail as written"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("s").path))
        }
    }

    /// R9D-16: a DIR past PATH_MAX was made (one component at a time) and its `next:` command then said "no such
    /// feature file": init refuses it, and `test`/`check` of such a path name its length, not a missing file.
    @Test func aDirectoryTooLongToOpenIsRefusedAndNamedByItsLength() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = Array(repeating: String(repeating: "d", count: 200), count: 25).joined(separator: "/")
        let made = try CLI.run(["init", deep], cwd: directory)
        #expect(made.status == 2 && made.stderr.contains("choose a shorter DIR"), "\(made.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(String(repeating: "d", count: 200)).path))
        for command in ["test", "check"] {
            let result = try CLI.run([command, deep + "/features"], cwd: directory)
            #expect(result.status == 2 && result.stderr.contains("5033 bytes, more than the 4095"), "\(result.stderr)")
        }
    }

    /// R10B-7: the length check counted the files init writes, not the path its feature opens for its stubs
    /// (`DIR/features/../stubs/example.json`, 6 bytes longer): a DIR of 4,065 to 4,070 bytes was accepted, and the
    /// starter failed as written (check exit 3, "file name too long"). The longest DIR accepted now passes `check`.
    @Test func theLongestDirectoryAcceptedMakesAStarterThatPasses() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let of = { (length: Int) -> String in
            var path = String(Array(repeating: String(repeating: "d", count: 200) + "/", count: 25).joined().prefix(length))
            if path.hasSuffix("/") { path = String(path.dropLast()) + "d" }
            return path
        }
        let refused = try CLI.run(["init", of(4065)], cwd: directory)
        #expect(refused.status == 2 && refused.stderr.contains("choose a shorter DIR"), "\(refused.stderr)")
        let accepted = try CLI.run(["init", of(4064)], cwd: directory)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let checked = try CLI.run(["check", of(4064) + "/features"], cwd: directory)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }
}
