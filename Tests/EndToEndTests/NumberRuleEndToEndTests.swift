import Foundation
import Testing

/// One number rule wherever a number is read, tried with the built binary (re-attack r5c findings 5 and 10).
/// `key=value`: a text JSON reads as a number is a number, and one that would not arrive as written is refused in
/// `:=`'s words, never turned into text (`-f n=2e-324` was `"2e-324"` while `n=4.9e-324` was refused). Whole numbers in
/// options, tags and environment shards: bare digits, as in steps (`--retries -0`, `--retries 01`, `@retries=-0` were
/// read). A duration of 0 is no timeout for every duration option (`--scenario-timeout 0` failed every scenario).
@Suite struct NumberRuleEndToEndTests {
    static let unkept = [
        "2e-324", "3e-324", "4.9e-324", "1e-400", "1e400", "1.7976931348623159e308", "1.0000000000000000001",
        "9223372036854775808", "-9223372036854775809", "-0", String(repeating: "9", count: 10_000),
    ]

    /// Finding 5 on `-f`/`-a`, `:=` and a flags file: each refused in one line naming the flag, with the way to send text.
    @Test func aNumberThatWouldNotArriveAsWrittenIsRefusedInEveryForm() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for value in Self.unkept {
            let shown = String(value.prefix(30))
            for option in ["-f", "-a"] {
                let inferred = try CLI.run(["-q", option, "n=\(value)", CLI.myApp, "flags"])
                #expect(inferred.status == 2, "\(option) n=\(shown): \(inferred.status) \(inferred.stdout)")
                #expect(inferred.stderr.split(separator: "\n").count == 1, "\(inferred.stderr.prefix(300))")
                #expect(inferred.stderr.contains("error: \(option) 'n="), "\(inferred.stderr.prefix(300))")
                #expect(inferred.stderr.contains("send it as text with n:='\""), "\(inferred.stderr.prefix(300))")
                #expect(inferred.stdout.isEmpty, "nothing launched: \(inferred.stdout)")
            }
            let json = try CLI.run(["-q", "-f", "n:=\(value)", CLI.myApp, "flags"])
            #expect(json.status == 2 && json.stderr.split(separator: "\n").count == 1, "n:=\(shown): \(json.stderr.prefix(300))")
            #expect(!json.stderr.contains("or use n="), "n=… is refused too, never offered: \(json.stderr.prefix(300))")
            let file = try CLI.write("{\"featureFlags\": {\"n\": \(value)}}", "flags.json", in: directory)
            let fromFile = try CLI.run(["-q", "--flags-file", file, CLI.myApp, "flags"])
            #expect(fromFile.status == 3 && fromFile.stderr.contains("flags.json:1:"), "\(shown): \(fromFile.stderr.prefix(300))")
        }
        // The same text quoted arrives as text, and a number a Double keeps arrives as that number.
        let quoted = try CLI.run(["-q", "-f", #"n:="2e-324""#, "-f", "m=1e3", "-f", "k=007", "-f", "z=-0.0", CLI.myApp, "flags"])
        #expect(quoted.status == 0, "\(quoted.stderr)")
        #expect(quoted.stdout.contains(#"feature flags: {"k":"007","m":1000.0,"n":"2e-324","z":-0.0}"#), "\(quoted.stdout)")
    }

    /// Finding 5 in a scenario: `Given the feature flag "n" is "2e-324"` fails its step with the same words.
    @Test func aFlagStepRefusesWhatTheOptionRefuses() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for value in ["2e-324", "1e400", "-0"] {
            let feature = "Feature: F\n  Scenario: s\n    Given the feature flag \"n\" is \"\(value)\"\n    When I launch the program\n"
            _ = try CLI.write(feature, "f.feature", in: directory)
            let result = try CLI.run(["test", "-D", "PROGRAM=\(CLI.myApp)", "f.feature"], cwd: directory)
            #expect(result.status == 1, "\(value): \(result.stdout) \(result.stderr)")
            #expect((result.stdout + result.stderr).contains("'n=\(value)': the "), "\(result.stdout) \(result.stderr)")
            #expect((result.stdout + result.stderr).contains("send it as text with n:='\"\(value)\"'"), "\(result.stdout)")
        }
    }

