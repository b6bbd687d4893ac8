// The one place the launcher talks to the C library about processes: posix_spawn, waitpid, pipes, threads.
//
// Why posix_spawn by default rather than Foundation.Process (measured on Swift 6.3.1, Linux; the launcher
// contract tests run both backends and mark what Foundation.Process cannot meet):
// - waitUntilExit() polls its run loop in 50 ms steps; a trivial program "takes" 56 ms.
// - the child inherits the spawning thread's signal mask (a Dispatch worker blocks SIGTERM, so terminate()
//   does nothing); we set an empty mask and default dispositions explicitly.
// - exit detection waits on a descriptor the child inherits: a background grandchild that keeps it open
//   delays the exit by seconds. waitpid() here sees the exit at once.
internal import CSystemShims
import AutomationSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum PosixSpawn {
    /// Spawns `path` in a new process group (its PGID is its PID) with an empty signal mask and default
    /// signal dispositions; `descriptors[i]` becomes the child's fd i.
    /// - Parameter terminal: the path of a pseudo-terminal's program side: the child then starts a session
    ///   of its own (so also a group) and gets the terminal as fds 0, 1 and 2 and as its controlling terminal;
    ///   `descriptors` is not used.
    /// - Parameter guarded: register the child's group with the reaper from inside the child, before it execs
    ///   (Linux on x86_64 and arm64: the C shims' spawn), so a SIGKILL of this process at any instant after
    ///   the program starts running still ends it.
    /// - Returns: the pid and whether the reaper guards its group already, or the errno of the failed spawn.
    static func spawn(
        path: String, argv: [String], environment: [String], workingDirectory: String?, descriptors: [Int32], terminal: String? = nil,
        guarded: Bool = false
    ) -> Result<(pid: pid_t, guarded: Bool), Errno> {
        var pid: pid_t = 0
        var registered: Int32 = 0
        let status = withCStrings(argv) { argvPointers in
            withCStrings(environment) { environmentPointers in
                descriptors.withUnsafeBufferPointer { fds in
                    csystem_spawn(path, argvPointers, environmentPointers, workingDirectory, fds.baseAddress, Int32(fds.count),
                                  terminal, guarded ? 1 : 0, &pid, &registered)
                }
            }
        }
        if status == 0 { return .success((pid, registered == 1)) }
        if status != ENOSYS { return .failure(Errno(status)) }
        return posixSpawn(path: path, argv: argv, environment: environment, workingDirectory: workingDirectory,
                          descriptors: descriptors, terminal: terminal).map { ($0, false) }
    }

    /// The same with the C library's posix_spawn (macOS, other architectures).
    static func posixSpawn(
        path: String, argv: [String], environment: [String], workingDirectory: String?, descriptors: [Int32], terminal: String?
    ) -> Result<pid_t, Errno> {
        // Glibc's posix_spawn types are structs; Darwin's are opaque pointers that the init calls allocate.
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto itself too: it clears close-on-exec on that descriptor (glibc >= 2.29, macOS), and on macOS,
        // where POSIX_SPAWN_CLOEXEC_DEFAULT closes every descriptor no action names, it is what keeps it open.
        if let terminal {
            let status = terminal.withCString { posix_spawn_file_actions_addopen(&actions, 0, $0, O_RDWR, 0) }
            if status != 0 { return .failure(Errno(status)) }
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
        } else {
            for (target, source) in descriptors.enumerated() {
                posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
            }
        }
        if let workingDirectory {
            let status = workingDirectory.withCString { csystem_spawn_file_actions_addchdir(&actions, $0) }
            if status != 0 { return .failure(Errno(status)) }
        }
        #if canImport(Glibc)
        // The child gets fds 0, 1, 2 only: a descriptor the caller left inheritable (a file a test is
        // writing, a socket) must not reach the program (ETXTBSY, ports held open, leaked files).
        _ = csystem_spawn_file_actions_addclosefrom(&actions, terminal == nil ? Int32(descriptors.count) : 3)
        #endif

        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t = nil
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if terminal != nil {
            let setsid = csystem_spawn_setsid_flag() // a session leader is also the leader of a new group
            guard setsid != 0 else { return .failure(Errno(ENOSYS)) }
            flags |= setsid
        } else {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let status = withCStrings(argv) { argvPointers in
            withCStrings(environment) { environmentPointers in
                posix_spawn(&pid, path, &actions, &attributes, argvPointers, environmentPointers)
            }
        }
        return status == 0 ? .success(pid) : .failure(Errno(status))
    }

    /// A pipe whose both ends are close-on-exec (dup2 in the child clears the flag on the copy it makes).
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard csystem_pipe_cloexec(&fds) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    /// Opens /dev/null close-on-exec.
    static func openNull(forWriting: Bool) -> Int32 {
        open("/dev/null", (forWriting ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
    }

    /// Blocks until `pid` exits; returns the raw wait status. When the status is lost (ECHILD: someone else
    /// reaped it, or this process ignores SIGCHLD, as a library user's process may) it says so and returns
    /// exit code 125, never 0: a status not seen is not a success.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                StandardStreams.error("sut-launch: error: lost the exit status of process \(pid) (waitpid: \(Errno(errno))); is SIGCHLD ignored? Reporting exit code \(ExitCode.cannotLaunch)\n")
                return ExitCode.cannotLaunch << 8
            }
        }
        return status
    }

    static func exitStatus(_ status: Int32) -> ProcessStatus {
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(status & 0x7F)
    }

    /// A NULL-terminated array of C strings for `strings`, in one allocation (the environment is ~40 strings on
    /// every launch's path: one strdup and free each cost more than the copy).
    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var bytes = 0
        for string in strings { bytes += string.utf8.count + 1 }
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes, 1))
        defer {
            pointers.deallocate()
            text.deallocate()
        }
        var offset = 0
        for (index, string) in strings.enumerated() {
            pointers[index] = text + offset
            for byte in string.utf8 {
                text[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            text[offset] = 0
            offset += 1
        }
        pointers[strings.count] = nil
        return body(pointers)
    }
}

/// A C errno with its text.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value (`ENOENT`).
    public let rawValue: Int32
    /// The errno `rawValue`.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public var description: String { String(cString: strerror(rawValue)) }
}

/// Starts a detached POSIX thread (not a Dispatch worker: these threads block in waitpid, poll and read).
/// When no thread can be started the work runs inline rather than being lost.
package func startThread(_ body: @escaping @Sendable () -> Void) {
    if !startDetachedThread(body) { body() }
}
