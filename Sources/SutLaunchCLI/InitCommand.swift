import AutomationSupport
import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options of `sut-launch init [--program PROGRAM] [DIR]`.
package enum InitOption: CommandOption {
    case program, help

    package var repeats: Bool {
        switch self {
        case .program, .help: false
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .program: OptionSpec("--program", value: "PROGRAM", help: "the program the example scenarios launch (default: echo)")
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        }
    }
}

/// `sut-launch init [--program PROGRAM] [DIR]`: a starter layout that passes as written against the program
/// named (a feature file, a stub file, CI snippets). It never overwrites a file.
package enum InitCommand {
    /// The text of `sut-launch init --help`.
    package static var help: String {
        "USAGE:\n  sut-launch init [--program PROGRAM] [DIR]\n\nWrites features/example.feature, stubs/example.json and ci/ snippets into DIR (default: here),\n"
            + "never overwriting a file; then run: sut-launch test DIR/features\n\nOPTIONS:\n" + InitOption.helpLines
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
        let existing = files.map(\.path).filter { path in
            var prefix = ""
            for component in path.split(separator: "/") {
                prefix += (prefix.isEmpty ? "" : "/") + component
                guard let kind = root.kind(of: prefix) else { return false }
                if kind != .directory { return true }
            }
            return true
        }
        guard existing.isEmpty else {
            throw UsageError(.initWouldOverwrite(existing.map { directory + "/" + $0 }))
        }
        for file in files {
            let path = directory + "/" + file.path
            do { try root.write(Array(file.text.utf8), to: file.path, replacing: false) } catch {
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
                    { "method": "GET", "path": "/hello", "status": 200, "json": { "message": "hello" } }
                  ]
                }

                """
            ),
            (
                "ci/github-actions.yml",
                """
                # A GitHub Actions job: copy into .github/workflows/. It runs the suite and keeps the JUnit report.
                jobs:
                  scenarios:
                    runs-on: ubuntu-latest
                    steps:
                      - uses: actions/checkout@v4
                      - run: sut-launch test --format github --junit junit.xml features
                      - if: always()
                        uses: actions/upload-artifact@v4
                        with: { name: junit, path: junit.xml }

                """
            ),
            (
                "ci/gitlab-ci.yml",
                """
                # A GitLab CI job: merge into .gitlab-ci.yml. GitLab reads the JUnit report into the merge request.
                scenarios:
                  script:
                    - sut-launch test --junit junit.xml features
                  artifacts:
                    when: always
                    reports:
                      junit: junit.xml

                """
            ),
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
