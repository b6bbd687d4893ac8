import Foundation
import Testing

/// The README and the manual in docs/ show terminal sessions; the ones marked here run, word for word, against
/// the built binaries, so what a reader copies is what happens.
///
/// The marking convention:
/// - A fenced block ```` ```console ```` right after a line `<!-- tested -->` is a session. A line that starts with
///   `$ ` is a command; the lines up to the next command are what it prints, stdout and stderr together, in order.
///   Unmarked console blocks (the test command itself, installing, a server driven by curl) are not run.
/// - The commands of one block run as one `sh` script, in order (so `cd` and `echo $?` work as in a terminal),
///   in a fresh temporary directory that holds `Fixtures` (a link to this repository's), with stdin empty
///   unless the command pipes into it. A leading `swift build && ` is dropped: the test runs against what
///   `swift build --build-tests` built, and every `.build/debug` (also `../../.build/debug`) names that directory.
/// - Output is compared line by line, each line's trailing blanks ignored. What varies is written as the scenario
///   steps' `Then the output is:` writes it: `[..]` in a line is any text on that line, a line `...` is any
///   number of lines.
///
/// The same test checks that every relative link in README.md and docs/*.md names a file that exists.
@Suite struct DocumentationExamplesTests {
    static let root = CLI.packageRoot

    /// The documents whose sessions and links are checked: README.md and every docs/*.md.
    static func documents() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        return [root.appendingPathComponent("README.md")] + pages
    }

    /// One marked console block: where it is, its commands and what they print.
    struct Session: CustomStringConvertible {
        var file: String
        var line: Int
        var commands: [String] = []
        var expected: [String] = []
        var description: String { "\(file):\(line)" }
    }

    /// The marked console blocks of a Markdown text.
    static func sessions(in text: String, file: String) -> [Session] {
        var sessions: [Session] = []
        var current: Session?
        var marked = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var session = current {
                if line.hasPrefix("```") {
                    sessions.append(session)
                    current = nil
                } else if line.hasPrefix("$ ") {
                    session.commands.append(String(line.dropFirst(2)))
                    current = session
                } else {
                    session.expected.append(String(line))
                    current = session
                }
                continue
            }
            if line.trimmingCharacters(in: .whitespaces) == "<!-- tested -->" {
                marked = true
            } else if marked && line == "```console" {
                current = Session(file: file, line: index + 1)
                marked = false
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                marked = false
            }
        }
        return sessions
    }

    /// The command as this test runs it: no `swift build && `, the products directory for `.build/debug`.
    static func runnable(_ command: String) -> String {
        var command = command
        if command.hasPrefix("swift build && ") { command.removeFirst("swift build && ".count) }
        return command.replacing(/(\.\.\/)*\.build\/debug/, with: CLI.productsDirectory.path)
    }

    /// Runs a session's commands as one sh script and returns everything it printed.
    static func transcript(of session: Session) throws -> String {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("Fixtures"),
            withDestinationURL: root.appendingPathComponent("Fixtures"))
        let outURL = directory.appendingPathComponent(".transcript")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", session.commands.map(runnable).joined(separator: "\n")]
        process.currentDirectoryURL = directory
        var environment = CLI.localEnvironment.filter { !$0.key.hasPrefix("SUT_") && $0.key != "CI" }
        environment["TMPDIR"] = directory.path // a failed scenario's kept directory goes with the rest
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try output.close()
        return String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
    }

    /// True when `actual` reads as `expected`: line by line, trailing blanks ignored, `[..]` any text in a
    /// line, a line `...` any number of lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        let actual = actual.map(trimmedEnd)
        let expected = expected.map(trimmedEnd)
        // reachable[j]: expected[..<i] can match actual[..<j].
        var reachable = [true] + Array(repeating: false, count: actual.count)
        for pattern in expected {
            var next = Array(repeating: false, count: actual.count + 1)
            if pattern == "..." {
                var seen = false
                for j in 0...actual.count {
                    seen = seen || reachable[j]
                    next[j] = seen
                }
            } else {
                for j in 0..<actual.count where reachable[j] && lineMatches(actual[j], pattern) { next[j + 1] = true }
            }
            reachable = next
        }
        return reachable[actual.count]
    }

    static func lineMatches(_ line: String, _ pattern: String) -> Bool {
        guard pattern.contains("[..]") else { return line == pattern }
        let parts = pattern.components(separatedBy: "[..]")
        guard line.hasPrefix(parts[0]), line.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]) else { return false }
        var rest = Substring(line.dropFirst(parts[0].count))
        rest = rest.dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    static func trimmedEnd(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " || line.last == "\t" { line.removeLast() }
        return String(line)
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func allSessions() throws -> [Session] {
        try documents().flatMap { url in
            sessions(in: try String(contentsOf: url, encoding: .utf8), file: String(url.path.dropFirst(root.path.count + 1)))
        }
    }

    @Test func theREADMEMarksItsSessions() throws {
        let readme = try Self.allSessions().filter { $0.file == "README.md" }
        #expect(readme.count >= 5, "README.md marks \(readme.count) sessions with <!-- tested -->")
        #expect(readme.contains { $0.commands.contains { $0.contains("--stub ./routes.json") } }, "the quick start is not marked")
    }

    @Test(arguments: try allSessions())
    func eachMarkedSessionPrintsWhatTheDocumentShows(_ session: Session) throws {
        #expect(!session.commands.isEmpty, "\(session): a tested block without a `$ ` command")
        let actual = try Self.transcript(of: session)
        #expect(
            Self.matches(Self.lines(actual), session.expected),
            """
            \(session) shows:
            \(session.expected.joined(separator: "\n"))
            but the commands printed:
            \(actual)
            """)
    }

    @Test func theMatcherFailsOnADifferentLineAndAcceptsWhatVaries() {
        #expect(Self.matches(["a", "b (12ms)", "c"], ["a", "b ([..]ms)", "c"]))
        #expect(Self.matches(["a", "x", "y", "c"], ["a", "...", "c"]))
        #expect(Self.matches(["a", "c"], ["a", "...", "c"]))
        #expect(Self.matches(["a  "], ["a"]))
        #expect(!Self.matches(["a", "b"], ["a", "c"]))
        #expect(!Self.matches(["a"], ["a", "b"]))
        #expect(!Self.matches(["a", "b"], ["a"]))
        #expect(!Self.matches(["b (12ms) x"], ["b ([..]ms)"]))
    }

    @Test func everyRelativeLinkNamesAFileThatExists() throws {
        var checked = 0
        for url in try Self.documents() {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                let resolved = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(
                    FileManager.default.fileExists(atPath: resolved.path),
                    "\(url.lastPathComponent) links to \(target), which does not exist")
                #expect(resolved.path.hasPrefix(Self.root.path), "\(url.lastPathComponent) links outside the repository: \(target)")
                checked += 1
            }
        }
        #expect(checked >= 20, "only \(checked) relative links found")
    }
}
