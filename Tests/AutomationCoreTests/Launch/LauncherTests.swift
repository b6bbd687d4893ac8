@testable import AutomationCore
import Foundation
import Testing

@Suite struct LauncherTests {
    private func launch(_ executable: String, _ arguments: [String] = [], stdin: LaunchRequest.StandardInput = .null,
                        environment: [String: String] = ProcessInfo.processInfo.environment, cwd: String? = nil) throws -> LaunchedProcess {
        try Launcher.launch(LaunchRequest(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: cwd,
            standardInput: stdin, forwardsOutput: false, captureLimit: 1 << 20))
    }

    private func text(_ process: LaunchedProcess, _ stream: StandardStream = .stdout) -> String {
        String(decoding: process.output.captured(stream), as: UTF8.self)
    }

    @Test func capturesBothStreamsAndTheExitCode() throws {
        let process = try launch("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(process.waitForExit() == .exited(3))
        process.finish(grace: .seconds(1))
        #expect(text(process) == "out\n")
        #expect(text(process, .stderr) == "err\n")
        #expect(process.output.byteCount(.stdout) == 4)
    }

    @Test func reportsTheSignalThatEndedTheProgram() throws {
        let process = try launch("/bin/sh", ["-c", "kill -USR1 $$"])
        #expect(process.waitForExit() == .signaled(SIGUSR1))
        #expect(ProcessStatus.signaled(SIGUSR1).shellExitCode == 128 + SIGUSR1)
    }

    @Test func findsProgramsInPathAndExplainsWhenItCannot() throws {
        let process = try launch("true")
        #expect(process.waitForExit() == .exited(0))
        #expect(process.executablePath.hasSuffix("/true"))

        #expect { try launch("no-such-program-xyz") } throws: { ($0 as? LaunchError)?.code == .notFound }
        #expect { try launch("./no/such/file") } throws: { ($0 as? LaunchError)?.code == .notFound }
        #expect { try launch("/etc/hostname") } throws: { ($0 as? LaunchError)?.exitCode == 126 }
        #expect { try launch("/tmp") } throws: { ($0 as? LaunchError)?.message == "/tmp: is a directory" }
        #expect { try launch("true", cwd: "/no/such/dir") } throws: { ($0 as? LaunchError)?.exitCode == 125 }
    }

    @Test func aScriptWithAMissingInterpreterIsNotFound() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("bad-interp-\(UUID().uuidString)")
        try "#!/no/such/interpreter\necho hi\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        defer { try? FileManager.default.removeItem(at: script) }
        #expect { try launch(script.path) } throws: { error in
            (error as? LaunchError)?.code == .notFound && (error as? LaunchError)?.message.contains("interpreter") == true
        }
    }

    @Test func runsInTheGivenDirectory() throws {
        let process = try launch("/bin/pwd", cwd: "/usr")
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(text(process) == "/usr\n")
    }

    /// The trap Foundation.Process falls into: a child spawned from a Dispatch worker inherits its blocked
    /// signals, and SIG_IGN dispositions are inherited too. Ours starts clean wherever it is spawned from.
    @Test func theProgramStartsWithAnEmptySignalMaskAndDefaultDispositions() async throws {
        let status = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGTERM)
                sigaddset(&blocked, SIGINT)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                let previous = signal(SIGPIPE, SIG_IGN)
                defer {
                    signal(SIGPIPE, previous)
                    pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
                }
                continuation.resume(with: Result { try self.launch("/bin/cat", ["/proc/self/status"]) })
            }
        }
        _ = status.waitForExit()
        status.finish(grace: .seconds(1))
        let lines = text(status).split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        // Standard signals 1...31 (glibc keeps its own real-time signals 32 and 33 out of reach of sigfillset).
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "SigIgn of the program: \(String(ignored ?? 0, radix: 16))")
    }

    @Test func theProgramLeadsItsOwnProcessGroup() throws {
        let process = try launch("/bin/sh", ["-c", "cut -d' ' -f5 /proc/$$/stat"])
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(text(process).trimmingCharacters(in: .whitespacesAndNewlines) == "\(process.pid)")
    }

    @Test func stopKillsTheGroupIncludingAGrandchildThatIgnoresSIGTERM() throws {
        let process = try launch("/bin/sh", ["-c", "trap '' TERM; sleep 30 & echo $!; wait"])
        var grandchild: Int32 = 0
        for _ in 0..<200 where grandchild == 0 {
            grandchild = Int32(text(process).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            usleep(10_000)
        }
        #expect(grandchild > 0)
        #expect(process.waitForExit(timeout: .milliseconds(100)) == nil)
        let status = process.stop(grace: .milliseconds(200))
        #expect(status == .signaled(SIGKILL))
        process.finish(grace: .milliseconds(200))
        #expect(!isAlive(grandchild))
        #expect(!isAlive(process.pid))
    }

    @Test func finishStopsWhatTheProgramLeftRunning() throws {
        let process = try launch("/bin/sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"])
        #expect(process.waitForExit() == .exited(0))
        process.finish(grace: .seconds(2))
        let leftover = Int32(text(process).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(leftover > 0)
        #expect(!isAlive(leftover))
    }

    /// Foundation.Process detects exit through a descriptor the child inherits: a background grandchild that
    /// keeps it open delays the exit by seconds. Here exit is seen by waitpid at once, and the output pump
    /// stops reading a pipe the grandchild holds shortly after.
    @Test func aGrandchildHoldingTheOutputPipeDoesNotHoldTheRun() throws {
        let started = ContinuousClock.now
        let process = try launch("/bin/sh", ["-c", "setsid sleep 5 & echo done"])
        #expect(process.waitForExit(timeout: .seconds(3)) == .exited(0))
        process.finish(grace: .milliseconds(100))
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(text(process) == "done\n")
    }

    @Test func standardInputThroughAPipe() throws {
        let process = try launch("/bin/sh", ["-c", "read line; echo \"got $line\""], stdin: .pipe)
        try process.writeToStandardInput(Array("hello\n".utf8))
        #expect(process.waitForExit() == .exited(0))
        process.finish(grace: .seconds(1))
        #expect(text(process) == "got hello\n")
        #expect(throws: Errno.self) { try process.writeToStandardInput([1]) }
    }

    @Test func writingToAProgramThatClosedStdinThrowsInsteadOfKillingUs() throws {
        let process = try launch("/bin/sh", ["-c", "exec 0<&-; sleep 0.2"], stdin: .pipe)
        usleep(100_000)
        #expect(throws: Errno.self) { try process.writeToStandardInput(Array(repeating: 65, count: 1 << 20)) }
        _ = process.waitForExit()
    }

    @Test func binaryOutputIsPassedThroughByteForByte() throws {
        let process = try launch("/usr/bin/printf", ["\\000\\377\\200abc\\n"])
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(process.output.captured(.stdout) == [0, 255, 128, 97, 98, 99, 10])
    }

    @Test func manyConcurrentLaunchesEachGetTheirOwnOutput() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let process = try self.launch("/bin/sh", ["-c", "echo \(index)"])
                    _ = process.waitForExit()
                    process.finish(grace: .seconds(1))
                    return self.text(process) == "\(index)\n"
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}

/// True when `pid` is a live process (zombies count as gone).
func isAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
}
