import Foundation
import Testing

/// The flag variables (`SUT_UNDER_TEST`, `SUT_EPHEMERAL`, `SUT_AUTOMATION`, `SUT_FLAGS_IN`) say where the run placed the
/// flags: the run's alone, whatever `-e`, `--env-file` or a flags file's `env` gave.
@Suite struct FlagVariablesEndToEndTests {
    /// R9C-1: a `SUT_FLAGS_IN=env` given with `-e`, `--env-file` or a flags file's `env` survived a `both` run, and
    /// MyAppCLI read the run's own block (`UI_TEST_MODE EPHEMERAL_{…}`) as its command: exit 64. Now removed.
    @Test func aGivenFlagsInVariableDoesNotTurnTheRunsBlockIntoArguments() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envFile = try CLI.write("SUT_FLAGS_IN=env\n", "fi.env", in: directory)
        let flagsFile = try CLI.write(#"{"featureFlags":{"a":1},"env":{"SUT_FLAGS_IN":"env"}}"#, "fi.json", in: directory)
        for given in [["-e", "SUT_FLAGS_IN=env", "-f", "a=1"], ["--env-file", envFile, "-f", "a=1"], ["--flags-file", flagsFile]] {
            let run = try CLI.run(["-q"] + given + [CLI.myApp, "flags"])
            #expect(run.status == 0 && run.stdout.contains("arguments: flags\n"), "\(given): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains(#"feature flags: {"a":1}"#), "\(given): \(run.stdout)")
            let dump = try Dump(try CLI.run(["-q"] + given + [CLI.argvDump, "x"]).stdout)
            #expect(dump.env["SUT_FLAGS_IN"] == nil && dump.argv.dropFirst().first == "UI_TEST_MODE", "\(given): \(dump.env) \(dump.argv)")
        }
        let entry = try CLI.run(["-q", "-e", "SUT_FLAGS_IN=env", "--entry-point", "search", CLI.myApp, "start"])
        #expect(entry.status == 0, "\(entry.stdout)\(entry.stderr)")
    }

