import Foundation
import Testing

/// Scenarios that drive any program: files, commands, output, snapshots, signals, isolation, artefacts
/// (issue 13). Fixtures/features-cli drives coreutils, git, python3 and sh.
@Suite struct CommandScenarioEndToEndTests {
    static let suite = CLI.packageRoot.appendingPathComponent("Fixtures/features-cli").path

    private func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        try CLI.write(text, name, in: directory)
    }

    /// The environment without CI (a CI machine sets it; these tests decide it themselves).
    private var environment: [String: String] {
        var environment = CLI.localEnvironment
        environment["CI"] = nil
        environment["SUT_UPDATE_SNAPSHOTS"] = nil
        return environment
    }

    @Test(.enabled(if: CLI.hasCommand("git") && CLI.hasCommand("python3"), "needs git and python3"))
    func theSuiteForProgramsNobodyHereWrotePasses() throws {
        let result = try CLI.run(["test", Self.suite])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("16 scenarios: 16 passed"))
    }

    @Test func aMismatchShowsAUnifiedDiff() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            """
            Feature: diff
              Scenario: wrong expectation
                When I run "printf 'a\\nb\\nc\\n'"
                Then the output is:
                  \"\"\"
                  a
                  x
                  c
                  \"\"\"
            """, "d.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1)
        #expect(result.stdout.contains("--- expected\n    +++ actual"))
        #expect(result.stdout.contains("-x\n    +b"))
    }

    @Test func snapshotsAreRecordedOnlyWhenAskedAndNeverInCI() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            """
            Feature: snap
              Scenario: greeting
                When I run "echo hello"
                Then the output matches the snapshot "greeting"
            """, "snap.feature", in: directory)
        let snapshot = directory.appendingPathComponent("__snapshots__/snap.feature/greeting.txt").path
        let missing = try CLI.run(["test", feature], environment: environment)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("no snapshot \"greeting\" yet") && missing.stdout.contains("--update-snapshots"))
        var ci = environment
        ci["CI"] = "true"
        let inCI = try CLI.run(["test", "--update-snapshots", feature], environment: ci)
        #expect(inCI.status == 1 && !FileManager.default.fileExists(atPath: snapshot))
        #expect(inCI.stdout.contains("never written on a CI (CI is set)"))
        let recorded = try CLI.run(["test", "--update-snapshots", feature], environment: environment)
        #expect(recorded.status == 0)
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == "hello\n")
        #expect(try CLI.run(["test", feature], environment: environment).status == 0)
        try "goodbye\n".write(toFile: snapshot, atomically: true, encoding: .utf8)
        let changed = try CLI.run(["test", feature], environment: environment)
        #expect(changed.status == 1 && changed.stdout.contains("-goodbye\n    +hello"))
        var update = environment
        update["SUT_UPDATE_SNAPSHOTS"] = "1"
        #expect(try CLI.run(["test", feature], environment: update).status == 0)
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == "hello\n")
    }

    @Test(arguments: [
        ("Given a file \"../x\" with:\n      \"\"\"\n      x\n      \"\"\"", "climbs out with .."),
        ("Given a file \"/etc/x\" with:\n      \"\"\"\n      x\n      \"\"\"", "is an absolute path"),
        ("When I run \"true\"\n    Then the output matches the snapshot \"a/b\"", "may not contain a path separator"),
        ("When I run \"sleep 1\"\n    And I send the signal \"BOOM\"", "unknown signal \"BOOM\""),
        ("When I run \"echo 'open\"", "unterminated ' quote"),
    ])
    func wrongUsesAreErrorsBeforeAnythingRuns(steps: String, says: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("ran").path
        let feature = try write(
            "Feature: wrong\n  Scenario: s\n    When I run \"touch \(marker)\"\n    \(steps)\n", "w.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("w.feature:") && result.stderr.contains(says), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try CLI.run(["check", feature]).status == 3)
    }

    @Test func failedScenariosLeaveArtefactsOrTheirDirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            """
            Feature: artefacts
              Scenario: it fails
                Given a file "notes.txt" with:
                  \"\"\"
                  kept
                  \"\"\"
                When I run "sh -c 'echo out; echo err >&2; exit 1'"
                Then the exit code is 0
            """, "a.feature", in: directory)
        let artifacts = directory.appendingPathComponent("artefacts")
        let junit = directory.appendingPathComponent("j.xml").path
        let result = try CLI.run(["test", "--artifacts", artifacts.path, "--junit", junit, feature])
        #expect(result.status == 1)
        // The feature's directory carries a hash of the feature file's path (two features of one name stay apart).
        let featureDirectory = try #require(
            try FileManager.default.contentsOfDirectory(atPath: artifacts.path).first { $0.hasPrefix("artefacts-") })
        let scenario = artifacts.appendingPathComponent(featureDirectory).appendingPathComponent("it fails line 2")
        #expect(try String(contentsOf: scenario.appendingPathComponent("01-stdout.txt"), encoding: .utf8) == "out\n")
        #expect(try String(contentsOf: scenario.appendingPathComponent("01-stderr.txt"), encoding: .utf8) == "err\n")
        let command = try String(contentsOf: scenario.appendingPathComponent("01-command.json"), encoding: .utf8)
        #expect(command.contains("\"argv\":[\"sh\",\"-c\"") && command.contains("\"HOME\""))
        #expect(try String(contentsOf: scenario.appendingPathComponent("directory/notes.txt"), encoding: .utf8) == "kept\n")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("Artefacts: \(scenario.path)"))

        let kept = try CLI.run(["test", feature])
        let line = kept.stdout.split(separator: "\n").first { $0.contains("Artefacts: ") }.map(String.init) ?? ""
        let path = String(line.split(separator: " ").last ?? "")
        #expect(path.hasSuffix("/work") && FileManager.default.fileExists(atPath: path + "/notes.txt"), "\(kept.stdout)")
        try? FileManager.default.removeItem(atPath: String(path.dropLast("/work".count)))
    }

    /// On a terminal a diff is coloured; with NO_COLOR it is not (checked through a pseudo-terminal).
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 for a pseudo-terminal"))
    func diffsAreColouredOnATerminalUnlessNoColor() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            "Feature: colour\n  Scenario: s\n    When I run \"echo b\"\n    Then the output is:\n      \"\"\"\n      x\n      \"\"\"\n",
            "c.feature", in: directory)
        for (noColor, coloured) in [("", true), ("1", false)] {
            let text = try CLI.runOnTerminal(["test", feature], environment: ["NO_COLOR=\(noColor)"])
            #expect(text.contains("\u{1b}[31m-x") == coloured && text.contains("\u{1b}[32m+b") == coloured, "NO_COLOR=\(noColor): \(text)")
        }
    }

    @Test func colorAlwaysAndNeverOverrideTheTerminal() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            "Feature: colour\n  Scenario: s\n    When I run \"echo b\"\n    Then the output is:\n      \"\"\"\n      x\n      \"\"\"\n",
            "c.feature", in: directory)
        #expect(try CLI.run(["test", "--color", "always", feature]).stdout.contains("\u{1B}[31m-x"))
        #expect(!(try CLI.run(["test", "--color", "never", feature]).stdout.contains("\u{1B}[")))
        #expect(try CLI.run(["test", "--color", "sometimes", feature]).status == 2)
    }

    @Test func fileContentsAreWrittenAsTheyStand() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            """
            Feature: literal
              Scenario: a script keeps its variables
                Given a file "show.sh" with:
                  \"\"\"
                  echo "home is ${HOME}"
                  \"\"\"
                When I run "sh show.sh"
                Then the output is:
                  \"\"\"
                  home is [..]/sut-scenario-[..]/home
                  \"\"\"
            """, "l.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 0, "\(result.stdout)")
    }

    /// Issue 24's lead: `sh -c 'echo ##[warning]x; exit 1'` then `the exit code is 0` passed. The step gives sh the
    /// whole text (a # is never a comment to sut-launch); sh itself reads `##…` at a word start as a comment, so
    /// the command does exit 0. The step reports what the program did, and a # in a word or in quotes reaches it.
    @Test func aHashIsAnOrdinaryCharacterAndShSeesTheWholeCommand() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try write(
            """
            Feature: hash
              Scenario: sh's own comment
                When I run "sh -c 'echo ##[warning]x; exit 1'"
                Then the exit code is 0
                And I do not see "warning"

              Scenario: quoted for sh, it is printed and the exit is 1
                When I run "sh -c 'echo \\"##[warning]x\\"; exit 1'"
                Then the exit code is 1
                And I see "##[warning]x"

              Scenario: words keep their #
                When I run "printf '%s|' a#b #c '#d' \\"e #f\\" # g"
                Then the output is:
                  \"\"\"
                  a#b|#c|#d|e #f|#|g|
                  \"\"\"

              Scenario: the exit code sh gives is the one that fails
                When I run "sh -c 'echo ##[warning]x; exit 1'"
                Then the exit code is 1

            """, "h.feature", in: directory)
        let shell = try CLI.output(of: ["sh", "-c", "sh -c 'echo ##[warning]x; exit 1'; echo \"exit $?\""])
        #expect(shell == "\nexit 0\n", "sh itself: \(shell)")
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 scenarios: 3 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("expected exit code 1, the program exited with code 0"), "\(result.stdout)")
    }
}
