#if os(Linux)
internal import _CProcessSpawn

/// Kills what this process launched when this process dies, however it dies (SIGKILL from a CI job timeout
/// included): the idea of Testcontainers' reaper.
///
/// On Linux it is the process runtime's reaper (`_CProcessSpawn`): a process cloned with the memory of this one
/// (one clone, no exec), in a process group of its own, that waits for end of file on a pipe only this process
/// holds. Groups are registered in memory both share, so guarding a launch costs no system call, and the
/// spawn (``Spawn/start(path:argv:environment:workingDirectory:descriptors:terminal:guarded:)``) registers the
/// child's group from inside the child before it execs, so no instant exists in which a program runs unguarded.
/// When this process ends, the kernel closes the pipe and the reaper sends SIGTERM, then SIGKILL 0.5 s later, to
/// every group still registered.
enum Reaper {
    /// Begins starting the reaper without waiting (the thread that clones it runs while the caller prepares
    /// its first launch); ``start()`` waits for it.
    static func begin() { process_reaper_begin() }

    /// Starts the reaper if it is not running yet (once per process, before the first spawn), and waits until
    /// it runs.
    static func start() { _ = process_reaper_start() }

    /// Registers a process group: it is killed if this process dies before ``release(_:)``. For a group the
    /// spawn did not register itself (the Foundation.Process backend).
    static func guardGroup(_ pgid: Int32) { _ = process_reaper_guard(pgid) }

    /// Unregisters a process group (it is finished, or stopped and reaped).
    static func release(_ pgid: Int32) { _ = process_reaper_release(pgid) }
}
#endif
