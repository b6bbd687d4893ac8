import Foundation
import Testing

/// Two outputs on one path: `--journal same.json --report same.json` silently lost one, a repeated `--report`
/// or `--journal` silently kept the last, `--report prog.sh ./prog.sh` overwrote the program. Each is a usage
/// error (exit 2) naming both options, before anything launches.
@Suite struct OutputFilesEndToEndTests {
    /// A directory with a program that leaves a mark when it runs, and an empty stub file.
    static func setUp() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        let program = try CLI.write("#!/bin/sh\ntouch launched\n", "prog.sh", in: directory)
        chmod(program, 0o755)
        _ = try CLI.write("[]", "s.json", in: directory)
        _ = try CLI.write(
            "Feature: f\n  Scenario: s\n    Given the program \"true\"\n    When I launch the program\n", "f.feature", in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        symlink("same.json", directory.appendingPathComponent("link.json").path)
        return directory
    }

    static let cases: [([String], String)] = [
        (
            ["--journal", "same.json", "--report", "same.json", "--stub", "s.json", "./prog.sh"],
            "--journal same.json (argument 1) and --report same.json (argument 3) name the same file; give each its own"
        ),
        (
            ["--journal", "sub/../same.json", "--report", "./same.json", "--stub", "s.json", "./prog.sh"],
            "--journal sub/../same.json (argument 1) and --report ./same.json (argument 3) name the same file"
        ),
        (
            ["--journal", "link.json", "--report", "same.json", "--stub", "s.json", "./prog.sh"],
            "--journal link.json (argument 1) and --report same.json (argument 3) name the same file"
        ),
        (
            ["--report", "a.json", "--report", "b.json", "./prog.sh"],
            "--report is given twice: --report a.json (argument 1) and --report b.json (argument 3); keep one"
        ),
        (
            ["--journal", "a.json", "--journal", "b.json", "--stub", "s.json", "./prog.sh"],
            "--journal is given twice: --journal a.json (argument 1) and --journal b.json (argument 3); keep one"
        ),
        (["--report", "prog.sh", "./prog.sh"], "--report prog.sh (argument 1) would overwrite the program ./prog.sh"),
        // R10C-7: a file the program's own arguments name (an interpreter's script, a data file) was replaced by the
        // report's placeholder before the program read it.
        (["--report", "prog.sh", "sh", "prog.sh"], "--report prog.sh (argument 1) would overwrite the program's argument 1 (prog.sh)"),
        (
            ["--report", "s.json", "sh", "./prog.sh", "--in=s.json"],
            "--report s.json (argument 1) would overwrite the program's argument 2 (--in=s.json)"
        ),
        (
            ["--journal", "f.feature", "--stub", "s.json", "sh", "./prog.sh", "f.feature"],
            "--journal f.feature (argument 1) would overwrite the program's argument 2 (f.feature)"
        ),
        (
            ["--cwd", "sub", "--report", "s.json", "sh", "../prog.sh", "../s.json"],
            "--report s.json (argument 3) would overwrite the program's argument 2 (../s.json)"
        ),
        (
            ["--report", "s.json", "--stub", "s.json", "./prog.sh"],
            "--report s.json (argument 1) would overwrite --stub s.json (argument 3)"
        ),
        (
            ["test", "--junit", "r.xml", "--report", "./r.xml", "f.feature"],
            "--junit r.xml (argument 1) and --report ./r.xml (argument 3) name the same file"
        ),
        (
            ["test", "--messages", "m.ndjson", "--junit", "m.ndjson", "f.feature"],
            "--messages m.ndjson (argument 1) and --junit m.ndjson (argument 3) name the same file"
        ),
        (["test", "--junit", "a.xml", "--junit", "b.xml", "f.feature"], "--junit is given twice"),
        (["test", "--report", "f.feature", "f.feature"], "--report f.feature (argument 1) would overwrite the feature file f.feature"),
        (
            ["check", "--messages", "f.feature", "f.feature"],
            "--messages f.feature (argument 1) would overwrite the feature file f.feature"
        ),
        (["serve", "--journal", "s.json", "s.json"], "--journal s.json (argument 1) would overwrite the stub file s.json"),
        (["serve", "--journal", "a.json", "--journal", "b.json", "--port", "0"], "--journal is given twice"),
    ]

