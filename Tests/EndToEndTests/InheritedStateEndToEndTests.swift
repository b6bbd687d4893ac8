import Foundation
import Testing

/// What a parent leaves a process (ignored and blocked signals, closed 0/1/2, a low descriptor limit, a umask)
/// never changes what sut-launch reports (issue 24, "false green"). Each test starts the built binary from
/// python3, which sets that state between fork and exec, as a CI shell or agent would.
@Suite struct InheritedStateEndToEndTests {
    /// What the parent does before exec: signals to ignore and to block, fds to close, RLIMIT_NOFILE, umask; and
    /// signals it sends once the program has created a file (`send`).
    struct Inherited: Encodable {
        var ignore: [String] = []
        var block: [String] = []
        var close: [Int] = []
        var nofile: Int?
        var umask: Int?
        var send: Sending?
    }

    /// Once the file `when` exists (30 s at most), `signals` go to sut-launch, then the file `then` is created.
    struct Sending: Encodable {
        var when: String
        var signals: [String]
        var then: String
    }

    struct Outcome: Decodable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `sut-launch ARGUMENTS` with the `inherited` state, in `directory`; `signalAfter` sends SIGTERM
    /// to it after that many seconds.
    static func run(_ arguments: [String], inherited: Inherited, in directory: URL? = nil, signalAfter: Double? = nil) throws -> Outcome {
        let script = """
            import json, os, resource, signal, subprocess, sys, time
            cfg = json.loads(sys.argv[1]); argv = sys.argv[3:]; after = float(sys.argv[2])
            def pre():
                for name in cfg["ignore"]: signal.signal(getattr(signal, name), signal.SIG_IGN)
                if cfg["block"]: signal.pthread_sigmask(signal.SIG_BLOCK, [getattr(signal, n) for n in cfg["block"]])
                if cfg.get("nofile") is not None:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (cfg["nofile"], resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
                if cfg.get("umask") is not None: os.umask(cfg["umask"])
                for fd in cfg["close"]: os.close(fd)
            p = subprocess.Popen(argv, preexec_fn=pre, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if after >= 0:
                time.sleep(after); p.send_signal(signal.SIGTERM)
            send = cfg.get("send")
            if send:
                end = time.monotonic() + 30
                while not os.path.exists(send["when"]) and time.monotonic() < end: time.sleep(0.01)
                for name in send["signals"]: p.send_signal(getattr(signal, name))
                open(send["then"], "w").close()
            out, err = p.communicate(timeout=60)
            print(json.dumps({"status": p.returncode if p.returncode >= 0 else 128 - p.returncode,
                              "stdout": out.decode(errors="replace"), "stderr": err.decode(errors="replace")}))
            """
        let configuration = String(decoding: try JSONEncoder().encode(inherited), as: UTF8.self)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = CLI.localEnvironment
        process.arguments = ["python3", "-c", script, configuration, String(signalAfter ?? -1), CLI.sutLaunch] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Outcome.self, from: data)
    }

    static let failing =
        "Feature: f\n  Scenario: fails\n    Given the program \"false\"\n    When I launch the program\n    Then the exit code is 0\n"
    static let passing =
        "Feature: p\n  Scenario: passes\n    Given the program \"true\"\n    When I launch the program\n    Then the exit code is 0\n"

    @Test(arguments: ["spawn", "foundation"])
    func anIgnoredSIGCHLDDoesNotTurnAFailureIntoSuccess(launcher: String) throws {
        // SIGCHLD ignored: the kernel reaped the program itself, waitpid said ECHILD, and `sut-launch false` exited 0.
        let hostile = Inherited(ignore: ["SIGCHLD"], block: ["SIGCHLD"])
        #expect(try Self.run(["--launcher", launcher, "false"], inherited: hostile).status == 1)
        #expect(try Self.run(["--launcher", launcher, "sh", "-c", "exit 3"], inherited: hostile).status == 3)
        #expect(try Self.run(["--launcher", launcher, "sh", "-c", "kill -TERM $$"], inherited: hostile).status == 143)
        #expect(try Self.run(["--launcher", launcher, "true"], inherited: hostile).status == 0)
        let served = try Self.run(
            [
                "--launcher", launcher, "--port", "0", "--stub", CLI.packageRoot.appendingPathComponent("Fixtures/stubs/routes.json").path,
                "sh", "-c", "curl -s \"$SUT_MOCK_SERVER_URL/message\"; exit 7",
            ], inherited: hostile)
        #expect(served.status == 7 && served.stdout == "Hello world", "\(served)")
    }

    @Test func anIgnoredSIGCHLDDoesNotPassAFailingScenario() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.failing, "fail.feature", in: directory)
        _ = try CLI.write(Self.passing, "pass.feature", in: directory)
        let hostile = Inherited(ignore: ["SIGCHLD", "SIGPIPE", "SIGINT", "SIGTERM"], block: ["SIGCHLD", "SIGINT", "SIGTERM", "SIGALRM"])
        let failed = try Self.run(["test", "--junit", "j.xml", "fail.feature"], inherited: hostile, in: directory)
        #expect(failed.status == 1, "\(failed)")
        let junit = try String(contentsOf: directory.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(junit.contains("failures=\"1\""), "\(junit)")
        #expect(try Self.run(["test", "pass.feature"], inherited: hostile, in: directory).status == 0)
    }

    @Test(arguments: ["spawn", "foundation"])
    func theProgramGetsDefaultDispositionsAndAnEmptyMaskWhateverTheParentLeft(launcher: String) throws {
        let hostile = Inherited(
            ignore: ["SIGPIPE", "SIGINT", "SIGTERM", "SIGQUIT", "SIGUSR1", "SIGHUP"],
            block: ["SIGUSR1", "SIGTERM", "SIGALRM", "SIGCHLD"])
        let result = try Self.run(["--launcher", launcher, "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"], inherited: hostile)
        #expect(result.status == 0)
        var masks: [String: UInt64] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { masks[parts[0]] = UInt64(parts[1], radix: 16) }
        }
        #expect(masks["SigBlk"] == 0, "\(result.stdout)")
        // Signals 32 and 33 belong to the C library; SIGPIPE (bit 12) is sut-launch's own, which Foundation.Process
        // passes on (the known issue in LauncherSafetyEndToEndTests). SIGHUP, SIGINT and SIGQUIT (bits 0-2) stay
        // ignored, as without sut-launch (the test below); SIGTERM and SIGUSR1 do not.
        let allowed: UInt64 = launcher == "foundation" ? (1 << 12) | (1 << 31) | (1 << 32) : 0
        #expect(masks["SigIgn"].map { $0 & ~allowed } == 0b111, "\(result.stdout)")
    }

    /// R8C-6: `nohup sut-launch …` left SIGHUP ignored, and a script's `sut-launch … &` SIGINT and SIGQUIT: sut-launch
    /// installed its handlers anyway, so a hangup (or `kill -INT`) interrupted the run (129, 130) where `nohup prog`
    /// finishes. They stay ignored, by sut-launch and by the program, as POSIX shells keep them.
    @Test(arguments: ["spawn", "foundation"])
    func signalsTheCallerLeftIgnoredStayIgnored(launcher: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = directory.appendingPathComponent("started").path
        let go = directory.appendingPathComponent("go").path
        let program = "touch \(started); while [ ! -e \(go) ]; do sleep 0.05; done; grep ^SigIgn /proc/self/status; echo finished"
        let sending = Sending(when: started, signals: ["SIGHUP", "SIGINT", "SIGQUIT"], then: go)
        let result = try Self.run(
            ["--launcher", launcher, "--report", "r.json", "sh", "-c", program],
            inherited: Inherited(ignore: ["SIGHUP", "SIGINT", "SIGQUIT"], send: sending), in: directory)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("finished\n"), "\(result)")
        let ignored = result.stdout.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
            .flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
        #expect(ignored.map { $0 & 0b111 } == 0b111, "\(result)") // the program inherits SIG_IGN, as under nohup alone
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        #expect(report?["exitCode"] as? Int == 0 && report?["interruptedBy"] as? String == nil, "\(String(describing: report))")
        // Not ignored by the caller, the same hangup interrupts the run.
        try? FileManager.default.removeItem(atPath: started)
        try? FileManager.default.removeItem(atPath: go)
        let hungUp = try Self.run(
            ["--launcher", launcher, "sh", "-c", program],
            inherited: Inherited(send: Sending(when: started, signals: ["SIGHUP"], then: go)), in: directory)
        #expect(hungUp.status == 129, "\(hungUp)")
    }

    @Test func sigtermStillStopsTheRunWhenTheParentIgnoredAndBlockedIt() throws {
        let started = ContinuousClock.now
        let result = try Self.run(
            ["sleep", "30"], inherited: Inherited(ignore: ["SIGTERM", "SIGINT"], block: ["SIGTERM", "SIGINT"]), signalAfter: 0.5)
        #expect(result.status == 143, "\(result)")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func closedStandardDescriptorsStillGiveTheProgramsStatusAndTheReport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let result = try Self.run(
            ["--report", report, "sh", "-c", "echo out; echo err >&2; exit 5"], inherited: Inherited(close: [0, 1, 2]))
        #expect(result.status == 5)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        #expect(json?["exitCode"] as? Int == 5, "\(String(describing: json))")
        _ = try CLI.write(Self.failing, "fail.feature", in: directory)
        #expect(try Self.run(["test", "fail.feature"], inherited: Inherited(close: [0, 1, 2]), in: directory).status == 1)
    }

    @Test(arguments: [5, 8, 12, 32])
    func aLowDescriptorLimitIsAnErrorOrWorksButNeverPasses(limit: Int) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.failing, "fail.feature", in: directory)
        let low = Inherited(nofile: limit)
        let failed = try Self.run(["false"], inherited: low)
        #expect(failed.status == 1 || failed.status == 125, "\(failed)")
        if failed.status == 125 { #expect(failed.stderr.contains("Too many open files")) }
        let exited = try Self.run(["sh", "-c", "exit 3"], inherited: low)
        #expect(exited.status == 3 || exited.status == 125, "\(exited)")
        #expect(try Self.run(["test", "fail.feature"], inherited: low, in: directory).status == 1)
        let served = try Self.run(
            [
                "--port", "0", "--stub", CLI.packageRoot.appendingPathComponent("Fixtures/stubs/routes.json").path,
                "sh", "-c", "curl -sf \"$SUT_MOCK_SERVER_URL/message\" || exit 9",
            ], inherited: low)
        #expect(served.status != 0, "\(served)") // exit 4 at best: the fixture's /cities expects a call
    }

    @Test func reportsFollowTheCallersUmaskAndTheJournalStaysPrivate() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = CLI.packageRoot.appendingPathComponent("Fixtures/stubs/routes.json").path
        let strict = try Self.run(
            ["--report", "r.json", "--journal", "j.json", "--port", "0", "--stub", stubs, "false"],
            inherited: Inherited(umask: 0o077), in: directory)
        #expect(strict.status == 1, "\(strict)")
        let report = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("r.json").path)
        #expect((report[.posixPermissions] as? Int).map { $0 & 0o600 } == 0o600) // the owner reads it
        _ = try Self.run(["--journal", "open.json", "--port", "0", "--stub", stubs, "true"], inherited: Inherited(umask: 0), in: directory)
        let journal = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("open.json").path)
        #expect(journal[.posixPermissions] as? Int == 0o600)
    }
}
