import AutomationSupport
import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options of `sut-launch init [--program PROGRAM] [--force] [DIR]`.
package enum InitOption: CommandOption {
    case program, force, help

    package var repeats: Bool {
        switch self {
        case .program, .force, .help: false
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .program: OptionSpec("--program", value: "PROGRAM", help: "the program the example scenarios launch (default: echo)")
        case .force: OptionSpec("--force", help: "replace the starter's files where they exist (never a link or a directory)")
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        }
    }
}

/// `sut-launch init [--program PROGRAM] [--force] [DIR]`: a starter layout that passes as written against the program
/// named and against MyAppCLI (a feature file, a stub file, the sharded CI workflows). It never overwrites a file
/// without `--force`, and never writes over or through a link or a directory.
package enum InitCommand {
    /// The text of `sut-launch init --help`.
    package static var help: String {
        "USAGE:\n  sut-launch init [--program PROGRAM] [--force] [DIR]\n\nWrites features/example.feature, stubs/example.json and ci/ workflows into DIR (default: here),\n"
            + "never overwriting a file without --force; then run: sut-launch test DIR/features\n\nOPTIONS:\n" + InitOption.helpLines
    }

    /// Runs `init` with the arguments after it; returns the exit code.
    package static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        var parsed = ParsedArguments<InitOption>()
        try ArgumentParser.parse(arguments, into: &parsed, stopAtPositional: false)
        if parsed.has(.help) {
            Console.out(help)
            return 0
        }
        guard parsed.positionals.count <= 1 else { throw UsageError(.initTakesOneDirectory(parsed.positionals)) }
        let directory = parsed.positionals.first ?? "."
        let program = parsed.last(.program)?.value ?? "echo"
        // The name lands in Gherkin (a line of its own) and in a step value (where ${…} expands): a line break
        // or a control character broke the starter that must pass as written, `${` would expand at test time.
        // Bytes that are not UTF-8 reach us as U+FFFD: the starter would name another program.
        if program.isEmpty || program.escapingControlCharacters() != program || program.contains("${") || program.contains("\u{FFFD}") {
            throw UsageError(.initBadProgram(program))
        }
        // The starter passes as written only when its program starts: the launcher's own check (exit 127 or 126 in
        // every scenario of the starter otherwise), here, naming why, before anything is written.
        if let problem = ProgramCheck.problem(program, path: environment["PATH"]) {
            throw UsageError(
                .initFailed(
                    "--program \(problem.escapingControlCharacters()): the starter would fail as written; build it first, or name one that runs"
                ))
        }
        try checkDirectory(directory)
        let files = starterFiles(program: programFromFeatures(program, directory: directory), features: ciFeatures(directory))
        // Made one component at a time, a DIR past PATH_MAX is written, but `test` and `check` of the `next:` line
        // cannot open it (they said "no such feature file"): refused before anything is written.
        let longest = openedPaths(files).map { $0.hasPrefix("/") ? $0.utf8.count : directory.utf8.count + 1 + $0.utf8.count }.max() ?? 0
        if longest >= UsageProblem.pathLimit {
            throw UsageError(
                .initFailed(
                    "DIR is \(directory.utf8.count) bytes, and its starter's paths would be up to \(longest): more than the \(UsageProblem.pathLimit - 1) the system opens, so test and check could not read them; choose a shorter DIR"
                ))
        }
        // DIR is the user's (made when missing); below it nothing is followed: a name taken by anything, a
        // dangling link included, is never written over or through.
        let root: RootedDirectory
        do { root = try RootedDirectory(directory, create: true) } catch { throw UsageError(.initFailed("\(error)")) }
        let force = parsed.has(.force)
        try refuseTaken(files.map(\.path), in: root, directory: directory, force: force)
        for file in files {
            let path = directory + "/" + file.path
            do { try root.write(Array(file.text.utf8), to: file.path, replacing: force) } catch {
                throw UsageError(.initFailed("cannot write \(path.escapingControlCharacters()): \(error)"))
            }
            Console.out("wrote \(path.escapingControlCharacters())\n")
        }
        let features = directory == "." ? "features" : (directory.hasSuffix("/") ? directory : directory + "/") + "features"
        if ciFeatures(directory) == nil {
            Console.out(
                "note: ci/*.yml run `features` from the repository's root: change it to the path of \(features.escapingControlCharacters())\n"
            )
        }
        Console.out("next: sut-launch test \(ShellWords.quoted(features))\n")
        return 0
    }

    /// DIR: named (not empty), valid UTF-8, and when init must make it, made under real directories only: an
    /// existing DIR is taken as named (a link to a directory included, as `cd` takes it), but `lk/b/c` with `lk`
    /// a link would make directories through that link, and is refused naming it.
    static func checkDirectory(_ directory: String) throws(UsageError) {
        guard !directory.isEmpty else { throw UsageError(.initFailed("DIR is empty: name a directory, or . for here")) }
        guard !directory.contains("\u{FFFD}"), !directory.utf8.contains(0) else {
            throw UsageError(.initFailed("DIR '\(directory.escapingControlCharacters())' is not valid UTF-8: name it in UTF-8"))
        }
        guard !FileSystem.isDirectory(directory) else { return }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if FileSystem.isSymbolicLink(prefix) {
                throw UsageError(
                    .initNotAFile([
                        "\(prefix.escapingControlCharacters()) (a symbolic link on the way to DIR, which init would create through it)"
                    ]))
            }
            guard FileSystem.exists(prefix) else { return }
            prefix += "/"
        }
    }

    /// Refuses before writing anything: a starter's name taken by a regular file (unless `force`), and a link,
    /// directory or other kind at a name or on its path (even with `force`), each named by the path it is at.
    static func refuseTaken(_ paths: [String], in root: RootedDirectory, directory: String, force: Bool) throws(UsageError) {
        var overwritten: [String] = []
        var notFiles: [String] = []
        for path in paths {
            var prefix = ""
            let components = path.split(separator: "/")
            for (offset, component) in components.enumerated() {
                prefix += (prefix.isEmpty ? "" : "/") + component
                guard let kind = root.kind(of: prefix) else { break }
                let last = offset == components.count - 1
                let shown = (directory + "/" + prefix).escapingControlCharacters()
                switch kind {
                case .directory where !last: continue
                case .file where last: if !force { overwritten.append(shown) }
                case .link: notFiles.append("\(shown) (a symbolic link)")
                case .directory: notFiles.append("\(shown) (a directory)")
                default: notFiles.append("\(shown) (neither a file nor a directory)")
                }
                break
            }
        }
        if !notFiles.isEmpty { throw UsageError(.initNotAFile(Array(Set(notFiles)).sorted())) }
        if !overwritten.isEmpty { throw UsageError(.initWouldOverwrite(overwritten)) }
    }

    /// `--program ./bin/app`: a path with a slash is resolved from the feature file's directory at test time, so
    /// the starter names it from DIR/features (`../bin/app`), or absolute when DIR is absolute or climbs.
    static func programFromFeatures(_ program: String, directory: String) -> String {
        guard program.contains("/"), !program.hasPrefix("/") else { return program }
        let plain = program.hasPrefix("./") ? String(program.dropFirst(2)) : program
        let depth = (directory + "/features").split(separator: "/").filter { $0 != "." }
        // `..` from a directory reached through a link climbs from where the link leads, not back along its name:
        // a DIR with a link on the way gets an absolute path, as an absolute or climbing one does.
        guard !directory.hasPrefix("/"), !depth.contains(".."), !throughLink(directory) else {
            return FileManager.default.currentDirectoryPath + "/" + plain
        }
        return String(repeating: "../", count: depth.count) + plain
    }

    /// Whether `directory` (relative) or a directory on its way is a symbolic link.
    private static func throughLink(_ directory: String) -> Bool {
        var prefix = ""
        for part in directory.split(separator: "/") where part != "." {
            prefix += (prefix.isEmpty ? "" : "/") + part
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: prefix)) != nil { return true }
        }
        return false
    }

    /// The paths the starter's run opens, relative to DIR unless absolute: its files, and the paths its features name
    /// (`Given the stubs "../stubs/example.json"` is opened as `features/../stubs/example.json`, unresolved: R10B-7, a
    /// DIR that fit its files still failed as written).
    static func openedPaths(_ files: [(path: String, text: String)]) -> [String] {
        var paths = files.map(\.path)
        for file in files where file.path.hasSuffix(".feature") {
            let folder = file.path.split(separator: "/").dropLast().joined(separator: "/")
            for line in file.text.split(separator: "\n").map(String.init) {
                guard let start = ["the stubs \"", "the program \""].lazy.compactMap({ line.firstRange(of: $0) }).first else { continue }
                let named = String(line[start.upperBound...].prefix { $0 != "\"" })
                guard named.contains("/") else { continue } // a program found on PATH
                paths.append(named.hasPrefix("/") || folder.isEmpty ? named : folder + "/" + named)
            }
        }
        return paths
    }

    /// The features' path the CI files run from the repository's root (taken as here): nil when it cannot be
    /// written there as a plain word (DIR absolute, climbing, or with characters YAML or the shell would read).
    static func ciFeatures(_ directory: String) -> String? {
        let parts = directory.split(separator: "/").filter { $0 != "." }
        guard !directory.hasPrefix("/"), !parts.contains("..") else { return nil }
        let path = (parts + ["features"]).joined(separator: "/")
        let plain = path.utf8.allSatisfy {
            $0 < 0x80
                && ((0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || "._-/".utf8.contains($0))
        }
        return plain && !path.hasPrefix("-") ? path : nil
    }

    /// The starter's files; `features` is what the CI files run (nil: `features`).
    static func starterFiles(program: String, features: String? = "features") -> [(path: String, text: String)] {
        let inCI = { (text: String) in text.replacingOccurrences(of: ".ndjson features\n", with: ".ndjson \(features ?? "features")\n") }
        return [
            ("features/example.feature", exampleFeature(program: program)),
            (
                "stubs/example.json",
                """
                {
                  "routes": [
                    { "method": "GET", "path": "/hello", "status": 200, "json": { "message": "hello" } },
                    { "method": "GET", "path": "/cities", "status": 200, "json": [ { "name": "Milano" } ] }
                  ]
                }

                """
            ),
            ("ci/github-actions.yml", inCI(InitCommand.githubWorkflow)),
            ("ci/gitlab-ci.yml", inCI(InitCommand.gitlabPipeline)),
        ]
    }

    /// The starter feature: every scenario passes as written against `program`.
    static func exampleFeature(program: String) -> String {
        let quotedProgram = program.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return """
            Feature: \(program) under sut-launch
              A starter suite: every scenario passes as written. Change the steps to say what the program must do
              (sut-launch test --help lists every step).

              Background:
                Given the program "\(quotedProgram)"

              Scenario: the program runs to its end
                When I launch the program
                And I close the input
                Then the exit code is 0 within 30s

              Scenario: the program runs beside a mock backend
                Given the stubs "../stubs/example.json"
                When I launch the program
                And I close the input
                Then the exit code is 0 within 30s

              Scenario: files in, commands run, exact output out
                Given a file "greeting.txt" with:
                  \"\"\"
                  hello
                  \"\"\"
                When I run "cat greeting.txt"
                Then the exit code is 0
                And the output is:
                  \"\"\"
                  hello
                  \"\"\"

            """
    }
}
