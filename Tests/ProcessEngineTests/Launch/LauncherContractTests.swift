import AutomationSupport
import Foundation
import FoundationLauncher
import Testing

@testable import ProcessEngine

/// The launcher contract: every row runs against both backends (posix_spawn and Foundation.Process).
/// Where Foundation.Process cannot meet a row, the row says why, measured, as a known issue for that
/// backend; README's table of differences is read off these tests.
@Suite struct LauncherContractTests {
    private func launch(
        _ executable: String, _ arguments: [String] = [], stdin: LaunchRequest.StandardInput = .null,
        environment: [String: String] = ProcessInfo.processInfo.environment, cwd: String? = nil,
        backend: LauncherBackend = .spawn
    ) throws -> LaunchedProcess {
        var request = LaunchRequest(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: cwd,
            standardInput: stdin, forwardsOutput: false, captureLimit: 1 << 20)
        request.backend = backend
        FoundationLauncher.register()
        return try Launcher.launch(request)
    }

    private func text(_ process: LaunchedProcess, _ stream: StandardStream = .stdout) -> String {
        String(decoding: process.output.captured(stream), as: UTF8.self)
    }

    @Test(arguments: LauncherBackend.allCases) func capturesBothStreamsAndTheExitCode(backend: LauncherBackend) throws {
        let process = try launch("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], backend: backend)
        #expect(process.waitForExit() == .exited(3))
        process.finish(grace: .seconds(1))
        #expect(text(process) == "out\n")
        #expect(text(process, .stderr) == "err\n")
        #expect(process.output.byteCount(.stdout) == 4)
    }

    @Test(arguments: LauncherBackend.allCases) func reportsTheSignalThatEndedTheProgram(backend: LauncherBackend) throws {
        let process = try launch("/bin/sh", ["-c", "kill -USR1 $$"], backend: backend)
        #expect(process.waitForExit() == .signaled(SIGUSR1))
        #expect(ProcessStatus.signaled(SIGUSR1).shellExitCode == 128 + SIGUSR1)
    }

    @Test(arguments: LauncherBackend.allCases) func findsProgramsInPathAndExplainsWhenItCannot(backend: LauncherBackend) throws {
        let process = try launch("true", backend: backend)
        #expect(process.waitForExit() == .exited(0))
        #expect(process.executablePath.hasSuffix("/true"))

        #expect { try launch("no-such-program-xyz", backend: backend) } throws: { ($0 as? LaunchError)?.code == .notFound }
        #expect { try launch("./no/such/file", backend: backend) } throws: { ($0 as? LaunchError)?.code == .notFound }
        #expect { try launch("/etc/hostname", backend: backend) } throws: { ($0 as? LaunchError)?.exitCode == 126 }
        #expect { try launch("/tmp", backend: backend) } throws: { ($0 as? LaunchError)?.message == "/tmp: is a directory" }
        #expect { try launch("true", cwd: "/no/such/dir", backend: backend) } throws: { ($0 as? LaunchError)?.exitCode == 125 }
    }

    @Test(arguments: LauncherBackend.allCases) func aScriptWithAMissingInterpreterIsNotFound(backend: LauncherBackend) throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("bad-interp-\(UUID().uuidString)")
        try "#!/no/such/interpreter\necho hi\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        defer { try? FileManager.default.removeItem(at: script) }
        #expect { try launch(script.path, backend: backend) } throws: { error in
            (error as? LaunchError)?.code == .notFound && (error as? LaunchError)?.message.contains("interpreter") == true
        }
    }

    @Test(arguments: LauncherBackend.allCases) func runsInTheGivenDirectory(backend: LauncherBackend) throws {
        let process = try launch("/bin/pwd", cwd: "/usr", backend: backend)
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(text(process) == "/usr\n")
    }

    /// The trap Foundation.Process falls into: a child spawned from a Dispatch worker inherits its blocked
    /// signals, and SIG_IGN dispositions are inherited too. Ours starts clean wherever it is spawned from.
    @Test(.serialized, arguments: LauncherBackend.allCases) func theProgramStartsWithAnEmptySignalMaskAndDefaultDispositions(
        backend: LauncherBackend
    ) async throws {
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
                continuation.resume(with: Result { try self.launch("/bin/cat", ["/proc/self/status"], backend: backend) })
            }
        }
        _ = status.waitForExit()
        status.finish(grace: .seconds(1))
        let lines = text(status).split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        // Standard signals 1...31 (glibc keeps its own real-time signals 32 and 33 out of reach of sigfillset).
        let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(8), radix: 16) }
        withKnownIssue("Foundation.Process passes SIG_IGN dispositions on (SIGPIPE here: SigIgn 1000); posix_spawn's SETSIGDEF resets them")
        {
            #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "SigIgn of the program: \(String(ignored ?? 0, radix: 16))")
        } when: {
            backend == .foundation
        }
    }

    @Test(arguments: LauncherBackend.allCases) func theProgramLeadsItsOwnProcessGroup(backend: LauncherBackend) throws {
        let process = try launch("/bin/sh", ["-c", "cut -d' ' -f5 /proc/$$/stat"], backend: backend)
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(text(process).trimmingCharacters(in: .whitespacesAndNewlines) == "\(process.pid)")
    }

    @Test(arguments: LauncherBackend.allCases) func stopKillsTheGroupIncludingAGrandchildThatIgnoresSIGTERM(backend: LauncherBackend) throws
    {
        let process = try launch("/bin/sh", ["-c", "trap '' TERM; sleep 30 & echo $!; wait"], backend: backend)
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

    @Test(arguments: LauncherBackend.allCases) func finishStopsWhatTheProgramLeftRunning(backend: LauncherBackend) throws {
        let process = try launch("/bin/sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], backend: backend)
        let status = process.waitForExit(timeout: .seconds(1))
        // Foundation.Process's own wait ends only when every holder of its inherited descriptor is gone (the sleep, 30 s
        // later); the launcher reads the exit through a pidfd without reaping it, so both backends see it at once.
        #expect(status == .exited(0))
        if status == nil { process.stop(grace: .seconds(1)) }
        process.finish(grace: .seconds(2))
        let leftover = Int32(text(process).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(leftover > 0)
        #expect(!isAlive(leftover))
    }

    /// Foundation.Process detects exit through a descriptor the child inherits: a background grandchild that
    /// keeps it open delayed the exit by seconds (3 s for `setsid sleep 3`). Here exit is seen at once with both
    /// backends (a pidfd; Foundation's child is read without being reaped), the output pump stops reading a pipe
    /// the grandchild holds shortly after, and finish stops the grandchild, which left the group, by its token.
    @Test(arguments: LauncherBackend.allCases) func aGrandchildHoldingTheOutputPipeDoesNotHoldTheRun(backend: LauncherBackend) throws {
        let started = ContinuousClock.now
        let process = try launch("/bin/sh", ["-c", "setsid sleep 30 & echo $!"], backend: backend)
        let status = process.waitForExit(timeout: .seconds(1))
        process.finish(grace: .milliseconds(100))
        #expect(status == .exited(0))
        #expect(ContinuousClock.now - started < .seconds(5))
        let grandchild = Int32(text(process).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if grandchild > 0 { kill(grandchild, SIGKILL) } }
        #expect(grandchild > 0 && !isAlive(grandchild), "the setsid grandchild \(grandchild) outlived finish")
    }

    /// Finding r5c-2/11: what left the program's group and session (setsid, in a chain of two) and outlived its parent
    /// is stopped by finish through the launch's token (SUT_LAUNCH_ID), with either backend, in a process that is no
    /// subreaper (a Swift test's): the orphans live under init, found by the token they inherited.
    @Test(arguments: LauncherBackend.allCases) func finishStopsDescendantsThatLeftTheGroupByTheirToken(backend: LauncherBackend) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first escapes with setsid and starts a second that escapes again; each writes its pid once out of the group.
        let script = #"""
            setsid sh -c 'echo $$ > "$0/one"; setsid sh -c "echo \$\$ > $0/two; exec sleep 3600" </dev/null >/dev/null 2>&1 &
              exec sleep 3600' "$1" </dev/null >/dev/null 2>&1 &
            while [ ! -s "$1/one" ] || [ ! -s "$1/two" ]; do sleep 0.01; done
            """#
        let process = try launch("/bin/sh", ["-c", script, "sh", directory.path], backend: backend)
        #expect(process.waitForExit(timeout: .seconds(10)) == .exited(0))
        let pids = ["one", "two"].map {
            Int32(
                (try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? "") ?? 0
        }
        defer { for pid in pids where pid > 0 { kill(pid, SIGKILL) } }
        #expect(pids.allSatisfy { $0 > 0 && isAlive($0) }, "\(pids)")
        process.finish(grace: .seconds(1))
        #expect(pids.allSatisfy { !isAlive($0) }, "escaped descendants \(pids) outlived finish")
        #expect(process.sweptDescendants == 2)
    }

    @Test(arguments: LauncherBackend.allCases) func standardInputThroughAPipe(backend: LauncherBackend) throws {
        let process = try launch("/bin/sh", ["-c", "read line; echo \"got $line\""], stdin: .pipe, backend: backend)
        try process.writeToStandardInput(Array("hello\n".utf8))
        #expect(process.waitForExit() == .exited(0))
        process.finish(grace: .seconds(1))
        #expect(text(process) == "got hello\n")
        #expect(throws: Errno.self) { try process.writeToStandardInput([1]) }
    }

    /// Closing stdin while another thread writes to it waits for that write: the descriptor's number is not given
    /// back to the process while the write may still use it (another file opened meanwhile would get the bytes).
    @Test(arguments: LauncherBackend.allCases) func closingStdinDuringAWriteClosesItAfterTheWrite(backend: LauncherBackend) throws {
        let go = FileManager.default.temporaryDirectory.appendingPathComponent("go-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: go) }
        // The program reads only once the test says so: until then the 1 MiB write blocks on the full pipe.
        let process = try launch(
            "/bin/sh", ["-c", "while [ ! -e \"$0\" ]; do sleep 0.01; done; wc -c", go], stdin: .pipe, backend: backend)
        let fd = process.standardInputDescriptor
        let pipe = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"))
        let written = DispatchSemaphore(value: 0)
        Thread {
            _ = try? process.writeToStandardInput(Array(repeating: 65, count: 1 << 20))
            written.signal()
        }.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.standardInputUsers == 0 && ContinuousClock.now < deadline { usleep(1_000) }
        process.closeStandardInput()
        #expect(throws: Errno.self) { try process.writeToStandardInput([1]) }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == pipe)
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        #expect(written.wait(timeout: .now() + 10) == .success)
        #expect(process.standardInputDescriptor == -1)
        #expect(process.waitForExit(timeout: .seconds(10)) == .exited(0))
        process.finish(grace: .seconds(1))
        #expect(text(process).trimmingCharacters(in: .whitespaces) == "1048576\n")
    }

    @Test(arguments: LauncherBackend.allCases) func writingToAProgramThatClosedStdinThrowsInsteadOfKillingUs(backend: LauncherBackend)
        throws
    {
        let process = try launch("/bin/sh", ["-c", "exec 0<&-; sleep 0.2"], stdin: .pipe, backend: backend)
        usleep(100_000)
        #expect(throws: Errno.self) { try process.writeToStandardInput(Array(repeating: 65, count: 1 << 20)) }
        _ = process.waitForExit()
    }

    @Test(arguments: LauncherBackend.allCases) func binaryOutputIsPassedThroughByteForByte(backend: LauncherBackend) throws {
        let process = try launch("/usr/bin/printf", ["\\000\\377\\200abc\\n"], backend: backend)
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        #expect(process.output.captured(.stdout) == [0, 255, 128, 97, 98, 99, 10])
    }

    @Test(arguments: LauncherBackend.allCases) func manyConcurrentLaunchesEachGetTheirOwnOutput(backend: LauncherBackend) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let process = try self.launch("/bin/sh", ["-c", "echo \(index)"], backend: backend)
                    _ = process.waitForExit()
                    process.finish(grace: .seconds(1))
                    return self.text(process) == "\(index)\n"
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}

extension LauncherContractTests {
    /// The program gets fds 0, 1 and 2 only, even when the caller left a descriptor inheritable.
    @Test(arguments: LauncherBackend.allCases) func theProgramGetsOnlyTheStandardDescriptors(backend: LauncherBackend) throws {
        let leaked = open("/dev/null", O_RDONLY) // deliberately without O_CLOEXEC
        #expect(leaked > 2)
        defer { close(leaked) }
        let process = try launch("/bin/sh", ["-c", "ls /proc/$$/fd"], backend: backend)
        _ = process.waitForExit()
        process.finish(grace: .seconds(1))
        let fds = text(process).split(separator: "\n").map(String.init)
        withKnownIssue(
            "Foundation.Process on Linux passes its own internal descriptor to the child (fd 15 here, measured with ls /proc/$$/fd)"
        ) {
            #expect(fds == ["0", "1", "2"], "descriptors in the program: \(fds)")
        } when: {
            backend == .foundation
        }
    }

    /// "Text file busy": a test writes a script and runs it while other launches are in flight. Writers do
    /// not mark their descriptor close-on-exec; the launcher retries ETXTBSY and closes inherited descriptors.
    @Test(arguments: LauncherBackend.allCases) func writingAndLaunchingScriptsFromSixteenThreadsNeverFails(backend: LauncherBackend)
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txtbsy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rounds = backend == .spawn ? 64 : 16 // 16 threads × 64 = 1,024 launches
        // Sixteen real threads, not tasks: blocking launches and waits on Swift's cooperative pool (two threads
        // here) would starve every other async test for as long as this one runs.
        let results = Locked([String]())
        let done = DispatchGroup()
        for thread in 0..<16 {
            done.enter()
            startThread {
                defer { done.leave() }
                for round in 0..<rounds {
                    let path = directory.appendingPathComponent("s\(thread)-\(round).sh").path
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o755) // inheritable, as many writers leave it
                    let text = Array("#!/bin/sh\necho \(thread)-\(round)\n".utf8)
                    _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                    do {
                        let process = try self.launch(path, backend: backend)
                        let status = process.waitForExit()
                        process.finish(grace: .seconds(1))
                        if status != .exited(0) || self.text(process) != "\(thread)-\(round)\n" {
                            results.withLock { $0.append("\(path): \(String(describing: status)) \(self.text(process))") }
                        }
                    } catch {
                        results.withLock { $0.append("\(path): \(error)") }
                    }
                }
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { continuation.resume() }
        }
        let failures = results.current
        #expect(failures.isEmpty, "\(failures.count) of \(16 * rounds) launches failed, first: \(failures.first ?? "")")
    }
}

/// True when `pid` is a live process (zombies count as gone).
func isAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
}
