import AutomationSupport
internal import CSystemShims

/// Kills what this process launched when this process dies, however it dies (SIGKILL from a CI job
/// timeout included): the idea of Testcontainers' reaper.
///
/// On Linux (x86_64, arm64) it is the C shims' reaper: a process cloned with the memory of this one (one
/// clone, no exec), in a process group of its own, that waits for end of file on a pipe only this process
/// holds; groups are registered in memory both share, so guarding a launch costs no system call, and the
/// launcher's own spawn (`csystem_spawn`) registers the child's group from inside the child before it execs,
/// so no instant exists in which a program runs unguarded. When this
/// process ends, the kernel closes the pipe and the reaper sends SIGTERM, then SIGKILL 0.5 s later, to every
/// group still registered.
///
/// Elsewhere (macOS, other architectures) it is one small `sh` per process with the same behaviour, started
/// at the first launch in a process group of its own, reading `+PGID` / `-PGID` lines from such a pipe.
enum Watchdog {
    /// The script: ignores the signals a terminal or a CI runner sends to a job, keeps the set of groups.
    static let script = """
        trap '' INT TERM HUP QUIT PIPE
        groups=' '
        while IFS= read -r line; do
          case $line in
            +*) groups="$groups${line#+} " ;;
            -*) kept=' '; for g in $groups; do [ "$g" = "${line#-}" ] || kept="$kept$g "; done; groups=$kept ;;
          esac
        done
        [ "$groups" = ' ' ] && exit 0
        for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
        sleep 0.5
        for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
        """

    /// The write end of the watchdog's pipe; -1 when it could not be started (launches go on unguarded).
    private static let channel = Locked<Int32?>(nil)

    /// Starts the watchdog on another thread if it is not running yet, so its spawn overlaps the
    /// program's (``guardGroup(_:)`` waits for it). Called before the first spawn.
    static func start() {
        if csystem_reaper_start() == 1 { return }
        guard !started.withLock({ started in defer { started = true }; return started }) else { return }
        startThread {
            channel.withLock { fd in
                if fd == nil { fd = WatchdogProcess.start(script: script) }
            }
        }
    }
    private static let started = Locked(false)

    /// Registers a process group: it is killed if this process dies before ``release(_:)``.
    static func guardGroup(_ pgid: Int32) {
        if csystem_reaper_guard(pgid) == 1 { return }
        send("+\(pgid)\n")
    }

    /// Unregisters a process group (it is finished, or stopped and reaped).
    static func release(_ pgid: Int32) {
        if csystem_reaper_release(pgid) == 1 { return }
        send("-\(pgid)\n", startingTheWatchdog: false)
    }

    private static func send(_ line: String, startingTheWatchdog: Bool = true) {
        channel.withLock { fd in
            if fd == nil && startingTheWatchdog { fd = WatchdogProcess.start(script: script) }
            guard let descriptor = fd, descriptor >= 0 else { return }
            if !WatchdogProcess.write(Array(line.utf8), to: descriptor) { fd = -1 } // it died: stop trying
        }
    }
}
