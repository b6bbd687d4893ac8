import Foundation
import Testing

/// Selecting and reporting the way Cucumber and CI users expect (issue 17, first points).
@Suite struct SelectionEndToEndTests {
    static let feature = """
        Feature: selection
          Scenario: first passes
            When I run "true"
            Then the exit code is 0

          Scenario: second fails
            When I run "false"
            Then the exit code is 0

          Scenario Outline: rows
            When I run "<command>"
            Then the exit code is 0

            Examples:
              | command |
              | true    |
              | true    |
        """

    @Test func aLineSelectsItsScenarioOrRowAndNameSelectsByPattern() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.feature, "s.feature", in: directory)
        let line = try CLI.run(["test", "\(path):2"])
        #expect(line.status == 0 && line.stdout.contains("1 scenario: 1 passed"), "\(line.stdout)")
        let outline = try CLI.run(["test", "\(path):10"])
        #expect(outline.stdout.contains("2 scenarios: 2 passed"), "\(outline.stdout)")
        let row = try CLI.run(["test", "\(path):17"])
        #expect(row.stdout.contains("1 scenario: 1 passed"), "\(row.stdout)")
        let named = try CLI.run(["test", "--name", "^sec", path])
        #expect(named.status == 1 && named.stdout.contains("1 scenario: 0 passed, 1 failed"), "\(named.stdout)")
    }

    @Test func failFastStartsNothingAfterAFailure() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.feature, "s.feature", in: directory)
        let result = try CLI.run(["test", "--fail-fast", path])
        #expect(result.status == 1)
        // The summary counts every selected scenario, as the reports do (C6: it said "2 scenarios" for 4).
        #expect(result.stdout.contains("4 scenarios: 1 passed, 1 failed, 2 not run"), "\(result.stdout)")
        #expect(result.stderr.contains("--fail-fast: 2 scenarios not run"))
    }

    @Test func dryRunResolvesStepsAndLaunchesNothing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("ran").path
        let good = try CLI.write("Feature: d\n  Scenario: s\n    When I run \"touch \(marker)\"\n", "good.feature", in: directory)
        let dry = try CLI.run(["test", "--dry-run", good])
        #expect(dry.status == 0 && dry.stdout.contains("1 scenario resolved, 0 undefined steps; nothing launched"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        let bad = try CLI.write("Feature: d\n  Scenario: s\n    When I jump\n", "bad.feature", in: directory)
        let undefined = try CLI.run(["test", "--dry-run", bad])
        #expect(undefined.status == 1 && undefined.stderr.contains("undefined step \"When I jump\""))
    }

    @Test func githubFormatAnnotatesTheFailingStepAndWritesASummary() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.feature, "s.feature", in: directory)
        let summary = directory.appendingPathComponent("summary.md").path
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = summary
        let result = try CLI.run(["test", "--format", "github", path], environment: environment)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "::error file=\(path),line=8,title=selection%3A second fails::expected exit code 0, the program exited with code 1"),
            "\(result.stdout)")
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(markdown.contains("| ❌ | selection: second fails |") && markdown.contains("3 of 4 passed"), "\(markdown)")
    }
}

@Suite struct InitEndToEndTests {
    @Test func initWritesAStarterThatPassesAndNeverOverwrites() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("project").path
        let made = try CLI.run(["init", "--program", "cat", project])
        #expect(made.status == 0 && made.stdout.contains("wrote \(project)/features/example.feature"))
        let run = try CLI.run(["test", project + "/features"])
        #expect(run.status == 0 && run.stdout.contains("3 scenarios: 3 passed"), "\(run.stdout)\(run.stderr)")
        let again = try CLI.run(["init", project])
        #expect(again.status == 2 && again.stderr.contains("init will not overwrite"))
        #expect(try CLI.run(["check", project + "/features", project + "/stubs"]).status == 0)
    }
}