    /// Finding 5's Host note: `flag set n=3e-324` and `n=1e400` were applied as text; refused now as `-f` refuses them.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func flagSetRefusesTheInferredNumbersTheCLIRefuses() throws {
        let values = ["2e-324", "3e-324", "1e400", "9223372036854775808", "-0"]
        let replies = try HostControlCommandEndToEndTests.replies(
            to: values.map { "flag set greeting=\($0)" } + ["flag set greeting=1e3", "quit"])
        try #require(replies.count == values.count + 2)
        for (value, reply) in zip(values, replies) {
            #expect(reply.hasPrefix("error: 'greeting=\(value)': the "), "\(value): \(reply)")
            #expect(reply.contains("send it as text with greeting:='\"\(value)\"'"), "\(value): \(reply)")
            let cli = try CLI.run(["-q", "-f", "greeting=\(value)", "true"])
            #expect(cli.stderr.contains(String(reply.dropFirst("error: ".count))), "the same words: \(reply) / \(cli.stderr)")
        }
        #expect(!replies[values.count].hasPrefix("error:"), "1e3 is the number 1000.0: \(replies[values.count])")
    }

    /// Finding 10: every whole-number option reads bare digits, in one wording naming the option.
    @Test func wholeNumberOptionsRefuseSignsAndLeadingZeros() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        let stubs = try CLI.write("{\"routes\": []}", "stubs.json", in: directory)
        let cases: [(String, [String], [String])] = [
            ("--retries", ["test", "--list", "--retries"], ["-0", "00", "01", "+1", "٣", "３"]),
            ("--jobs", ["test", "--list", "--jobs"], ["-0", "00", "01", "+1", "02"]),
            ("--shard", ["test", "--list", "--shard"], ["01/2", "1/02", "+1/2", "-0/2", "auto/02", "auto/-0"]),
            ("--port", ["--stub", stubs, "--port"], ["-0", "00", "01", "+80"]),
            ("--journal-limit", ["--stub", stubs, "--port", "0", "--journal-limit"], ["-0", "01"]),
        ]
        for (name, before, values) in cases {
            for value in values {
                var arguments = before + [value]
                if before.first == "test" { arguments.append(feature) } else { arguments.append("true") }
                let result = try CLI.run(arguments, cwd: directory)
                #expect(result.status == 2, "\(name) \(value.debugDescription): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(name) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                if name != "--shard" {
                    #expect(result.stderr.contains("(bare digits: no sign, no leading zero)"), "\(name) \(value): \(result.stderr)")
                }
            }
        }
        let serve = try CLI.run(["serve", "--port", "0", "--max-request-journal-entries", "01"], cwd: directory)
        #expect(serve.status == 2 && serve.stderr.contains("--max-request-journal-entries"), "\(serve.stderr)")
        // A CI's shard variable is read by the same rule.
        let ci = try CLI.run(
            ["test", "--list", "--shard", "auto", feature],
            environment: ["CI_NODE_INDEX": "01", "CI_NODE_TOTAL": "2", "PATH": "/usr/bin:/bin"],
            cwd: directory)
        #expect(ci.status == 2 && ci.stderr.contains("CI_NODE_INDEX='01'"), "\(ci.stderr)")
    }

    /// Finding 10 in tags and durations: `@retries=-0`, `@retries=01`, `@timeout=05s` are load errors at their line, and
    /// a duration option with a leading zero is a usage error.
    @Test func tagsAndDurationsFollowTheRule() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for tag in ["@retries=-0", "@retries=01", "@retries=+1", "@timeout=05s", "@timeout=00", "@timeout=.5s"] {
            _ = try CLI.write("Feature: f\n  \(tag)\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
            for command in ["check", "test"] {
                let result = try CLI.run([command, "f.feature"], cwd: directory)
                #expect(result.status == 3, "\(command) \(tag): \(result.status) \(result.stdout) \(result.stderr)")
                #expect(result.stderr.contains("f.feature:3"), "\(command) \(tag): \(result.stderr)")
            }
        }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    When I run \"true\"\n", "f.feature", in: directory)
        for (option, value) in [("--step-timeout", "05s"), ("--scenario-timeout", "01"), ("--scenario-timeout", ".5s")] {
            let result = try CLI.run(["test", option, value, feature], cwd: directory)
            #expect(result.status == 2 && result.stderr.contains(option), "\(option) \(value): \(result.stderr)")
        }
        for (option, value) in [("--timeout", "05s"), ("--kill-grace", "00"), ("-t", "-0"), ("--coverage-threshold", "080")] {
            let result = try CLI.run(["--coverage", directory.appendingPathComponent("cov").path, option, value, "true"], cwd: directory)
            #expect(result.status == 2 && result.stderr.split(separator: "\n").count == 1, "\(option) \(value): \(result.stderr)")
            #expect(result.stderr.contains("\(option) '\(value)'"), "\(option) \(value): \(result.stderr)")
        }
    }

    /// Finding 10: a duration of 0 means no timeout for every duration option, as the launcher's `--timeout 0` always
    /// did: `--scenario-timeout 0` and `@timeout=0` failed every scenario at once ("reached the scenario's 0ms timeout").
    @Test func aZeroDurationIsNoTimeoutEverywhere() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let steps =
            "    When I launch the program with \"-c 'sleep 0.4; echo ready'\"\n    Then I see \"ready\"\n    Then the exit code is 0\n"
        let plain = try CLI.write("Feature: f\n  Scenario: s\n" + steps, "f.feature", in: directory)
        let tagged = try CLI.write("Feature: g\n  @timeout=0\n  Scenario: s\n" + steps, "g.feature", in: directory)
        let zeroes: [[String]] = [
            ["--scenario-timeout", "0", plain], ["--step-timeout", "0", plain], ["--scenario-timeout", "0", "--step-timeout", "0", plain],
            [tagged], ["--step-timeout", "0", tagged],
        ]
        for arguments in zeroes {
            let result = try CLI.run(["test", "-D", "PROGRAM=/bin/sh"] + arguments, cwd: directory)
            #expect(result.status == 0, "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(!result.stdout.contains("0ms timeout"), "\(result.stdout)")
        }
        // A step timeout still bounds a wait when it is not 0: 100ms is less than the program's 0.4 s.
        let short = try CLI.run(["test", "-D", "PROGRAM=/bin/sh", "--step-timeout", "100ms", plain], cwd: directory)
        #expect(short.status == 1, "\(short.stdout)")
        for arguments in [["--timeout", "0", "true"], ["--kill-grace", "0", "true"], ["-t", "0s", "sh", "-c", "sleep 0.2"]] {
            let result = try CLI.run(arguments, cwd: directory)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }
}
