import Foundation
import Testing

/// What a step's text means, run by the built binary: output and files compared as bytes, work linear in a
/// step's length, patterns checked at load, `-D` values kept as data (hostile review of issue 24).
@Suite struct StepTextEndToEndTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// Each comparison is bytes: NFC output is not NFD text, 0xFF is not U+FFFD, a file "contains" what its bytes
    /// hold (as Then I see does), and `[..]` still matches any text.
    @Test func outputAndFilesCompareBytesNotCanonicalEquivalence() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: bytes
              Scenario: nfc output against nfd text
                When I run "printf 'caf\\303\\251\\n'"
                Then the output is:
                  \"\"\"
                  \(Self.nfd)
                  \"\"\"
              Scenario: an invalid byte against the replacement character
                When I run "printf 'a\\377b\\n'"
                Then the output is:
                  \"\"\"
                  a\u{FFFD}b
                  \"\"\"
              Scenario: an nfd file contains cafe
                Given a file "x" with:
                  \"\"\"
                  \(Self.nfd)
                  \"\"\"
                Then the file "x" contains "cafe"
              Scenario: an nfc file against nfd text
                Given a file "x" with:
                  \"\"\"
                  \(Self.nfc)
                  \"\"\"
                Then the file "x" contains "\(Self.nfd)"
              Scenario: nfc output against an nfd snapshot
                When I run "printf 'caf\\303\\251\\n'"
                Then the output matches the snapshot "s"
              Scenario: wildcards still match
                When I run "printf 'caf\\303\\251 au lait\\n'"
                Then the output is:
                  \"\"\"
                  \(Self.nfc)[..]
                  \"\"\"
              Scenario: I see agrees
                When I run "printf 'caf\\303\\251\\n'"
                Then I do not see "\(Self.nfd)"
            """, "bytes.feature", in: directory)
        let snapshots = directory.appendingPathComponent("__snapshots__/bytes.feature")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try Data((Self.nfd + "\n").utf8).write(to: snapshots.appendingPathComponent("s.txt"))
        var environment = CLI.localEnvironment
        environment["CI"] = nil
        environment["SUT_UPDATE_SNAPSHOTS"] = nil
        let result = try CLI.run(["test", feature], environment: environment)
        #expect(result.status == 1)
        #expect(result.stdout.contains("7 scenarios: 3 passed, 4 failed"), "\(result.stdout)")
        for failed in [
            "nfc output against nfd text", "an invalid byte against the replacement character", "an nfc file against nfd text",
            "nfc output against an nfd snapshot",
        ] {
            #expect(result.stdout.contains("✗ bytes: \(failed)"), "\(failed)")
        }
        for passed in ["an nfd file contains cafe", "wildcards still match", "I see agrees"] {
            #expect(result.stdout.contains("✓ bytes: \(passed)"), "\(passed)")
        }
        #expect(result.stdout.contains("lines that look alike differ in their bytes"))
    }

    /// Seconds `sut-launch check` takes on `text`, or nil past `limit` (the process is then killed).
    static func checkSeconds(_ text: String, limit: Double) throws -> Double? {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(text, "long.feature", in: directory)
        let started = ContinuousClock.now
        var killed = false
        let result = try CLI.run(["check", feature]) { process, _ in
            while process.isRunning {
                if (ContinuousClock.now - started) / .seconds(1) > limit {
                    process.terminate()
                    killed = true
                    return
                }
                usleep(10_000)
            }
        }
        if killed { return nil }
        #expect(result.status == 0, "\(result.stderr.prefix(500))")
        return (ContinuousClock.now - started) / .seconds(1)
    }

    /// One long step line costs time linear in its length: 1 MB takes at most 25x what 100 KB takes (a
    /// quadratic walk, as counting the scalars once per capture offset did, takes 100x: 100 KB took 8 s).
    @Test(arguments: ["a long command", "many quoted words", "many escaped quotes"])
    func checkIsLinearInAStepsLength(shape: String) throws {
        func feature(_ size: Int) -> String {
            let step: String
            switch shape {
            case "a long command": step = "When I run \"echo " + String(repeating: "x", count: size) + "\""
            case "many quoted words": step = "When I run \"" + String(repeating: "'a' ", count: size / 4) + "\""
            default: step = "Then I see \"" + String(repeating: "\\\"", count: size / 2) + "\""
            }
            return "Feature: f\n  Scenario: s\n    \(step)\n"
        }
        let small = try #require(try Self.checkSeconds(feature(100_000), limit: 5), "100 KB took over 5 s")
        let large = try Self.checkSeconds(feature(1_000_000), limit: max(20, small * 40))
        #expect(large != nil, "1 MB took over \(max(20, small * 40)) s (100 KB: \(small) s)")
        if let large { #expect(large < max(0.5, small) * 40, "100 KB: \(small) s, 1 MB: \(large) s") }
    }

    /// Hostile review: a 20 MB step line (or an outline whose placeholders fill one) took 50 s in `check`, spent the
    /// matcher's budget and was then called "undefined step". A step line over 1 MiB is a load error naming its
    /// line and size, at once, for check, test and --dry-run.
    @Test(arguments: ["a long line", "an outline that fills one"])
    func aStepLineOverTheLimitIsALoadErrorNotUndefined(shape: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text =
            shape == "a long line"
            ? "Feature: f\n  Scenario: s\n    Then I see \"" + String(repeating: "y", count: 2_000_000) + "\"\n"
            : "Feature: f\n  Scenario Outline: s\n    Then I see \"" + String(repeating: "<a>", count: 20_000)
                + "\"\n    Examples:\n      | a |\n      | " + String(repeating: "y", count: 1_000) + " |\n"
        let feature = try CLI.write(text, "long.feature", in: directory)
        for command in [["check"], ["test"], ["test", "--dry-run"]] {
            let started = ContinuousClock.now
            let result = try CLI.run(command + [feature])
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            #expect(result.status == 3, "\(command): \(result.status) \(result.stderr.prefix(300))")
            #expect(
                result.stderr.contains("long.feature:3: the step") && result.stderr.contains("over the limit of 1 MiB"),
                "\(command): \(result.stderr.prefix(300))")
            #expect(!result.stderr.contains("undefined") && result.stderr.count < 1_000, "\(command): \(result.stderr.prefix(300))")
            // A hang guard, not a speed test (a quadratic fill took minutes): wide enough for a loaded CI machine.
            #expect(seconds < 90, "\(command) took \(seconds) s")
        }
    }

    /// A pattern the step cannot use is a load error (exit 3, FILE:LINE, the regex's own message) for check, test
    /// and --dry-run, as a stub's is; it used to pass check and fail only at run time as "could not run".
    @Test(arguments: [
        ("a{1001}", "repetition counts above 1000"), ("(", "unclosed group"), ("(?<=a)b", "lookbehind"),
        ("\\p{L}", "Unicode classes"),
    ])
    func aStepsRegularExpressionIsCheckedAtLoad(pattern: String, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: f
              Scenario: s
                When I run "echo hi"
                Then I see a line matching "\(pattern)"
            """, "r.feature", in: directory)
        for command in [["check"], ["test"], ["test", "--dry-run"]] {
            let result = try CLI.run(command + [feature])
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains("r.feature:4: invalid regular expression \"\(pattern)\": \(message)"), "\(command): \(result.stderr)"
            )
        }
    }

    /// A `-D` value is data in a command line: the line is split into words first and `${NAME}` substituted
    /// inside each (as a shell does with "${A}"), so a value never becomes quotes or word breaks.
    @Test(arguments: ["a b", "a'b c'd", "it's", "x\\\" y"])
    func aDefinedValueIsOneWordAsWritten(value: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: d
              Scenario: run
                When I run "printf <%s> x ${A} y"
                Then the output is:
                  \"\"\"
                  <x><\(value)><y>
                  \"\"\"
              Scenario: launch
                Given the program "${DUMP}"
                When I launch the program with "x ${A} y"
                Then the exit code is 0
                Then I see "\\"x\\",${JSON},\\"y\\"]"
            """, "d.feature", in: directory)
        let json = "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let result = try CLI.run(["test", "-D", "A=\(value)", "-D", "DUMP=\(CLI.argvDump)", "-D", "JSON=\(json)", feature])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 2 passed"))
    }

    /// A quoted value's escapes are \" \\ \n \t, read in one pass: `\\n` is a backslash and n (it was a
    /// backslash and a newline, and a literal backslash-n could not be written); `\d` stays for a regex.
    @Test func aQuotedValuesEscapesAreReadInOnePass() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            #"""
            Feature: e
              Scenario: backslash and n
                When I run "printf %s 'a\\nb'"
                Then I see "a\\nb"
                Then I do not see "\n"
              Scenario: newline and tab
                When I run "printf 'a\nb\tc'"
                Then the output is:
                  """
                  a
                  b	c
                  """
                Then I see "b\tc"
              Scenario: a quote and a regex
                When I run "printf '\"x\" 42'"
                Then I see "\"x\""
                Then I see a line matching "^\"x\" \d+$"
            """#, "e.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 scenarios: 3 passed"))
        #expect(try CLI.run(["help", "steps"]).stdout.contains(#"\\n is a backslash and n"#))
    }

    /// `-D` is checked as `-f` is: a name given twice names both (it silently kept the last), a name `${…}`
    /// could never use and a missing name are usage errors, and an empty PROGRAM names no program; an empty value
    /// elsewhere is an empty argument.
    @Test(arguments: [
        (["-D", "A=1", "-D", "A=2"], "-D A is given twice: -D A=… (argument 1) and -D A=… (argument 3)"),
        (["-D", "1A=x"], "'1A' is not a name"),
        (["-D", "=x"], "no name before ="), (["-D", "PROGRAM="], "PROGRAM= names no program"),
    ])
    func aDefineIsCheckedAsAFlagIs(defines: [String], message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: d
              Scenario: s
                When I run "printf <%s> ${A}"
                Then the output is:
                  \"\"\"
                  <>
                  \"\"\"
            """, "d.feature", in: directory)
        for command in [["check"], ["test"]] {
            let result = try CLI.run(command + defines + [feature])
            #expect(result.status == 2, "\(command) \(defines): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(command) \(defines): \(result.stderr)")
        }
        let empty = try CLI.run(["test", "-D", "A=", feature])
        #expect(empty.status == 0, "\(empty.stdout)\(empty.stderr)")
    }

    /// `--tags '@a\'` is refused (it selected @a, as Cucumber's reference does: a cut-short `@a\ b` nobody
    /// meant), and an empty selection names what selected instead of blaming a tag expression nobody gave.
    @Test func aSelectionIsNamedAndATrailingBackslashRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  @a\n  Scenario: s\n    When I run \"true\"\n", "t.feature", in: directory)
        let backslash = try CLI.run(["test", "--tags", #"@a\"#, feature])
        #expect(backslash.status == 2 && backslash.stderr.contains(#"a lone \ at the end"#), "\(backslash.stdout)\(backslash.stderr)")
        for (arguments, named) in [
            (["--name", "zzz", feature], #"--name "zzz" matched none of 1 scenarios"#),
            ([feature + ":99"], "t.feature:99 matched none of 1 scenarios"),
            (["--tags", "@b", feature], "--tags @b matched none of 1 scenarios"),
        ] {
            let result = try CLI.run(["test"] + arguments)
            #expect(result.status == 5, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains(named) && !(arguments.first != "--tags" && result.stderr.contains("tag expression")),
                "\(arguments): \(result.stderr)")
        }
    }
}
