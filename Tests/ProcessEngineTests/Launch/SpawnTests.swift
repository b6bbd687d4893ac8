import Foundation
import Testing

@testable import ProcessEngine

/// Our spawn (`_CProcessSpawn`'s clone + execve, which registers the program with the reaper before it execs) held
/// against the C library's posix_spawn, which macOS uses: the program must not be able
/// to tell them apart.
@Suite struct SpawnTests {
    private typealias Starter = (String, [String], [String], String?, [Int32]) -> Result<pid_t, Errno>

    /// What programs started by `spawn` see of how they were started: their process group, signal mask and
    /// ignored signals, descriptors, directory, argv and environment. Each is read by the spawned program itself
    /// (`cat /proc/self/status`, not a shell reading its own: a shell that forks blocks its signals and holds
    /// pipes for a moment, which a child reading the shell's status can see).
    private func probe(_ spawn: Starter) throws -> String {
        let status = try run(spawn, ["/bin/cat", "/proc/self/status"]).split(separator: "\n")
        func field(_ name: String) -> String { status.first { $0.hasPrefix(name + ":") }.map { String($0) } ?? "no \(name)" }
        let pid = field("Pid").split(separator: "\t").last
        let group = field("NSpgid").split(separator: "\t").last
        return [
            pid == group ? "group leader" : "\(field("Pid")) \(field("NSpgid"))", field("SigBlk"), field("SigIgn"),
            try run(spawn, ["/bin/ls", "/proc/self/fd"]).split(separator: "\n").joined(separator: " "), // 3: ls's own
            try run(spawn, ["/bin/sh", "-c", "pwd; echo \"$0 $PROBE_VALUE\""], argv0: "probe-argv0"),
        ].joined(separator: "\n")
    }

    private func run(
        _ spawn: Starter, _ argv: [String], argv0: String? = nil,
        environment: [String] = ["PROBE_VALUE=42", "PATH=/usr/bin:/bin"]
    ) throws -> String {
        let output = try #require(ProcessEngine.Pipe.make())
        let null = ProcessEngine.Pipe.openNull(forWriting: false)
        // A descriptor the caller left inheritable: it must not reach the program.
        let leaked = open("/dev/null", O_RDONLY)
        defer {
            close(leaked)
            close(null)
        }
        // Signals blocked and ignored in the spawning thread must not be either in the program.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        let result = spawn(
            argv[0], [argv0 ?? argv[0]] + argv.dropFirst(), environment, "/usr",
            [null, output.write, output.write])
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        signal(SIGPIPE, oldPipe)
        close(output.write)
        let pid = try result.get()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output.read, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        close(output.read)
        #expect(Spawn.exitStatus(Spawn.waitForExit(pid)) == .exited(0))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theProgramCannotTellOurSpawnFromPosixSpawn() throws {
        let ours = try probe { path, argv, environment, directory, descriptors in
            Spawn.start(path: path, argv: argv, environment: environment, workingDirectory: directory, descriptors: descriptors)
                .map(\.pid)
        }
        let library = try probe { path, argv, environment, directory, descriptors in
            Spawn.posixSpawn(
                path: path, argv: argv, environment: environment, workingDirectory: directory,
                descriptors: descriptors, terminal: nil)
        }
        #expect(ours == "group leader\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n0 1 2 3\n/usr\nprobe-argv0 42\n")
        // glibc's posix_spawn child sets SIG_IGN on the two signals it reserves (32 and 33) and exec keeps that;
        // ours resets every signal to its default.
        let reserved = "SigIgn:\t0000000180000000"
        let clean = "SigIgn:\t0000000000000000"
        #expect(library.replacingOccurrences(of: reserved, with: clean) == ours)
    }

    /// argv and the environment reach the program byte for byte: empty strings, `=` inside values, non-ASCII
    /// text, long values, and no environment at all (the C arrays are packed into one buffer).
    @Test func argvAndEnvironmentArriveByteForByte() throws {
        let argv = ["/usr/bin/env", "-0"]
        let environment = ["EMPTY=", "EQUALS=a=b=c", "TEXT=héllo wörld ✓", "LONG=" + String(repeating: "x", count: 70_000), "=noname"]
        let listed = try run(
            { path, argv, environment, directory, descriptors in
                Spawn.start(path: path, argv: argv, environment: environment, workingDirectory: directory, descriptors: descriptors).map(
                    \.pid)
            }, argv, environment: environment)
        #expect(listed.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init) == environment)
        let none = try run(
            { path, argv, environment, directory, descriptors in
                Spawn.start(path: path, argv: argv, environment: environment, workingDirectory: directory, descriptors: descriptors).map(
                    \.pid)
            }, argv, environment: [])
        #expect(none.isEmpty)
        let echoed = try run(
            { path, argv, environment, directory, descriptors in
                Spawn.start(path: path, argv: argv, environment: environment, workingDirectory: directory, descriptors: descriptors).map(
                    \.pid)
            }, ["/usr/bin/printf", "[%s]", "", "a b", "ü=✓", ""])
        #expect(echoed == "[][a b][ü=✓][]")
    }

    @Test func errorsAreTheOnesPosixSpawnReports() {
        for path in ["/no/such/program", "/etc/hostname", "/tmp"] {
            let ours = Spawn.start(path: path, argv: [path], environment: [], workingDirectory: nil, descriptors: [0, 1, 2])
            let library = Spawn.posixSpawn(
                path: path, argv: [path], environment: [], workingDirectory: nil,
                descriptors: [0, 1, 2], terminal: nil)
            switch (ours, library) {
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(path)")
            default: Issue.record("\(path): ours \(ours), posix_spawn \(library)")
            }
        }
        let missingDirectory = Spawn.start(
            path: "/bin/true", argv: ["true"], environment: [], workingDirectory: "/no/such/dir",
            descriptors: [0, 1, 2])
        #expect(missingDirectory.map(\.pid) == .failure(Errno(ENOENT)))
    }
}
