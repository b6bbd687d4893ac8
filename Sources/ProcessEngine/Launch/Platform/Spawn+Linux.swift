#if os(Linux)
internal import _CProcessSpawn
import Glibc

extension Spawn {
    /// Spawns `path` in a new process group (its PGID is its PID) with an empty signal mask and default
    /// signal dispositions; `descriptors[i]` becomes the child's fd i, every other descriptor is closed.
    /// - Parameter terminal: the path of a pseudo-terminal's program side: the child then starts a session
    ///   of its own (so also a group) and gets the terminal as fds 0, 1 and 2 and as its controlling terminal;
    ///   `descriptors` is not used.
    /// - Parameter guarded: register the child's group with the reaper from inside the child, before it execs,
    ///   so a SIGKILL of this process at any instant after the program starts running still ends it.
    /// - Returns: the pid and whether the reaper guards its group already, or the errno of the failed spawn.
    static func start(
        path: String, argv: [String], environment: [String], workingDirectory: String?, descriptors: [Int32], terminal: String? = nil,
        guarded: Bool = false
    ) -> Result<(pid: pid_t, guarded: Bool), Errno> {
        var pid: pid_t = 0
        var registered: Int32 = 0
        let status = withCStrings(argv, originals: OriginalBytes.arguments(argv)) { argvPointers in
            withCStrings(environment, originals: OriginalBytes.entries(environment)) { environmentPointers in
                descriptors.withUnsafeBufferPointer { fds in
                    process_spawn(
                        path, argvPointers, environmentPointers, workingDirectory, fds.baseAddress, Int32(fds.count),
                        terminal, guarded ? 1 : 0, &pid, &registered)
                }
            }
        }
        return status == 0 ? .success((pid, registered == 1)) : .failure(Errno(status))
    }
}
#endif