    /// R9C-1 (`--flags-in args`): a `-e SUT_AUTOMATION`/`SUT_EPHEMERAL` passed beside the run's `SUT_UNDER_TEST=1` and
    /// switched the Host library to the environment: the run's argv block became the program's arguments (exit 64),
    /// and the given automation flags were read. Under `args` the run sets `SUT_UNDER_TEST=1` alone.
    @Test func underFlagsInArgsGivenFlagVariablesAreRemoved() throws {
        let given = ["-e", #"SUT_AUTOMATION={"simulateUserAlreadyLoggedIn":true}"#, "-e", #"SUT_EPHEMERAL={"x":9}"#]
        let dump = try Dump(try CLI.run(["-q"] + given + ["--flags-in", "args", CLI.argvDump, "login"]).stdout)
        #expect(dump.env.filter { $0.key.hasPrefix("SUT_") && $0.key != "SUT_LAUNCH_ID" } == ["SUT_UNDER_TEST": "1"], "\(dump.env)")
        #expect(Array(dump.argv.dropFirst()) == ["UI_TEST_MODE", "login"], "\(dump.argv)")
        let flags = try CLI.run(["-q"] + given + ["--flags-in", "args", "-f", "a=1", CLI.myApp, "flags"])
        #expect(flags.status == 0 && flags.stdout.contains("arguments: flags\n"), "\(flags.stdout)\(flags.stderr)")
        #expect(flags.stdout.contains(#"feature flags: {"a":1}"#) && !flags.stdout.contains("\"x\""), "\(flags.stdout)")
    }

    /// R10C-12: where flags travel in argv alone (`--flags-in args`, `both` with no flag), a kind with no flags left its
    /// slot open: the program's own first argument `AUTOMATION_{…}`/`EPHEMERAL_{…}` was read as flags (logged in, check
    /// skipped) while the report said none were sent. Both kinds are now sent then, `{}` for an empty one. Both launchers.
    @Test func aProgramsOwnFirstArgumentIsNeverReadAsFlags() throws {
        let login = #"AUTOMATION_{"simulateUserAlreadyLoggedIn":true}"#
        let check = #"EPHEMERAL_{"skipPreActiveCheck":true}"#
        let cases: [([String], String)] = [
            (["--flags-in", "args", "-f", "a=1"], login), (["--flags-in", "args"], login), (["--flags-in", "args"], check),
            (["--flags-in", "both"], login), (["--flags-in", "both"], check), (["--flags-in", "args", "-a", "userName=ada"], check),
            (["--launcher", "foundation", "--flags-in", "args", "-f", "a=1"], login),
        ]
        for (options, own) in cases {
            let run = try CLI.run(["-q"] + options + [CLI.myApp, own, "login"])
            #expect(run.stdout.contains("unknown command \(own.prefix(12))"), "\(options) \(own): \(run.stdout)\(run.stderr)")
            #expect(!run.stdout.contains("already logged in") && !run.stdout.contains("pre-active check: skipped"), "\(run.stdout)")
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let own = try CLI.run(["-q", "--report", report, "--flags-in", "args", "-f", "a=1", CLI.myApp, login, "x"])
        #expect(own.stdout.contains("unknown command AUTOMATION_"), "\(own.stdout)")
        let sent = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        #expect((sent?["argv"] as? [String])?.dropFirst().first { $0.hasPrefix("AUTOMATION_") } == "AUTOMATION_{}", "\(sent ?? [:])")
        #expect((sent?["automationFlags"] as? [String: Any])?.isEmpty == true, "\(sent ?? [:])")
        #expect((sent?["featureFlags"] as? [String: Any])?["a"] as? Int == 1, "\(sent ?? [:])")
        // Any other first argument: the block as before, a kind with no flags left out.
        let dump = try Dump(try CLI.run(["-q", "--flags-in", "args", "-f", "a=1", CLI.argvDump, "EPHEMERAL"]).stdout)
        #expect(Array(dump.argv.dropFirst()) == ["UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "EPHEMERAL"], "\(dump.argv)")
    }

    /// R10C-10: what a run with no flag sends, and what the report's `flagsIn` says: the environment with `{}` for each
    /// kind (argv as written), and `--flags-in both` with no flag travels as `args` (`SUT_UNDER_TEST=1` alone), as the
    /// report now says (it said `both`).
    @Test func aRunWithNoFlagSendsEmptyObjectsAndTheReportSaysWhere() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let expected: [([String], [String], [String: String], String)] = [
            ([], ["x"], ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": "{}", "SUT_AUTOMATION": "{}"], "env"),
            (["--flags-in", "both"], ["UI_TEST_MODE", "x"], ["SUT_UNDER_TEST": "1"], "args"),
            (["--flags-in", "args"], ["UI_TEST_MODE", "x"], ["SUT_UNDER_TEST": "1"], "args"),
            (["--flags-in", "env"], ["x"], ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": "{}", "SUT_AUTOMATION": "{}"], "env"),
            (
                ["--flags-in", "both", "-f", "a=1"], ["UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"],
                ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": #"{"a":1}"#, "SUT_AUTOMATION": "{}"], "both"
            ),
        ]
        for (options, argv, variables, flagsIn) in expected {
            let dump = try Dump(try CLI.run(["-q", "--report", report] + options + [CLI.argvDump, "x"]).stdout)
            #expect(Array(dump.argv.dropFirst()) == argv, "\(options): \(dump.argv)")
            #expect(dump.env.filter { $0.key.hasPrefix("SUT_") && $0.key != "SUT_LAUNCH_ID" } == variables, "\(options): \(dump.env)")
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(written?["flagsIn"] as? String == flagsIn, "\(options): \(written ?? [:])")
        }
    }
}
