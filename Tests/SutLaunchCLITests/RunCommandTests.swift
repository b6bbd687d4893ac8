import AutomationHost
import ProcessEngine
import Testing

@testable import SutLaunchCLI

@Suite struct RunCommandTests {
    private func configuration(_ arguments: [String], files: [String: String] = [:]) throws -> RunPlan {
        let action = try RunCommand.parse(arguments, environment: ["PATH": "/bin", "HOME": "/root", "SECRET": "s"]) { path in
            guard let text = files[path] else { throw CocoaErrorLike() }
            return text
        }
        guard case .run(let configuration) = action else { throw CocoaErrorLike() }
        return configuration
    }
    struct CocoaErrorLike: Error {}

    private func usageError(_ arguments: [String], files: [String: String] = [:]) -> String? {
        do {
            _ = try configuration(arguments, files: files)
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func mainFormCollectsFlagsEnvironmentAndProgram() throws {
        let subject = try configuration([
            "--flag", "skipPreActiveCheck=true", "-f", "n:=3", "--automation=simulateUserAlreadyLoggedIn=true", "-aids:=[1]",
            "-e", "A=1", "--env", "B=x=y", "--timeout", "2s", "--kill-grace", "100ms", "--cwd", "/tmp", "--entry-point", "search",
            "--flags-in", "env", "--quiet", "--report", "r.json", "./MyAppCLI", "login", "--flag", "not-ours",
        ])
        #expect(subject.launch.program == "./MyAppCLI")
        #expect(subject.launch.arguments == ["login", "--flag", "not-ours"])
        #expect(subject.launch.flags.featureFlags == ["skipPreActiveCheck": true, "n": 3])
        #expect(subject.launch.flags.automationFlags == ["simulateUserAlreadyLoggedIn": true, "ids": [1]])
        #expect(subject.launch.flags.sentAutomationFlags(mockServerURL: nil)["entryPoint"] == "search")
        #expect(subject.launch.environment.map(\.key) == ["A", "B"])
        #expect(subject.launch.environment.last?.value == "x=y")
        #expect(subject.launch.timeout == .seconds(2))
        #expect(subject.launch.killGrace == .milliseconds(100))
        #expect(subject.launch.workingDirectory == "/tmp")
        #expect(subject.launch.flags.flagsIn == .env)
        #expect(subject.settings.quiet)
        #expect(subject.settings.reportPath == "r.json")
    }

    @Test func doubleDashEndsOptions() throws {
        let subject = try configuration(["-f", "a=1", "--", "--weird-program", "-x"])
        #expect(subject.launch.program == "--weird-program")
        #expect(subject.launch.arguments == ["-x"])
    }

    @Test func flagsFileIsOverriddenByTheCommandLine() throws {
        let subject = try configuration(
            ["--flags-file", "f.json", "-f", "a=2", "-e", "K=cli", "prog"],
            files: ["f.json": #"{"featureFlags":{"a":1,"b":true},"env":{"K":"file","L":"file"}}"#])
        #expect(subject.launch.flags.featureFlags == ["a": 2, "b": true])
        #expect(subject.launch.launchEnvironment["K"] == "cli")
        #expect(subject.launch.launchEnvironment["L"] == "file")
    }

    @Test func environmentLayers() throws {
        let subject = try configuration(["--env-file", ".env", "-e", "B=cli", "--clear-env", "prog"], files: [".env": "A=file\nB=file\n"])
        let environment = subject.launch.launchEnvironment
        #expect(environment["SECRET"] == nil)
        #expect(environment["PATH"] == "/bin")
        #expect(environment["HOME"] == "/root")
        #expect(environment["A"] == "file")
        #expect(environment["B"] == "cli")
        #expect(environment["SUT_UNDER_TEST"] == "1")
    }

    @Test func flagsInChoosesTheChannels() throws {
        let both = try configuration(["-f", "a=1", "prog", "x"])
        #expect(both.launch.launchArguments == ["UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"])
        #expect(both.launch.launchEnvironment["SUT_EPHEMERAL"] == #"{"a":1}"#)
        let args = try configuration(["-f", "a=1", "--flags-in", "args", "prog", "x"])
        #expect(args.launch.launchEnvironment["SUT_EPHEMERAL"] == nil)
        #expect(args.launch.launchEnvironment["SUT_UNDER_TEST"] == "1")
        let env = try configuration(["-f", "a=1", "--flags-in", "env", "prog", "x"])
        #expect(env.launch.launchArguments == ["x"])
        #expect(env.launch.launchEnvironment["SUT_EPHEMERAL"] == #"{"a":1}"#)
    }

    @Test(arguments: [
        (["--flgs", "a=1", "p"], "unknown option '--flgs'; did you mean '--flag'?"),
        (["--timout", "1s", "p"], "unknown option '--timout'; did you mean '--timeout'?"),
        (["-z", "p"], "unknown option '-z'"),
        (["-flag", "a=1", "p"], "unknown option '-flag'; did you mean '--flag'?"),
        (["--flag"], "option '--flag' needs a value: --flag key=value"),
        (["-f", "a=1", "-f", "a=2", "p"], "feature flag \"a\" is given twice: -f a=1 (argument 1) and -f a=2 (argument 3); keep one"),
        (
            ["-a", "x=1", "--automation=x:=2", "p"],
            "automation flag \"x\" is given twice: -a x=1 (argument 1) and --automation x:=2 (argument 3); keep one"
        ),
        (
            ["-a", "entryPoint=a", "--entry-point", "b", "p"],
            "automation flag \"entryPoint\" is given twice: -a entryPoint=a (argument 1) and --entry-point b (argument 3); keep one"
        ),
        (["-f", "broken", "p"], "-f 'broken' is not key=value or key:=JSON (e.g. skipPreActiveCheck=true, retries:=3) (argument 1)"),
        (
            ["--timeout", "soon", "p"],
            "--timeout 'soon' is not a duration from 0 to 1000000000 seconds; write 500ms, 30s, 2m, 1h or 1m30s (argument 1)"
        ),
        (["--flags-in", "argv", "p"], "--flags-in 'argv' is not one of args, env, both"),
        (["-e", "NOEQUALS", "p"], "-e (argument 1) is not KEY=VALUE (no = after a name; the text is not shown: a value may be a secret)"),
        (["--quiet=yes", "p"], "option '--quiet' takes no value; write '--quiet' alone"),
        (["--quiet"], "no program given; usage: sut-launch [options] PROGRAM [ARGS...] (see sut-launch --help)"),
        (["--env-file", "missing.env", "p"], "--env-file missing.env: cannot read the file (CocoaErrorLike())"),
    ])
    func usageErrorsNameTheToken(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test func badFileContentIsAnInputError() {
        #expect(throws: InputError.self) {
            try configuration(["--flags-file", "f.json", "p"], files: ["f.json": "{\"featureFlags\": 1}"])
        }
        #expect(throws: InputError.self) {
            try configuration(["--env-file", ".env", "p"], files: [".env": "oops"])
        }
    }

    @Test func helpAndVersion() throws {
        guard case .help = try RunCommand.parse(["-h"], environment: [:]) else {
            Issue.record("not help")
            return
        }
        guard case .version = try RunCommand.parse(["--version"], environment: [:]) else {
            Issue.record("not version")
            return
        }
        for option in RunOption.allCases {
            let text = option.spec.topic.map { HelpTopic(rawValue: $0)?.text ?? "" } ?? HelpText.main
            #expect(text.contains(option.spec.long), "\(option.spec.long)")
        }
    }
}

@Suite struct ShortOptionBundlingTests {
    @Test func shortOptionsBundleAsGetoptsDo() throws {
        guard case .run(let bundled) = try RunCommand.parse(["-qf", "a=1", "-fb=2", "-e", "K=V", "prog"], environment: [:]) else {
            Issue.record("expected a run")
            return
        }
        #expect(bundled.settings.quiet && bundled.launch.flags.featureFlags == ["a": 1, "b": 2])
        #expect(throws: UsageError("unknown option '-z'")) { try RunCommand.parse(["-qz", "prog"], environment: [:]) }
        #expect(throws: UsageError("option '-q' takes no value; write '-q' alone")) {
            try RunCommand.parse(["-q=1", "prog"], environment: [:])
        }
    }
}

extension LaunchPlan {
    /// What the program receives when no mock server runs.
    fileprivate var launchArguments: [String] { launchArguments(mockServerURL: nil) }
    fileprivate var launchEnvironment: [String: String] { launchEnvironment(mockServerURL: nil) }
}