@Suite struct ShellIntegrationEndToEndTests {
    /// Loads the bash completion into bash and asks it what it completes for a few prefixes.
    @Test(.enabled(if: CLI.hasCommand("bash"), "needs bash"))
    func bashCompletesSubcommandsOptionsAndValues() throws {
        let script = try CLI.run(["completions", "bash"]).stdout
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(script, "c.bash", in: directory)
        func complete(_ words: [String]) throws -> Set<String> {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let text = try CLI.output(
                of: [
                    "bash", "-c",
                    "source \(file); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _sut_launch; printf '%s\\n' \"${COMPREPLY[@]}\"",
                ],
                in: directory)
            return Set(text.split(separator: "\n").map(String.init))
        }
        #expect(try complete(["sut-launch", "ser"]).contains("serve"))
        #expect(try complete(["sut-launch", "--flags-in", ""]) == ["args", "env", "both"])
        #expect(try complete(["sut-launch", "--launcher", "f"]) == ["foundation"])
        #expect(try complete(["sut-launch", "test", "--fail"]) == ["--fail-fast", "--fail-on-flaky"])
        #expect(try complete(["sut-launch", "test", "--color", ""]) == ["auto", "always", "never"])
        _ = try CLI.write("Feature: x\n", "login.feature", in: directory)
        #expect(try complete(["sut-launch", "test", "log"]).contains("login.feature"))
        #expect(
            try CLI.run(["completions", "fish"]).stdout.contains(
                "complete -c sut-launch -n '__fish_seen_subcommand_from test' -l fail-fast"))
        #expect(try CLI.run(["completions", "zsh"]).stdout.hasPrefix("#compdef sut-launch"))
        #expect(try CLI.run(["completions", "tcsh"]).status == 2)
    }

    @Test(.enabled(if: CLI.hasCommand("groff"), "needs groff (apt-get install groff-base)"))
    func theManPageRendersWithItsSections() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try CLI.write(try CLI.run(["manpage"]).stdout, "sut-launch.1", in: directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = ["groff", "-man", "-Tutf8", "-P", "-cbou", page]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "TEST", "EXIT STATUS", "ENVIRONMENT"] {
            #expect(text.contains("\n" + section + "\n"), "missing section \(section)")
        }
        #expect(text.contains("--fail-fast") && text.contains("--flags-in args|env|both"))
    }

    /// R9D-6: a word after `help TOPIC`, `completions SHELL` or `manpage` was ignored (exit 0); `help completions`
    /// suggested the word itself; `completions tcsh` said a shell was needed; the topic list left out four topics.
    @Test func extraWordsAreRefusedAndEveryTopicIsNamed() throws {
        for arguments in [
            ["help", "serve", "extra"], ["help", "serve", "--bogus"], ["completions", "bash", "extra"], ["completions", "zsh", "--bogus"],
            ["manpage", "extra"],
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("'\(arguments.last!)' is one word too many"), "\(result.stderr)")
        }
        for topic in ["completions", "manpage", "record", "report", "coverage", "admin"] {
            let result = try CLI.run(["help", topic])
            #expect(result.status == 0 && result.stdout.contains("USAGE"), "\(topic): \(result.stderr)")
        }
        let tcsh = try CLI.run(["completions", "tcsh"])
        #expect(tcsh.status == 2 && tcsh.stderr.contains("'tcsh' is not a shell"), "\(tcsh.stderr)")
        let bogus = try CLI.run(["help", "bogus"])
        #expect(bogus.status == 2, "\(bogus.stderr)")
        for topic in ["record", "report", "coverage", "admin", "completions", "manpage"] {
            #expect(bogus.stderr.contains(topic), "\(bogus.stderr)")
        }
    }
}