    @Test(arguments: cases)
    func twoOutputsOnOneFileAreAUsageError(arguments: [String], message: String) throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(arguments, cwd: directory)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("launched").path))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // The launcher's --report and test's --junit given twice: each gets the usage error's report (a report asked
        // for is never silently missing, nor an older one left in its place), and nothing else is written.
        let reports =
            message.hasPrefix("--report is given twice")
            ? ["a.json", "b.json"] : message.hasPrefix("--junit is given twice") ? ["a.xml", "b.xml"] : []
        // A journal given twice: each is replaced by the placeholder of a run that did not finish (R9C-4: no earlier
        // run's journal stays whole).
        let journals = message.hasPrefix("--journal is given twice") ? ["a.json", "b.json"] : []
        #expect(
            left == (reports + journals + ["f.feature", "link.json", "prog.sh", "s.json", "sub"]).sorted(), "something was written: \(left)"
        )
        for journal in journals {
            let text = try String(contentsOf: directory.appendingPathComponent(journal), encoding: .utf8)
            #expect(text.contains(#""finished":false"#) && text.contains("did not finish"), "\(text)")
        }
        for report in reports {
            let text = try String(contentsOf: directory.appendingPathComponent(report), encoding: .utf8)
            let failed =
                report.hasSuffix(".xml")
                ? text.contains("<testsuite") : text.contains("\"exitCode\" : 2") || text.contains("\"exitCode\":2")
            #expect(text.contains("given twice") && failed, "\(text)")
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("prog.sh"), encoding: .utf8) == "#!/bin/sh\ntouch launched\n")
    }

    /// r11 R11-7: `serve`'s and `record`'s `--journal` inside a stub directory or a WireMock root's `mappings/` or
    /// `__files/`, or on the HTTPS key, was replaced by its placeholder before the input was read (the key was lost): a
    /// usage error, as the launcher's, every input left as it was.
    @Test(arguments: [
        (["serve", "--port", "0", "--journal", "root2/mappings/r.json", "root2"], "inside the stub directory root2"),
        (["serve", "--port", "0", "--root-dir", "root2", "--journal", "root2/mappings/r.json"], "inside --root-dir root2's mappings/"),
        (["serve", "--port", "0", "--journal", "root2/__files/b.txt", "root2"], "inside the stub directory root2"),
        (["serve", "--port", "0", "--root-dir", "root2", "--journal", "root2/__files/b.txt"], "inside --root-dir root2's __files/"),
        (["serve", "--port", "0", "--journal", "mappings/m.json"], "inside WireMock's default root's mappings/"),
        (
            ["record", "--target", "http://127.0.0.1:9", "--into", "root2", "--journal", "root2/mappings/r.json"],
            "inside --root-dir root2's mappings/"
        ),
        (
            ["serve", "--port", "0", "--https", "--https-cert", "c.pem", "--https-key", "k.pem", "--journal", "k.pem"],
            "would overwrite --https-key k.pem"
        ),
    ])
    func aServersJournalNeverReplacesWhatItReads(arguments: [String], message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping = #"{"request": {"url": "/r"}, "response": {"status": 200, "body": "root"}}"#
        let files = [
            "root2/mappings/r.json": mapping, "root2/__files/b.txt": "BODY", "mappings/m.json": mapping, "c.pem": "cert", "k.pem": "key",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let result = try CLI.run(arguments, cwd: directory)
        #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        for (path, text) in files {
            #expect(
                try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8) == text, "\(arguments): \(path) changed")
        }
    }

    /// r12 R12-2: a root whose `mappings/` or `__files/` is a link (followed, as documented), or a stub directory holding
    /// a link to a stub file: an output on the file behind the link replaced the mapping or body (exit 0, the program
    /// served the placeholder). Every command compares its outputs with the places links lead, and `--artifacts` too.
    @Test(arguments: [
        ["--port", "0", "--stub", "rf", "--report", "files/b.txt", "true"],
        ["--port", "0", "--stub", "rf", "--journal", "files/b.txt", "true"],
        ["--port", "0", "--stub", "root", "--journal", "other/r.json", "true"],
        ["serve", "--port", "0", "--journal", "other/r.json", "root"],
        ["--port", "0", "--stub", "sd", "--report", "real.json", "true"], ["test", "--junit", "other/r.json", "s.feature"],
        ["test", "--artifacts", "other/art", "s.feature"],
    ])
    func anOutputWhereALinkInAStubRootLeadsIsRefused(arguments: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = [
            "other/r.json": #"{"request": {"url": "/r"}, "response": {"status": 200, "body": "root"}}"#, "files/b.txt": "BODY",
            "rf/mappings/b.json": #"{"request": {"url": "/b"}, "response": {"status": 200, "bodyFileName": "b.txt"}}"#,
            "real.json": #"{"routes": [{"method": "GET", "path": "/a", "status": 200}]}"#,
            "s.feature": "Feature: F\n  Scenario: s\n    Given the stubs \"root\"\n    When I run \"false\"\n",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        for (link, target) in [("rf/__files", "../files"), ("root/mappings", "../other"), ("sd/l.json", "../real.json")] {
            let url = directory.appendingPathComponent(link)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
        let result = try CLI.run(arguments, cwd: directory)
        #expect(result.status == 2 && result.stderr.contains("is inside"), "\(arguments): \(result.stderr)")
        for (path, text) in files {
            #expect(
                try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8) == text, "\(arguments): \(path) changed")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("other/art").path))
    }

    @Test func outputsOfTheirOwnStillWork() throws {
        let directory = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["--journal", "j.json", "--report", "sub/r.json", "--stub", "s.json", "./prog.sh"], cwd: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("j.json").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sub/r.json").path))
    }
}
