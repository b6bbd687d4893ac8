import Foundation
import Testing

@Suite struct LaunchEndToEndTests {
    @Test func theProgramsOwnExitCodeIsPassedThrough() throws {
        for code in [0, 1, 3, 42, 255] {
            let result = try CLI.run([CLI.argvDump], environment: ["ARGV_DUMP_EXIT": "\(code)", "PATH": "/usr/bin:/bin"])
            #expect(result.status == Int32(code))
        }
    }

    @Test func aProgramKilledBySignalNExits128PlusN() throws {
        let result = try CLI.run(["--flags-in", "env", "/bin/sh", "-c", "kill -KILL $$"])
        #expect(result.status == 137)
        #expect(result.stderr == "sut-launch: error: /bin/sh was killed by signal 9 (SIGKILL)\n")
        #expect(try CLI.run(["-q", "--flags-in", "env", "/bin/sh", "-c", "kill -TERM $$"]).stderr == "")
    }

    @Test func launchFailuresUseTheShellsCodesAndStillWriteTheReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json")
        let notFound = try CLI.run(["--report", report.path, "no-such-program-xyz"])
        #expect(notFound.status == 127)
        #expect(notFound.stderr.hasPrefix("sut-launch: error: no-such-program-xyz: command not found in PATH"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["launched"] as? Bool == false)
        #expect(json["exitCode"] as? Int == 127)
        #expect((json["error"] as? String)?.contains("command not found") == true)

