@testable import AutomationCore
import Foundation
import Testing

/// Our spawn (the C shims' clone + execve, which registers the program with the reaper before it execs) held
/// against the C library's posix_spawn, which macOS and other architectures use: the program must not be able
/// to tell them apart.
@Suite struct PosixSpawnTests {
    /// What a program sees of how it was started: its process group and session, signal mask and ignored
    /// signals, descriptors, directory, argv and environment.
    private static let probe = """
        read -r line < /proc/$$/stat; set -- $line
        [ "$5" = "$1" ] && echo "group leader" || echo "group $5 is not pid $1"
        grep -E '^Sig(Blk|Ign)' /proc/$$/status
        ls /proc/$$/fd | sort -n | tr '\\n' ' '; echo
        pwd; echo "$0 $PROBE_VALUE"
        """

    private func run(_ spawn: (String, [String], [String], String?, [Int32]) -> Result<pid_t, Errno>) throws -> String {
        let output = try #require(PosixSpawn.pipe())
        let null = PosixSpawn.openNull(forWriting: false)
        // A descriptor the caller left inheritable: it must not reach the program.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked); close(null) }
        // Signals blocked and ignored in the spawning thread must not be either in the program.
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        let result = spawn("/bin/sh", ["probe-argv0", "-c", Self.probe], ["PROBE_VALUE=42", "PATH=/usr/bin:/bin"], "/usr",
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
        #expect(PosixSpawn.exitStatus(PosixSpawn.waitForExit(pid)) == .exited(0))
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theProgramCannotTellOurSpawnFromPosixSpawn() throws {
        let ours = try run { path, argv, environment, directory, descriptors in
            PosixSpawn.spawn(path: path, argv: argv, environment: environment, workingDirectory: directory, descriptors: descriptors)
                .map(\.pid)
        }
        let library = try run { path, argv, environment, directory, descriptors in
            PosixSpawn.posixSpawn(path: path, argv: argv, environment: environment, workingDirectory: directory,
                                  descriptors: descriptors, terminal: nil)
        }
        #expect(ours == "group leader\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n0 1 2 \n/usr\nprobe-argv0 42\n")
        // glibc's sigfillset leaves out the two signals it reserves (32 and 33), so its POSIX_SPAWN_SETSIGDEF passes
        // an ignored disposition of theirs on (this test process has them ignored); ours resets every signal.
        let reserved = "SigIgn:\t0000000180000000\n", clean = "SigIgn:\t0000000000000000\n"
        #expect(library.replacingOccurrences(of: reserved, with: clean) == ours)
    }

    @Test func errorsAreTheOnesPosixSpawnReports() {
        for path in ["/no/such/program", "/etc/hostname", "/tmp"] {
            let ours = PosixSpawn.spawn(path: path, argv: [path], environment: [], workingDirectory: nil, descriptors: [0, 1, 2])
            let library = PosixSpawn.posixSpawn(path: path, argv: [path], environment: [], workingDirectory: nil,
                                                descriptors: [0, 1, 2], terminal: nil)
            switch (ours, library) {
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(path)")
            default: Issue.record("\(path): ours \(ours), posix_spawn \(library)")
            }
        }
        let missingDirectory = PosixSpawn.spawn(path: "/bin/true", argv: ["true"], environment: [], workingDirectory: "/no/such/dir",
                                                descriptors: [0, 1, 2])
        #expect(missingDirectory.map(\.pid) == .failure(Errno(ENOENT)))
    }
}
