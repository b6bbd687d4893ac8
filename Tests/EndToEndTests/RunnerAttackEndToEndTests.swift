import Foundation
import Testing

/// An outside attacker's findings on `sut-launch test` (the real binary): steps that could not fail, bytes read
/// as other bytes, a signal sent nowhere, names the run owns overridden, `check` and `test` disagreeing.
@Suite struct RunnerAttackEndToEndTests {
    static func bytes(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8.map { $0 == 0x7E ? 0xFF : $0 }).write(to: url) // `~` stands for a byte that is not UTF-8
        return url.path
    }

    /// Class 7 (text read wrong): a bad byte was decoded to U+FFFD, so `Then I see "\xFF"` passed on U+FFFD.
    @Test func aFeatureOrStepFileThatIsNotUTF8IsRefusedAtItsFirstBadByte() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try Self.bytes(
            "Feature: bad\n  Scenario: ff\n    When I run \"printf x\"\n    Then I see \"ab~\"\n", "ff.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, feature])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("ff.feature:4:19: the feature file is not UTF-8"), "\(result.stderr)")
        }
        let steps = directory.appendingPathComponent("s")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        _ = try Self.bytes("[{\"step\":\"marker ~\",\"run\":[\"true\"]}]", "s.steps.json", in: steps)
        let good = try CLI.write("Feature: g\n  Scenario: g\n    When I run \"true\"\n", "s/g.feature", in: directory)
        let result = try CLI.run(["test", good])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("s.steps.json:1:18: the step file is not UTF-8"), "\(result.stderr)")
    }

    /// Class 2 (false green): an empty expected text is in every output; a `${V}` that expands to empty likewise.
    @Test func anEmptyExpectedTextIsAnErrorNamingTheStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let literal = try CLI.write(
            "Feature: e\n  Scenario: a\n    When I run \"true\"\n    Then I see \"\"\n  Scenario: k\n    When I run \"true\"\n"
                + "    Then the file \"e\" contains \"\"\n  Scenario: n\n    When I run \"true\"\n    Then I do not see \"\"\n",
            "e.feature", in: directory)
        for command in ["test", "check"] {
            let result = try CLI.run([command, literal])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            for line in [4, 7, 10] {
                #expect(result.stderr.contains("e.feature:\(line)") && result.stderr.contains("could never fail"), "\(result.stderr)")
            }
        }
        let defined = try CLI.write(
            "Feature: d\n  Scenario: b\n    When I run \"echo hi\"\n    Then I see \"${EMPTY}\"\n", "d.feature", in: directory)
        let result = try CLI.run(["test", "-D", "EMPTY=", defined])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"${EMPTY}\": ${EMPTY} is empty, so this step would check less than it says"), "\(result.stdout)")
    }

    /// Class 7 / 2: CRLF output passed an LF expectation and an LF snapshot; the diff shows the `\r`.
    @Test func outputAndSnapshotComparisonsSeeACarriageReturn() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: M
              Scenario: C CRLF output vs LF expected
                When I run "printf 'a\\r\\nb\\r\\n'"
                Then the output is:
                  \"\"\"
                  a
                  b
                  \"\"\"
              Scenario: E CRLF on stderr
                When I run "sh -c 'printf \\"a\\r\\n\\" >&2'"
                Then the error output is:
                  \"\"\"
                  a
                  \"\"\"
              Scenario: S snapshot
                Given a file "p.sh" with:
                  \"\"\"
                  if [ -n "$CRLF" ]; then printf 'a\\r\\nb\\r\\n'; else printf 'a\\nb\\n'; fi
                  \"\"\"
                When I run "sh p.sh"
                Then the output matches the snapshot "s"

            """, "m.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 0 passed, 3 failed"), "\(result.stdout)") // S: no snapshot yet
        #expect(result.stdout.contains("+a\\r"), "\(result.stdout)")
        let update = try CLI.run(["test", "--update-snapshots", feature + ":15"])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        var environment = CLI.localEnvironment
        environment["CRLF"] = "1"
        let crlf = try CLI.run(["test", feature + ":15"], environment: environment)
        #expect(crlf.status == 1 && crlf.stdout.contains("+a\\r"), "\(crlf.stdout)\(crlf.stderr)")
        #expect(try CLI.run(["test", feature + ":15"]).status == 0)
    }

    /// Class 2: a signal to a program that ended went nowhere, and the step passed.
    @Test func aSignalToAProgramThatEndedFailsTheStep() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: X
              Scenario: launched and ended
                Given the program "/bin/true"
                When I launch the program
                Then the exit code is 0
                When I send the signal "TERM"
              Scenario: run
                When I run "true"
                When I send the signal "TERM"

            """, "t.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 0 passed, 2 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("cannot send the signal TERM: the program already exited"), "\(result.stdout)")
    }

    /// Class 2: `-D SUT_MOCK_SERVER_URL=…` changed the step text's URL but not the program's.
    @Test func aDefineOfANameTheRunOwnsIsAUsageError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: M\n  Scenario: m\n    When I run \"true\"\n", "mu.feature", in: directory)
        for name in ["SUT_MOCK_SERVER_URL", "SUT_CONTROL_URL"] {
            for command in ["test", "check"] {
                let result = try CLI.run([command, "-D", "\(name)=http://evil", feature])
                #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("\(name) is set by sut-launch for each scenario"), "\(result.stderr)")
            }
        }
    }

    /// Class 7 / 2: a lone-CR file and a file without scenarios were an error for `check`, a warning for `test`.
    @Test func checkAndTestRefuseAFileWithoutScenariosAlike() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cr = try CLI.write("Feature: CR\r  Scenario: a\r    When I run \"true\"\r", "cr.feature", in: directory)
        let empty = try CLI.write("Feature: Empty\n", "empty.feature", in: directory)
        let good = try CLI.write("Feature: X\n  Scenario: x\n    When I run \"true\"\n", "x.feature", in: directory)
        for files in [[cr, good], [cr], [empty, good], [empty]] {
            let check = try CLI.run(["check"] + files)
            let test = try CLI.run(["test"] + files)
            #expect(check.status == 3 && test.status == 3, "\(files): \(check.status) \(test.status) \(test.stdout)\(test.stderr)")
            let why =
                files[0] == cr
                ? "cr.feature: no scenarios: its lines end in CR alone" : "empty.feature: no scenarios: the Feature has no Scenario"
            #expect(check.stderr.contains(why) && test.stderr.contains(why), "\(check.stderr)\n\(test.stderr)")
        }
    }
}
