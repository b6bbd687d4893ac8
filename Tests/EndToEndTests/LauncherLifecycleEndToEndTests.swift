import Foundation
import Testing

/// The launcher and the process it runs, replayed from the re-attack's findings (R4a-10, 8, 1, 22, 13, 19): what the
/// program inherits, what becomes of output nobody reads, a stopped program, descendants that left its group, a
/// file-size limit, and many options.
@Suite struct LauncherLifecycleEndToEndTests {
    /// Runs `script` with bash (`$1` is sut-launch, `$2` a fresh directory); returns what it printed and the directory.
    static func bash(_ script: String) throws -> (output: String, directory: URL) {
        let directory = try CLI.temporaryDirectory()
        let output = try CLI.output(of: ["bash", "-c", script, "bash", CLI.sutLaunch, directory.path], in: directory)
        return (output, directory)
    }

    /// R4a-10: a caller's SUT_* never reaches the program; the run's own (and those given with -e) do.
    @Test func inheritedSUTVariablesAreNotPassedOn() throws {
        var environment = CLI.localEnvironment
        for (name, value) in [
            ("SUT_CONTROL_URL", "http://stale:2"), ("SUT_AUTOMATION", #"{"simulateUserAlreadyLoggedIn":true}"#),
            ("SUT_EPHEMERAL", #"{"a":9}"#), ("SUT_MOCK_SERVER_CA", "/tmp/stale-ca.pem"), ("SUT_MOCK_PROXY_URL", "http://127.0.0.1:1"),
            ("SUT_MOCK_SERVER_URL", "http://stale:1"), ("SUT_UNDER_TEST", "0"), ("SUT_ANYTHING", "x"),
        ] {
            environment[name] = value
        }
        let args = try CLI.run(["-q", "--flags-in", "args", "-f", "a=1", "-e", "SUT_OWN=kept", CLI.argvDump], environment: environment)
        #expect(args.status == 0, "\(args.stderr)")
        let dump = try Dump(args.stdout)
        #expect(dump.env.filter { $0.key.hasPrefix("SUT_") && $0.key != "SUT_LAUNCH_ID" } == ["SUT_UNDER_TEST": "1", "SUT_OWN": "kept"])
        #expect(dump.env["SUT_LAUNCH_ID"]?.contains(",") == false) // the launch's own token, never a caller's before it
        #expect(dump.argv.contains(#"EPHEMERAL_{"a":1}"#))

        let directory = try CLI.temporaryDirectory()
        let stub = try CLI.write(#"{"routes":[]}"#, "empty.json", in: directory)
        let served = try CLI.run(["-q", "--port", "0", "--stub", stub, CLI.argvDump], environment: environment)
        let env = try Dump(served.stdout).env
        #expect(env["SUT_MOCK_SERVER_CA"] == nil && env["SUT_MOCK_PROXY_URL"] == nil)
        #expect(env["SUT_MOCK_SERVER_URL"]?.hasPrefix("http://127.0.0.1:") == true)
        // The run's own channel on its own server, never the inherited one.
        #expect(env["SUT_CONTROL_URL"]?.hasPrefix("\(env["SUT_MOCK_SERVER_URL"] ?? "-")/__sut/control?channel=") == true)
        #expect(env["SUT_AUTOMATION"]?.contains("simulateUserAlreadyLoggedIn") == false)
    }

    /// R4a-8: the reader of sut-launch's stdout (or stderr) goes away: 141 as if piped directly, never 0.
    @Test func outputNobodyReadsEndsWithSIGPIPEStatus() throws {
        let (stdout, _) = try Self.bash(
            #""$1" sh -c 'echo out; sleep 1; echo out2; exit 0' 2>/dev/null | head -c1 >/dev/null; echo "status ${PIPESTATUS[0]}""#)
        #expect(stdout.contains("status 141"), "\(stdout)")
        let (stderr, directory) = try Self.bash(
            #"""
            "$1" --report "$2/r.json" sh -c 'echo err >&2; sleep 1; echo err2 >&2; exit 0' 2>&1 >/dev/null | head -c1 >/dev/null
            echo "status ${PIPESTATUS[0]}"
            """#)
        #expect(stderr.contains("status 141"), "\(stderr)")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains(#""exitCode" : 141"#) || report.contains(#""exitCode":141"#), "\(report)")
        #expect(report.contains("the reader of standard error went away"))
    }

    /// R4a-1: a program that stopped itself gets SIGCONT after the SIGTERM of a timeout, so its handler runs.
    @Test func stoppedProgramIsContinuedOnTimeout() throws {
        let started = Date()
        let result = try CLI.run([
            "-t", "1s", "--kill-grace", "30s", "sh", "-c", #"trap "echo cleanup-ran; exit 7" TERM; kill -STOP $$; echo after"#,
        ])
        #expect(result.status == 124)
        #expect(result.stdout.contains("cleanup-ran"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20) // not the 30 s grace: SIGKILL never needed
    }

    /// R4a-1: the same on Ctrl-C: SIGINT forwarded, then SIGCONT.
    @Test func stoppedProgramIsContinuedOnInterrupt() throws {
        let result = try CLI.run(
            ["--kill-grace", "30s", "sh", "-c", #"trap "echo cleanup-ran; exit 7" INT; kill -STOP $$; echo after"#],
            whileRunning: { process, _ in
                Thread.sleep(forTimeInterval: 1)
                process.interrupt()
            })
        #expect(result.status == 130)
        #expect(result.stdout.contains("cleanup-ran"), "\(result.stderr)")
    }

    /// R4a-22: a descendant that moved to its own process group (setpgid) or session (setsid) is stopped at the end,
    /// with or without a timeout.
    @Test(arguments: ["setpgid(0, 0)", "setsid()"])
    func descendantsOutsideTheGroupAreStopped(_ call: String) throws {
        let directory = try CLI.temporaryDirectory()
        let pidFile = directory.appendingPathComponent("pid").path
        let python = "import os, sys, time; os.\(call); open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(60)"
        for (arguments, status) in [([String](), Int32(0)), (["-t", "1s"], 124)] {
            try? FileManager.default.removeItem(atPath: pidFile)
            let script =
                "python3 -c \"$0\" \"$1\" </dev/null >/dev/null 2>&1 & sleep 0.5; while [ ! -s \"$1\" ]; do sleep 0.1; done; sleep \"$2\""
            let result = try CLI.run(arguments + ["sh", "-c", script, python, pidFile, arguments.isEmpty ? "0" : "5"])
            #expect(result.status == status, "\(result.stderr)")
            let pid = Int32(try String(contentsOfFile: pidFile, encoding: .utf8)) ?? 0
            defer { if pid > 0 { kill(pid, SIGKILL) } }
            #expect(pid > 0 && CLI.eventually(5) { !isAlive(pid) }, "\(call) escaped: pid \(pid) still runs")
        }
    }

    /// R4a-13: a file-size limit makes writing the report fail with EFBIG: exit 74 naming the file, never a death by
    /// SIGXFSZ (153), also when the caller ignored SIGXFSZ; the program keeps the default disposition.
    @Test func fileSizeLimitIsAnIOErrorNamingTheReport() throws {
        let (output, _) = try Self.bash(
            #"""
            (ulimit -f 1; "$1" --report "$2/rx.json" -e A=1 sh -c 'exit 0' 2>"$2/err1"; echo "status $?")
            (ulimit -f 1; trap '' XFSZ; "$1" --report "$2/ry.json" -e A=1 sh -c 'exit 0' 2>"$2/err2"; echo "status $?")
            (ulimit -f 1; "$1" -q sh -c 'head -c 4096 /dev/zero > "$0/big"' "$2" 2>/dev/null; echo "program $?")
            cat "$2/err1" "$2/err2"
            """#)
        #expect(output.components(separatedBy: "status 74").count == 3, "\(output)")
        #expect(output.contains("--report") && output.contains("rx.json") && output.contains("ry.json"))
        #expect(output.contains("file too large"))
        #expect(output.contains("program 153"), "\(output)") // the program still dies of SIGXFSZ, as without sut-launch
    }

    /// R4a-19: 20,000 `-e` options are read in linear time (a scan per option took minutes), and a repeat is still
    /// refused naming both.
    @Test func manyEnvironmentOptionsAreLinear() throws {
        let count = 20_000
        var arguments = ["-q"]
        for index in 0..<count { arguments += ["-e", "K\(index)=\(index)"] }
        let started = Date()
        let result = try CLI.run(arguments + ["sh", "-c", #"echo "$K0 $K19999""#])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "0 19999\n")
        #expect(Date().timeIntervalSince(started) < 60) // quadratic: over 3 minutes
        let repeated = try CLI.run(arguments + ["-e", "K7=x", "true"])
        #expect(repeated.status == 2)
        #expect(
            repeated.stderr.contains("environment variable K7 is given twice: -e K7=… (argument") && !repeated.stderr.contains("K7=7"),
            "\(repeated.stderr)")
    }
}