        let notExecutable = directory.appendingPathComponent("plain.txt")
        try "text".write(to: notExecutable, atomically: true, encoding: .utf8)
        let denied = try CLI.run([notExecutable.path])
        #expect(denied.status == 126)
        #expect(
            denied.stderr
                == "sut-launch: error: \(notExecutable.path): permission denied (not executable; try chmod +x \(notExecutable.path))\n")
        #expect(try CLI.run([directory.path]).status == 126)
        let badDirectory = try CLI.run(["--cwd", "/no/such/dir", CLI.argvDump])
        #expect(badDirectory.status == 125)
        #expect(badDirectory.stderr == "sut-launch: error: cannot use working directory /no/such/dir: no such directory\n")
    }

    /// A flag too large for one argument or variable (Linux: 128 KiB each) is named, with the sizes, not only E2BIG.
    @Test func aFlagTooLargeForExecIsExplained() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = try CLI.write(
            "{\"featureFlags\": {\"big\": \"\(String(repeating: "x", count: 200_000))\"}}", "flags.json", in: directory)
        let result = try CLI.run(["--flags-in", "env", "--flags-file", flags, CLI.argvDump])
        #expect(result.status == 125)
        #expect(result.stderr.contains("Argument list too long (longest argument"), "\(result.stderr)")
        #expect(result.stderr.contains("longest variable SUT_EPHEMERAL 200024 bytes"), "\(result.stderr)")
        #expect(result.stderr.contains("one argument or variable may hold 131,072 bytes"), "\(result.stderr)")
    }

    @Test(arguments: [
        (["--flgs", "a=1", "prog"], "sut-launch: error: unknown option '--flgs'; did you mean '--flag'?\n"),
        (
            ["-f", "a=1", "-f", "a=2", "prog"],
            "sut-launch: error: feature flag \"a\" is given twice: -f a=1 (argument 1) and -f a=2 (argument 3); keep one\n"
        ),
        (
            ["-f", "x:=nope", "prog"],
            "sut-launch: error: -f 'x:=nope': the value after := is not JSON: expected a JSON value, found 'n' (a JSON string needs quotes: x:='\"nope\"', or use x=nope) (argument 1)\n"
        ),
        (
            ["--timeout", "10x", "prog"],
            "sut-launch: error: --timeout '10x' is not a duration from 0 to 1000000000 seconds; write 500ms, 30s, 2m, 1h or 1m30s (argument 1)\n"
        ),
        ([], "sut-launch: error: no program given; usage: sut-launch [options] PROGRAM [ARGS...] (see sut-launch --help)\n"),
        (
            ["--flags-file", "/no/such.json", "prog"],
            "sut-launch: error: --flags-file /no/such.json: cannot read the file (no such file)\n"
        ),
    ])
    func usageErrorsExit2WithOneLineAndLaunchNothing(arguments: [String], message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("launched")
        let result = try CLI.run(arguments.map { $0 == "prog" ? "/usr/bin/touch" : $0 } + (arguments.contains("prog") ? [marker.path] : []))
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func invalidFilesExit3WithFileAndLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("launched")
        let flags = directory.appendingPathComponent("flags.json")
        try "{\n  \"featureFlags\": {\"a\": 1},\n  \"automationFlag\": {}\n}".write(to: flags, atomically: true, encoding: .utf8)
        let badFlags = try CLI.run(["--flags-file", flags.path, "/usr/bin/touch", marker.path])
        #expect(badFlags.status == 3)
        #expect(
            badFlags.stderr == "sut-launch: error: \(flags.path):3:3: unknown key \"automationFlag\"; did you mean \"automationFlags\"?\n")
        let env = directory.appendingPathComponent(".env")
        try "GOOD=1\nthis line is wrong\n".write(to: env, atomically: true, encoding: .utf8)
        let badEnv = try CLI.run(["--env-file", env.path, "/usr/bin/touch", marker.path])
        #expect(badEnv.status == 3)
        #expect(
            badEnv.stderr
                == "sut-launch: error: \(env.path):2: expected KEY=value, found 'this' and 14 more characters (not shown: a value may be a secret)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func timeoutKillsAProgramThatIgnoresSIGTERMAndItsGrandchild() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json")
        let pids = directory.appendingPathComponent("pids")
        let script = "trap '' TERM; sleep 60 & echo \"$$ $!\" > \(pids.path); wait"
        let result = try CLI.run([
            "--timeout", "500ms", "--kill-grace", "300ms", "--report", report.path, "--flags-in", "env", "/bin/sh", "-c", script,
        ])
        #expect(result.status == 124)
        #expect(result.stderr == "sut-launch: error: /bin/sh timed out after 500ms and was stopped (killed by signal 9 (SIGKILL))\n")
        let recorded = try String(contentsOf: pids, encoding: .utf8).split(separator: " ").compactMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(recorded.count == 2)
        for pid in recorded { #expect(!isAlive(pid), "pid \(pid) survived the run") }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["timedOut"] as? Bool == true)
        #expect(json["signal"] as? Int == 9)
        #expect(json["exitCode"] as? Int == 124)
    }

    @Test func timeoutStopsACooperativeProgramWithSIGTERM() throws {
        let result = try CLI.run(["-t", "300ms", "--flags-in", "env", "/bin/sh", "-c", "sleep 60"])
        #expect(result.status == 124)
        #expect(result.stderr.contains("killed by signal 15 (SIGTERM)"))
    }

    @Test func childrenLeftBehindByAFinishedProgramAreStopped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("pid")
        let result = try CLI.run([
            "--kill-grace", "300ms", "--flags-in", "env", "/bin/sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $! > \(pidFile.path)",
        ])
        #expect(result.status == 0)
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isAlive(pid))
    }

    @Test func oneHundredMegabytesOfOutputDoNotHang() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json")
        // Both streams at once: a launcher that reads one pipe to its end before the other deadlocks here.
        let script = "head -c 100000000 /dev/zero & head -c 10000000 /dev/zero >&2; wait"
        let result = try CLI.run(["--timeout", "60s", "--report", report.path, "--flags-in", "env", "/bin/sh", "-c", script])
        #expect(result.status == 0)
        #expect(result.stdoutBytes == 100_000_000)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["stdoutBytes"] as? Int == 100_000_000)
        #expect(json["stderrBytes"] as? Int == 10_000_000)
    }

    @Test func outputStreamsLiveNotAtTheEnd() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let release = directory.appendingPathComponent("release")
        let script = "echo ready; while [ ! -e \(release.path) ]; do sleep 0.01; done; echo done"
        var sawReadyWhileRunning = false
        let result = try CLI.run(["--timeout", "20s", "--flags-in", "env", "/bin/sh", "-c", script]) { process, stdout in
            sawReadyWhileRunning = CLI.eventually { (try? String(contentsOf: stdout, encoding: .utf8)) == "ready\n" } && process.isRunning
            _ = FileManager.default.createFile(atPath: release.path, contents: nil)
        }
        #expect(sawReadyWhileRunning)
        #expect(result.stdout == "ready\ndone\n")
    }

    @Test func standardInputIsPassedThrough() throws {
        let result = try CLI.run([CLI.myApp, "login"], stdin: "ada\n")
        #expect(result.stdout.hasSuffix("username:\nlogged in as ada\n"))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalsAreForwardedToTheProgramsGroup(signal: Int32, expected: Int32) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pids = directory.appendingPathComponent("pids")
        // The program ignores the signal; its child does not. sut-launch forwards, then kills after the grace.
        let script = "trap '' INT TERM; sleep 60 & echo \"$$ $!\" > \(pids.path); wait; wait"
        let result = try CLI.run(["--kill-grace", "300ms", "--flags-in", "env", "/bin/sh", "-c", script]) { process, _ in
            _ = CLI.eventually { FileManager.default.fileExists(atPath: pids.path) }
            usleep(50_000)
            kill(process.processIdentifier, signal)
        }
        #expect(result.status == expected)
        let recorded = try String(contentsOf: pids, encoding: .utf8).split(separator: " ").compactMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        for pid in recorded { #expect(!isAlive(pid), "pid \(pid) survived") }
    }

    /// A second Ctrl-C does not wait for the grace period: the group is killed at once.
    @Test func aSecondSignalKillsAtOnce() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ready = directory.appendingPathComponent("ready")
        let started = ContinuousClock.now
        let result = try CLI.run([
            "--kill-grace", "60s", "--flags-in", "env", "/bin/sh", "-c", "trap '' INT; touch \(ready.path); while :; do sleep 0.05; done",
        ]) { process, _ in
            _ = CLI.eventually { FileManager.default.fileExists(atPath: ready.path) }
            kill(process.processIdentifier, SIGINT)
            usleep(200_000)
            #expect(process.isRunning, "the program ignores SIGINT: the first Ctrl-C must leave it its grace period")
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 130)
        #expect(ContinuousClock.now - started < .seconds(20), "the second signal did not kill at once")
    }

    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE:\n  sut-launch [options] PROGRAM [ARGS...]"))
        #expect(help.stdout.contains("EXAMPLE:\n  sut-launch --flag skipPreActiveCheck=true --stub ./routes.json ./MyAppCLI"))
        #expect(try CLI.run(["--version"]).stdout == "sut-launch 0.1.0\n")
        // One screen per subcommand (50 lines); the step catalog has its own topic.
        for arguments in [["--help"], ["test", "--help"], ["serve", "--help"], ["check", "--help"], ["init", "--help"]] {
            let lines = try CLI.run(arguments).stdout.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 50, "\(arguments.joined(separator: " ")) prints \(lines) lines")
        }
        #expect(try CLI.run(["help", "steps"]).stdout.contains("When I run \"sort input.txt\""))
        // r11 R11-9: `help record` names the `record` subcommand, `help serve` every option serve takes.
        #expect(try CLI.run(["help", "record"]).stdout.contains("sut-launch record --target URL --into DIR"))
        let serve = try CLI.run(["help", "serve"]).stdout
        #expect(["--keep-secrets", "--capture-header", "--record-insecure"].allSatisfy(serve.contains), "\(serve)")
    }

    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 for a pseudo-terminal (apt-get install python3)"))
    func aProgramReadingTheTerminalIsHandedIt() throws {
        // A pseudo-terminal: sut-launch and MyAppCLI share it; MyAppCLI, in its own process group, reads the
        // user name from it. Without the terminal handoff it would be stopped by SIGTTIN and time out.
        let script = """
            import os, pty, sys, select, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = b""
            deadline = time.time() + 10
            sent = False
            while time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.1)
                if r:
                    try:
                        chunk = os.read(fd, 4096)
                    except OSError:
                        break
                    if not chunk:
                        break
                    out += chunk
                if not sent and b"username:" in out:
                    os.write(fd, b"ada\\n")
                    sent = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode(errors="replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = ["python3", "-c", script, CLI.sutLaunch, "--timeout", "8s", CLI.myApp, "login"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("logged in as ada"))
    }
}
