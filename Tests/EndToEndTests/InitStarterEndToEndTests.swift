import Foundation
import Testing

/// Issue 30: `init --program PROGRAM` writes a starter that passes as written against that program, MyAppCLI
/// included (its routes answer what MyAppCLI calls), and never writes through a link or over a file without --force.
@Suite struct InitStarterEndToEndTests {
    /// A copy of /bin/sh in a directory whose name, and its own, hold spaces and both quotes (class 4: the name lands
    /// in Gherkin, in a quoted step value and in a shell word).
    static func oddlyNamedProgram(in directory: URL) throws -> String {
        let folder = directory.appendingPathComponent("my \"odd\" dir's")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent("run \"it\" now's \\ #@ ${x").path
        // /bin/sh is often a relative link (to dash): copy what it names.
        try FileManager.default.copyItem(atPath: URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path, toPath: program)
        return program
    }

    @Test(arguments: ["MyAppCLI", "sh", "odd"])
    func theStarterPassesAsWritten(program: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path =
            switch program {
            case "MyAppCLI": CLI.myApp
            case "odd": try Self.oddlyNamedProgram(in: directory)
            default: program
            }
        let project = directory.appendingPathComponent("starter").path
        let made = try CLI.run(["init", "--program", path, project])
        if path.contains("${") {
            // `${` would expand at test time: refused by name, nothing written.
            #expect(made.status == 2 && made.stderr.contains("${"), "\(made.stderr)")
            #expect(!FileManager.default.fileExists(atPath: project))
            let plain = path.replacingOccurrences(of: " ${x", with: "")
            try FileManager.default.moveItem(atPath: path, toPath: plain)
            return try check(program: plain, project: project)
        }
        #expect(made.status == 0, "\(made.stderr)")
        try check(program: path, project: project)
    }

    /// `test` on the starter passes, every scenario ran, and `check` accepts the files.
    func check(program: String, project: String) throws {
        if !FileManager.default.fileExists(atPath: project + "/features/example.feature") {
            let made = try CLI.run(["init", "--program", program, project])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let run = try CLI.run(["test", project + "/features"])
        #expect(run.status == 0 && run.stdout.contains("3 scenarios: 3 passed"), "\(program): \(run.stdout)\(run.stderr)")
        #expect(try CLI.run(["check", project + "/features", project + "/stubs"]).status == 0)
    }

    /// Nothing replaced without --force; with it, the starter's own regular files only: a planted link (to a file
    /// outside, or dangling) and a directory at a name are refused even then, and what they point to is untouched.
    @Test func forceReplacesTheStartersFilesButNeverALinkOrADirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("p").path
        #expect(try CLI.run(["init", project]).status == 0)
        let feature = project + "/features/example.feature"
        try "edited".write(toFile: feature, atomically: true, encoding: .utf8)
        let again = try CLI.run(["init", project])
        #expect(again.status == 2 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try String(contentsOfFile: feature, encoding: .utf8) == "edited")
        let forced = try CLI.run(["init", "--force", project])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: feature, encoding: .utf8).hasPrefix("Feature: echo under sut-launch"))
        // A link at a starter's name, to a file outside.
        let outside = directory.appendingPathComponent("outside.yml").path
        try "mine".write(toFile: outside, atomically: true, encoding: .utf8)
        let workflow = project + "/ci/github-actions.yml"
        try FileManager.default.removeItem(atPath: workflow)
        try FileManager.default.createSymbolicLink(atPath: workflow, withDestinationPath: outside)
        let linked = try CLI.run(["init", "--force", project])
        #expect(linked.status == 2 && linked.stderr.contains("github-actions.yml") && linked.stderr.contains("not a regular file"))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "mine")
        // A directory at a name, and a link in place of a directory on the path.
        try FileManager.default.removeItem(atPath: workflow)
        try FileManager.default.createDirectory(atPath: workflow, withIntermediateDirectories: false)
        #expect(try CLI.run(["init", "--force", project]).status == 2)
        try FileManager.default.removeItem(atPath: project + "/ci")
        try FileManager.default.createSymbolicLink(atPath: project + "/ci", withDestinationPath: directory.path)
        let throughDirectory = try CLI.run(["init", "--force", project])
        #expect(throughDirectory.status == 2, "\(throughDirectory.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("github-actions.yml").path))
    }
}
