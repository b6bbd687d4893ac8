import AutomationHost
import Foundation
import Testing

@Suite struct FlagsEndToEndTests {
    @Test func theREADMEExampleLogsInWithFlags() throws {
        let result = try CLI.run([
            "--flag", "skipPreActiveCheck=true", "--automation", "simulateUserAlreadyLoggedIn=true", CLI.myApp, "login",
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "MyAppCLI (under test: yes)\npre-active check: skipped\nalready logged in as test-user\n")
        #expect(result.stderr == "")
    }

    @Test func flagsRoundTripIntoAProgramLinkingTheHost() throws {
        let result = try CLI.run([
            "-f", "greeting=hi", "-f", "n:=1.5", "-a", #"user:={"name":"Ada Lovelace","ids":[1,2]}"#,
            "--entry-point", "albums", CLI.myApp, "flags", "extra arg",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"feature flags: {"greeting":"hi","n":1.5}"#))
        #expect(result.stdout.contains(#"automation flags: {"entryPoint":"albums","user":{"ids":[1,2],"name":"Ada Lovelace"}}"#))
        #expect(result.stdout.contains("arguments: flags extra arg"))
    }

    /// Found by a hostile review: a flag of another type (`True` is a string) silently tested the default; an
    /// argument of the program's own that starts with EPHEMERAL_ beat the test's `-f`; `exit 9999999999` exited 0.
    @Test func mistypedFlagsAreNamedAndTheProgramsOwnArgumentsAreNeverFlags() throws {
        let mistyped = try CLI.run(["-f", "skipPreActiveCheck=True", CLI.myApp, "home"])
        #expect(mistyped.stdout.contains("pre-active check: ok"))
        #expect(
            mistyped.stderr
                == "AutomationBridge: feature flag skipPreActiveCheck is \"True\" (a JSON string), not a Bool; the program's default applies\n"
        )
        for placement in [[], ["--flags-in", "env", "-f", "greeting=x"]] {
            let own = try CLI.run(placement + [CLI.myApp, "greet", #"EPHEMERAL_{"greeting":"injected"}"#])
            #expect(!own.stdout.contains("injected"), "\(placement)")
        }
        let exit = try CLI.run([CLI.myApp, "exit", "9999999999"])
        #expect(exit.status == 64)
    }

    /// Hostile review: `-f c:=12345678901234567890` and the same number in a flags file reached the program as
    /// 1.2345678901234567e+19, exit 0. An integer beyond 64 bits is refused where it is written; as a string or a
    /// decimal it travels as written.
    @Test func integersBeyondSixtyFourBitsAreRefusedNotRounded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for value in ["12345678901234567890", "-9223372036854775809", String(repeating: "9", count: 10_000), "[1, 99999999999999999999]"] {
            let flag = try CLI.run(["-f", "c:=\(value)", CLI.myApp, "flags"])
            #expect(
                flag.status == 2 && flag.stderr.contains("does not fit in 64 bits"), "\(value.prefix(30)): \(flag.status) \(flag.stderr)")
            #expect(flag.stderr.count < 400, "the message quotes a prefix: \(flag.stderr.count) bytes")
            let file = try CLI.write(#"{"featureFlags": {"y": \#(value)}}"#, "flags.json", in: directory)
            let fromFile = try CLI.run(["--flags-file", file, CLI.myApp, "flags"])
            #expect(
                fromFile.status == 3 && fromFile.stderr.contains("flags.json:1:") && fromFile.stderr.contains("does not fit in 64 bits"),
                "\(value.prefix(30)): \(fromFile.status) \(fromFile.stderr)")
        }
        let edge = try CLI.run([
            "-f", "a:=9223372036854775807", "-f", "b:=-9223372036854775808", "-f", #"c:="12345678901234567890""#, CLI.myApp, "flags",
        ])
        #expect(edge.status == 0, "\(edge.stderr)")
        #expect(
            edge.stdout.contains("9223372036854775807") && edge.stdout.contains("-9223372036854775808")
                && edge.stdout.contains("12345678901234567890"), "\(edge.stdout)")
    }

    /// Hostile review (second round): the caller's proxy exclusions were broken whenever a mock server ran: a
    /// `NO_PROXY` entry was lost for curl (which reads `no_proxy` first, and that one was set afresh), `no_proxy=*`
    /// became `*,127.0.0.1,localhost` (no longer "all"), and a `--host` other than 127.0.0.1 was not excluded.
    @Test func theCallersProxyExclusionsAreKeptAndTheServersHostAdded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"path": "/a", "body": "a"}]}"#, "routes.json", in: directory)
        let show = ["sh", "-c", #"printf '%s|%s' "$NO_PROXY" "$no_proxy""#]
        func run(_ environment: [String: String], _ options: [String] = []) throws -> String {
            var base = CLI.localEnvironment
            for key in ["NO_PROXY", "no_proxy"] { base.removeValue(forKey: key) }
            return try CLI.run(["-q", "-p", "0"] + options + ["--stub", stubs] + show, environment: base.merging(environment) { $1 }).stdout
        }
        #expect(try run(["NO_PROXY": "127.0.0.3"]) == "127.0.0.3,127.0.0.1,localhost|127.0.0.3,127.0.0.1,localhost")
        #expect(
            try run(["no_proxy": "a.test", "NO_PROXY": "b.test, a.test"])
                == "a.test,b.test,127.0.0.1,localhost|a.test,b.test,127.0.0.1,localhost")
        #expect(try run(["no_proxy": "*"]) == "*|*")
        #expect(try run([:], ["--host", "127.0.0.2"]) == "127.0.0.1,localhost,127.0.0.2|127.0.0.1,localhost,127.0.0.2")
        #expect(try run([:], ["--host", "::1"]) == "127.0.0.1,localhost,::1|127.0.0.1,localhost,::1")
        // And for real: curl through an http_proxy that does not exist reaches the server at --host directly.
        let through = try CLI.run(
            ["-q", "-p", "0", "--host", "127.0.0.2", "--stub", stubs, "sh", "-c", #"curl -sS "$SUT_MOCK_SERVER_URL/a""#],
            environment: CLI.localEnvironment.merging(["http_proxy": "http://127.0.0.1:9", "NO_PROXY": "x.test"]) { $1 })
        #expect(through.status == 0 && through.stdout == "a", "\(through.stdout) \(through.stderr)")
    }

    /// Found by a hostile review: a user's mockServerURL sent the program away from the run's server while its
    /// checks watched an idle one; `-e A=1 -e A=2` silently kept the last; a timeout under a nanosecond was none.
    @Test func whatWouldSilentlyChangeTheRunIsAUsageError() throws {
        let stubs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/stubs/routes.json").path
        let stale = try CLI.run(["--port", "0", "--stub", stubs, "-a", "mockServerURL=http://127.0.0.1:1", CLI.myApp, "fetch"])
        #expect(stale.status == 2 && stale.stderr.contains(#"automation flag "mockServerURL""#), "\(stale.stderr)")
        let twice = try CLI.run(["-e", "A=1", "-e", "A=2", "true"])
        #expect(twice.status == 2 && twice.stderr.contains("environment variable A is given twice"), "\(twice.stderr)")
        #expect(try CLI.run(["-e", "A=1", "-e", "AB=2", "true"]).status == 0)
        let tiny = try CLI.run(["-t", "0.0000000001s", "sleep", "5"])
        #expect(tiny.status == 124, "\(tiny.stderr)")
    }

    @Test func entryPointSelectsTheStartingScreen() throws {
        #expect(try CLI.run(["--entry-point", "search", CLI.myApp, "start"]).stdout.hasSuffix("screen: search\n"))
        #expect(try CLI.run([CLI.myApp, "start"]).stdout.hasSuffix("screen: main menu\n"))
        let unknown = try CLI.run(["--entry-point", "nowhere", CLI.myApp, "start"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.contains("unknown entry point \"nowhere\"; known entry points: search, albums"))
    }

    @Test func aProgramWithoutTheHostSeesTheDocumentedArgvAndEnvironment() throws {
        let result = try CLI.run(["-f", "a=1", "-f", "s=x y", "-a", "b=true", CLI.argvDump, "own", "--args"])
        let dump = try Dump(result.stdout)
        #expect(dump.argv == [CLI.argvDump, "UI_TEST_MODE", #"EPHEMERAL_{"a":1,"s":"x y"}"#, #"AUTOMATION_{"b":true}"#, "own", "--args"])
        #expect(dump.env["SUT_EPHEMERAL"] == #"{"a":1,"s":"x y"}"#)
        #expect(dump.env["SUT_AUTOMATION"] == #"{"b":true}"#)
        #expect(dump.env["SUT_UNDER_TEST"] == "1")
    }

    @Test func flagsInArgsOrEnvOnly() throws {
        let args = try Dump(try CLI.run(["--flags-in", "args", "-f", "a=1", CLI.argvDump, "x"]).stdout)
        #expect(args.argv == [CLI.argvDump, "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"])
        #expect(args.env["SUT_EPHEMERAL"] == nil)
        let env = try Dump(try CLI.run(["--flags-in", "env", "-f", "a=1", CLI.argvDump, "x"]).stdout)
        #expect(env.argv == [CLI.argvDump, "x"])
        #expect(env.env["SUT_EPHEMERAL"] == #"{"a":1}"#)
        // No flags asked for: argv exactly as written, empty objects in the environment.
        let none = try Dump(try CLI.run([CLI.argvDump, "x"]).stdout)
        #expect(none.argv == [CLI.argvDump, "x"])
        #expect(none.env["SUT_EPHEMERAL"] == "{}" && none.env["SUT_AUTOMATION"] == "{}" && none.env["SUT_UNDER_TEST"] == "1")
        let forced = try Dump(try CLI.run(["--flags-in", "both", CLI.argvDump]).stdout)
        #expect(forced.argv == [CLI.argvDump, "UI_TEST_MODE"])
        // With no flag of either kind, both travels as args does: {} beside a lone marker would read as the program's own.
        #expect(forced.env["SUT_EPHEMERAL"] == nil && forced.env["SUT_AUTOMATION"] == nil && forced.env["SUT_UNDER_TEST"] == "1")
        let shell = try CLI.run(["sh", "-c", "echo hi"])
        #expect(shell.status == 0 && shell.stdout == "hi\n")
    }

    @Test func awkwardValuesSurviveTheWholeTrip() throws {
        let value = "quote \" backslash \\ equals = newline \n unicode ✓ 🚀"
        let result = try CLI.run(["-f", "v=\(value)", CLI.argvDump])
        let dump = try Dump(result.stdout)
        let bridge = AutomationBridge(arguments: dump.argv, environment: dump.env)
        #expect(bridge.problems.isEmpty)
        #expect(bridge.ephemeralConfiguration.string("v") == value)
    }

    @Test func environmentOptionsLayerAsDocumented() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envFile = directory.appendingPathComponent("test.env")
        try "# test env\nexport FROM_FILE='file value'\nOVERRIDDEN=file\n".write(to: envFile, atomically: true, encoding: .utf8)
        let flagsFile = directory.appendingPathComponent("flags.json")
        try #"{"featureFlags":{"fromFile":true,"a":0},"env":{"FLAGS_ENV":"yes"}}"#.write(to: flagsFile, atomically: true, encoding: .utf8)
        var caller = CLI.localEnvironment
        caller["CALLER_SECRET"] = "hidden"
        let result = try CLI.run(
            [
                "--clear-env", "--env-file", envFile.path, "--flags-file", flagsFile.path, "-e", "OVERRIDDEN=cli",
                "-f", "a=1", "--cwd", directory.path, CLI.argvDump,
            ], environment: caller)
        let dump = try Dump(result.stdout)
        #expect(
            Set(dump.env.keys) == [
                "PATH", "HOME", "FROM_FILE", "OVERRIDDEN", "FLAGS_ENV", "SUT_EPHEMERAL", "SUT_AUTOMATION", "SUT_UNDER_TEST",
                "SUT_LAUNCH_ID",
            ])
        #expect(dump.env["FROM_FILE"] == "file value")
        #expect(dump.env["OVERRIDDEN"] == "cli")
        #expect(dump.env["SUT_EPHEMERAL"] == #"{"a":1,"fromFile":true}"#)
        #expect(dump.cwd == directory.resolvingSymlinksInPath().path || dump.cwd == directory.path)

        let inherited = try Dump(try CLI.run([CLI.argvDump], environment: caller).stdout)
        #expect(inherited.env["CALLER_SECRET"] == "hidden")
    }

    @Test func theReportCarriesWhatWasSent() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("run.json")
        let result = try CLI.run(
            ["--report", report.path, "-f", "a=1", "-e", "K=secret-value", CLI.argvDump, "x"],
            environment: ["PATH": "/usr/bin:/bin", "ARGV_DUMP_EXIT": "5"])
        #expect(result.status == 5)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["argv"] as? [String] == [CLI.argvDump, "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"])
        #expect(
            json["environmentKeys"] as? [String] == ["ARGV_DUMP_EXIT", "K", "PATH", "SUT_AUTOMATION", "SUT_EPHEMERAL", "SUT_UNDER_TEST"])
        #expect((json["featureFlags"] as? [String: Any])?["a"] as? Int == 1)
        #expect(json["exitCode"] as? Int == 5)
        #expect(json["programExitCode"] as? Int == 5)
        #expect(json["signal"] == nil)
        #expect(json["timedOut"] as? Bool == false)
        #expect(json["stdoutBytes"] as? Int == result.stdoutBytes)
        #expect((json["durationMs"] as? Double ?? -1) >= 0)
        #expect(!(String(decoding: try Data(contentsOf: report), as: UTF8.self).contains("secret-value")))
    }

    /// M7: a flags file's `mockServerURL` beside `--stub` was refused naming only `--flags-file`: now its file:line:column.
    @Test func aFlagsFilesMockServerURLBesideAStubIsNamedByLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = try CLI.write(
            "{\n  \"automationFlags\": {\n    \"mockServerURL\": \"http://elsewhere:1\"\n  }\n}\n", "f.json", in: directory)
        let stubs = try CLI.write(#"{"routes":[]}"#, "s.json", in: directory)
        let result = try CLI.run(["--port", "0", "--stub", stubs, "--flags-file", flags, "true"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("(--flags-file \(flags):3:5) would send the program away"), "\(result.stderr)")
    }

    /// M4: the report's argv[0] was the program as given with either launcher, while Foundation.Process sends the
    /// resolved path there: the report now says what each launcher sent, and `program` is the program as given in both.
    @Test func theReportsArgvIsWhatEachLauncherSent() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("dump").path
        try FileManager.default.copyItem(atPath: CLI.argvDump, toPath: program)
        for launcher in ["spawn", "foundation"] {
            let report = directory.appendingPathComponent("\(launcher).json")
            let result = try CLI.run(["--launcher", launcher, "--report", report.path, "./dump", "x"], cwd: directory)
            let sent = try Dump(result.stdout).argv
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            #expect(json["argv"] as? [String] == sent, "\(launcher): \(sent)")
            #expect(json["program"] as? String == "./dump")
            #expect(sent.first == (launcher == "spawn" ? "./dump" : program) && sent.dropFirst() == ["x"])
        }
    }
}
