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
}
