import Foundation
import Testing

/// R4a-17: the `--https` start-up sweep removes a stale trust directory only when no one holds its lock. A live run in
/// another PID namespace has a pid that is dead here; its directory was removed under it. Here a python process holds
/// the lock of a directory named for a dead pid, as such a run does: the sweep leaves it; one whose lock is free goes.
@Suite struct TrustLockEndToEndTests {
    static let stubs = #"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#

    /// A directory as a run makes it: 0700, its trust files and its lock file.
    static func runDirectory(_ url: URL, lock: Bool = true) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        for name in ["ca.pem", "bundle.pem"] + (lock ? [".sut-lock"] : []) {
            _ = FileManager.default.createFile(
                atPath: url.appendingPathComponent(name).path, contents: Data("x".utf8), attributes: [.posixPermissions: 0o600])
        }
    }

    @Test(.enabled(if: CLI.hasCommand("python3"), "needs python3 to hold a lock (apt-get install python3)"))
    func aDirectoryWhoseLockIsHeldIsNeverSwept() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        let held = temporary.appendingPathComponent("sut-https-999999991-heldxx")
        let free = temporary.appendingPathComponent("sut-https-999999992-freexx")
        let fresh = temporary.appendingPathComponent("sut-https-999999993-freshx")
        let old = temporary.appendingPathComponent("sut-https-999999994-oldxxx")
        try Self.runDirectory(held)
        try Self.runDirectory(free)
        try Self.runDirectory(fresh, lock: false)
        try Self.runDirectory(old, lock: false)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: old.path)

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl,os,sys,time\nfd=os.open(sys.argv[1],os.O_RDWR)\nfcntl.flock(fd,fcntl.LOCK_EX)\nprint('locked',flush=True)\ntime.sleep(60)",
            held.appendingPathComponent(".sut-lock").path,
        ]
        let output = Pipe()
        holder.standardOutput = output
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("locked"))

        var environment = CLI.localEnvironment
        environment["TMPDIR"] = temporary.path
        let result = try CLI.run(
            ["-q", "--https", "--port", "0", "--stub", stubs, "sh", "-c", #"ls -a "$(dirname "$SUT_MOCK_SERVER_CA")""#],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(".sut-lock") && result.stdout.contains("ca.pem"), "\(result.stdout)") // the run holds its own
        let left = Set((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
        #expect(left == [held.lastPathComponent, fresh.lastPathComponent], "\(left)")
        #expect(FileManager.default.fileExists(atPath: held.appendingPathComponent("ca.pem").path))
    }

    /// The finding itself: a run in a PID namespace of its own (its pid dead out here) keeps its directory while a
    /// run out here starts, and its program still reaches the server over TLS. Needs root for `unshare --pid`.
    @Test(.enabled(if: getuid() == 0 && CLI.hasCommand("unshare") && CLI.hasCommand("curl"), "needs root, unshare and curl"))
    func aLiveRunInAnotherPIDNamespaceKeepsItsDirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let inner =
            // A few processes first, so that the run's pid in there (9, as in the finding) is one no process has out here.
            "for i in 1 2 3 4 5 6 7; do /bin/true; done; TMPDIR=\(temporary.path) \"$0\" -q --https --port 0 --stub \(stubs) sh -c "
            + #"'echo started > started; sleep 3; curl -sS -o /dev/null -w "inner %{http_code}" $SUT_MOCK_SERVER_URL/ok'"#
        let script =
            "unshare --pid --fork --mount-proc sh -c \"$1\" \"$0\" > inner.out 2>&1 & "
            + "for i in $(seq 100); do [ -f started ] && break; sleep 0.1; done; "
            + "TMPDIR=\(temporary.path) \"$0\" -q --https --port 0 --stub \(stubs) true; echo outer $?; wait; cat inner.out"
        let output = try CLI.output(of: ["sh", "-c", script, CLI.sutLaunch, inner], in: directory)
        #expect(output.contains("outer 0") && output.contains("inner 200"), "\(output)")
    }
}
