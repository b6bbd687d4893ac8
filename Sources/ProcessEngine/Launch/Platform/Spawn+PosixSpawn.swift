// posix_spawn: the spawn on macOS. Built and run on Linux too, by PosixSpawnTests, as the reference our own spawn
// is held against; the lines under `canImport(Darwin)` are not built or run by this repository's CI.
internal import CSystemShims
internal import _CProcessSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Spawn {
    /// Spawns `path` with the C library's posix_spawn, with what ``start(path:argv:environment:workingDirectory:descriptors:terminal:guarded:)``
    /// promises (own group or session, empty mask, default dispositions, fds 0-2 only on Linux and macOS).
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
        // SIGHUP under nohup stays ignored, as without sut-launch (``ProcessStart``); this process never handles it.
        for signal in Int32(1)..<32 where process_signal_kept_ignored(signal) == 1 { sigdelset(&allSignals, signal) }
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
        let status = withCStrings(argv, originals: OriginalBytes.arguments(argv)) { argvPointers in
            withCStrings(environment, originals: OriginalBytes.entries(environment)) { environmentPointers in
                posix_spawn(&pid, path, &actions, &attributes, argvPointers, environmentPointers)
            }
        }
        return status == 0 ? .success(pid) : .failure(Errno(status))
    }
}
