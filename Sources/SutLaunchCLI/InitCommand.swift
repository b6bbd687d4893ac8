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
    package static func run(_ arguments: [String]) throws -> Int32 {
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
        if program.isEmpty || program.escapingControlCharacters() != program || program.contains("${") {
            throw UsageError(.initBadProgram(program))
        }
        let files = starterFiles(program: program)
        // DIR is the user's (made when missing); below it nothing is followed: a name taken by anything, a
        // dangling link included, is never written over or through.
        let root: RootedDirectory
        do { root = try RootedDirectory(directory, create: true) } catch { throw UsageError(.initFailed("\(error)")) }
        // --force replaces the starter's own names when they are regular files; a link, a directory or anything
        // else at a name (or on its path) is refused even then: replaced by rename, never written through.
        let force = parsed.has(.force)
        var refused: [String] = []
        for path in files.map(\.path) {
            var prefix = ""
            for (offset, component) in path.split(separator: "/").enumerated() {
                prefix += (prefix.isEmpty ? "" : "/") + component
                guard let kind = root.kind(of: prefix) else { break }
                let last = offset == path.split(separator: "/").count - 1
                if kind == .directory && !last { continue }
                if !(force && last && kind == .file) { refused.append(directory + "/" + path) }
                break
            }
        }
        guard refused.isEmpty else {
            throw UsageError(.initWouldOverwrite(refused, force: force))
        }
        for file in files {
            let path = directory + "/" + file.path
            do { try root.write(Array(file.text.utf8), to: file.path, replacing: force) } catch {
                throw UsageError(.initFailed("cannot write \(path): \(error)"))
            }
            Console.out("wrote \(path)\n")
        }
        Console.out("next: sut-launch test \(directory == "." ? "" : directory + "/")features\n")
        return 0
    }

    static func starterFiles(program: String) -> [(path: String, text: String)] {
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
            ("ci/github-actions.yml", InitCommand.githubWorkflow),
            ("ci/gitlab-ci.yml", InitCommand.gitlabPipeline),
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
                Then the program finishes within 30s

              Scenario: the program runs beside a mock backend
                Given the stubs "../stubs/example.json"
                When I launch the program
                And I close the input
                Then the program finishes within 30s

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