@Suite struct ProgressEndToEndTests {
    @Test func aLogGetsALineForAScenarioStillRunningAfterFiveSeconds() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            "Feature: slow\n  Scenario: takes a while\n    When I run \"sleep 5.4\"\n    Then the exit code is 0\n",
            "slow.feature", in: directory)
        let result = try CLI.run(["test", "--step-timeout", "20s", feature])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains("… still running after 5s: slow: takes a while (\(feature):2)\n✓ slow: takes a while"),
            "\(result.stdout)")
    }

    /// On a terminal with --jobs 2, both running scenarios have a live line.
    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 for a pseudo-terminal"))
    func aTerminalShowsEveryRunningScenario() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: live
              Scenario: one
                When I run "sleep 0.5"
              Scenario: two
                When I run "sleep 0.5"
            """, "live.feature", in: directory)
        let text = try CLI.runOnTerminal(["test", "--jobs", "2", feature], environment: ["-u", "NO_COLOR", "TERM=xterm"])
        #expect(text.contains("[0/2] live: one") && text.contains("[0/2] live: two"), "\(text)")
        #expect(text.contains("2 scenarios: 2 passed"))
    }
}

@Suite struct ShardTimingsEndToEndTests {
    /// Balanced by measured time: the one slow scenario gets a shard to itself; together the shards are
    /// an exact partition, the same on every machine.
    @Test func shardsBalanceByTheTimesOfAnEarlierRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = (1...6).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined()
        let feature = try CLI.write("Feature: timed\n" + scenarios, "t.feature", in: directory)
        let results = (1...6).map { "{\"feature\":\"timed\",\"name\":\"s\($0)\",\"durationMs\":\($0 == 4 ? 10_000 : 1_000)}" }.joined(
            separator: ",")
        let report = try CLI.write("{\"results\":[\(results)]}", "report.json", in: directory)
        func shard(_ index: Int) throws -> [String] {
            let listed = try CLI.run(["test", "--list", "--shard", "\(index)/2", "--shard-timings", report, feature])
            return listed.stdout.split(separator: "\n").compactMap {
                $0.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        let first = try shard(1)
        let second = try shard(2)
        #expect(first == ["s4"], "\(first)")
        #expect(second == ["s1", "s2", "s3", "s5", "s6"], "\(second)")
        let junit = directory.appendingPathComponent("j.xml").path
        _ = try CLI.run(["test", "--junit", junit, feature])
        #expect(try CLI.run(["test", "--list", "--shard", "1/2", "--shard-timings", junit, feature]).status == 0)
        #expect(try CLI.run(["test", "--shard", "1/2", "--shard-timings", feature, feature]).status == 2)
    }

    /// R10B-11 (and round 9's leftover): `--name` had a step budget per name and nothing over them all: `(a{1,50})+$`
    /// over 200 names of 200 characters took 33 s for `--list`, five names of 100,000 characters minutes, then selected
    /// nothing. All the names share 10 s: past it, a usage error (exit 2) naming `--name` and where it stopped, nothing run.
    /// (1,000 names of 400: far more than 10 s of matching on any machine, so the limit, not the speed, decides.)
    @Test(arguments: [(1000, 400), (3, 40_000)])
    func aSlowNamePatternOverManyLongNamesStopsAtItsTimeLimit(scenarios count: Int, length: Int) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "a", count: length)
        let scenarios = (1...count).map { "  Scenario: \(name) \($0)\n    When I run \"true\"\n" }.joined()
        let feature = try CLI.write("Feature: N\n" + scenarios, "n.feature", in: directory)
        let started = Date()
        let result = try CLI.run(["test", "--list", "--name", "(a{1,50})+$", "--report", "r.json", feature], cwd: directory)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let stopped = ["did not decide within 10.0 seconds", "spent its step budget of 25000000 steps on one name"]
        #expect(stopped.contains { result.stderr.contains("--name: the pattern \($0)") }, "\(result.stderr)")
        #expect(result.stderr.contains("n.feature:"), "\(result.stderr)")
        #expect(took < 60, "took \(took)s")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains("\"exitCode\" : 2") || report.contains("\"exitCode\":2"), "\(report.prefix(300))")
        // A pattern that decides at once still selects.
        let quick = try CLI.run(["test", "--list", "--name", " 3$", feature], cwd: directory)
        #expect(quick.status == 0 && quick.stdout.contains(" 3"), "\(quick.stdout.suffix(200))\(quick.stderr)")
    }

    /// Hostile review: a repeated option silently kept its last value (`--tags @x --tags @cli` dropped @x and ran
    /// two scenarios; `--shard 1/2 --shard 2/2` ran one shard; `--timeout 1s --timeout 0` ran with none). Now
    /// `--tags` twice must both hold (Cucumber's and), `--name` twice selects either, and any other value option
    /// given twice is a usage error naming both.
    @Test func repeatedOptionsCombineOrAreRefusedNeverSilentlyReplaced() throws {
        let feature = CLI.packageRoot.appendingPathComponent("Fixtures/features-cli/readme.feature").path
        let tags = try CLI.run(["test", "--tags", "@x", "--tags", "@cli", feature])
        #expect(tags.status == 5, "@x and @cli select nothing: \(tags.status) \(tags.stdout)\(tags.stderr)")
        let both = try CLI.run(["test", "--list", "--tags", "@cli", "--tags", "not @none", feature])
        #expect(both.status == 0 && both.stdout.contains("sort orders") && both.stdout.contains("wc counts"), "\(both.stdout)")
        let names = try CLI.run(["test", "--list", "--name", "zzz", "--name", "sort", feature])
        #expect(names.status == 0 && names.stdout.contains("sort orders") && !names.stdout.contains("wc counts"), "\(names.stdout)")
        for (arguments, option) in [
            (["test", "--shard", "1/2", "--shard", "2/2", feature], "--shard"),
            (["test", "-j", "1", "--jobs", "2", feature], "--jobs"),
            (["--timeout", "1s", "--timeout", "0", "sleep", "3"], "--timeout"),
            (["--port", "0", "-p", "0", "true"], "--port"),
            (["serve", "--host", "127.0.0.1", "--host", "127.0.0.2"], "--host"),
            (["init", "--program", "a", "--program", "b", "never-made"], "--program"),
        ] {
            let result = try CLI.run(arguments)
            #expect(
                result.status == 2 && result.stderr.contains("\(option) is given twice") && result.stderr.contains("(argument 1)"),
                "\(arguments): \(result.status) \(result.stderr)")
        }
    }
}
