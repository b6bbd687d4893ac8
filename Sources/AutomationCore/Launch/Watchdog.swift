/// Kills what this process launched when this process dies, however it dies (SIGKILL from a CI job
/// timeout included): the idea of Testcontainers' reaper.
///
/// One small process per process, forked at the first launch (no exec: a loop in C that only reads, kills
/// and sleeps), in a process group of its own and deaf to job-control signals, reads `+PGID` / `-PGID`
/// lines from a pipe whose only writer is this process. When this process exits, the kernel closes the
/// pipe; the watchdog reads end of file and sends SIGTERM, then SIGKILL 0.5 s later, to every group still
/// registered. Works the same on Linux and macOS.
enum Watchdog {
    /// The write end of the watchdog's pipe; -1 when it could not be started (launches go on unguarded).
    private static let channel = Locked<Int32?>(nil)

    /// Starts the watchdog on another thread if it is not running yet, so its spawn overlaps the
    /// program's (``guardGroup(_:)`` waits for it). Called before the first spawn.
    static func start() {
        guard !started.withLock({ started in defer { started = true }; return started }) else { return }
        startThread {
            channel.withLock { fd in
                if fd == nil { fd = WatchdogProcess.start() }
            }
        }
    }
    private static let started = Locked(false)

    /// Registers a process group: it is killed if this process dies before ``release(_:)``.
    static func guardGroup(_ pgid: Int32) { send("+\(pgid)\n") }

    /// Unregisters a process group (it is finished, or stopped and reaped).
    static func release(_ pgid: Int32) { send("-\(pgid)\n") }

    private static func send(_ line: String) {
        channel.withLock { fd in
            if fd == nil { fd = WatchdogProcess.start() }
            guard let descriptor = fd, descriptor >= 0 else { return }
            if !WatchdogProcess.write(Array(line.utf8), to: descriptor) { fd = -1 } // it died: stop trying
        }
    }
}
