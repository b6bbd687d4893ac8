// macOS: not built or run by this repository's CI (Linux x86_64). Linux uses the process runtime's reaper
// (Reaper+Linux.swift).
#if !os(Linux)
import AutomationSupport
import Darwin

/// Kills what this process launched when this process dies, however it dies (SIGKILL from a CI job
/// timeout included), as the Linux reaper does: one small `sh` per process, started at the first launch in a
/// process group of its own, reading `+PGID` / `-PGID` lines from a pipe only this process holds; at end of
/// file it sends SIGTERM, then SIGKILL 0.5 s later, to every group still registered. A group is registered
/// after posix_spawn returns (an instant exists in which a SIGKILL of this process orphans the program).
enum Reaper {
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

    /// The write end of the reaper's pipe; -1 when it could not be started (launches go on unguarded).
    private static let channel = Locked<Int32?>(nil)

    /// The same as ``start()`` (which does not wait either).
    static func begin() { start() }

    /// Starts the reaper on another thread if it is not running yet, so its spawn overlaps the
    /// program's (``guardGroup(_:)`` waits for it). Called before the first spawn.
    static func start() {
        guard
            !started.withLock({ started in
                defer { started = true }
                return started
            })
        else { return }
        startThread {
            channel.withLock { fd in
                if fd == nil { fd = startShell() }
            }
        }
    }
    private static let started = Locked(false)

    /// Registers a process group: it is killed if this process dies before ``release(_:)``.
    static func guardGroup(_ pgid: Int32) {
        send("+\(pgid)\n")
    }

    /// Unregisters a process group (it is finished, or stopped and reaped).
    static func release(_ pgid: Int32) {
        send("-\(pgid)\n", startingTheReaper: false)
    }

    private static func send(_ line: String, startingTheReaper: Bool = true) {
        channel.withLock { fd in
            if fd == nil && startingTheReaper { fd = startShell() }
            guard let descriptor = fd, descriptor >= 0 else { return }
            if !write(Array(line.utf8), to: descriptor) { fd = -1 } // it died: stop trying
        }
    }

    /// Spawns `/bin/sh -c script` in its own process group, its stdin the read end of a new pipe, stdout and
    /// stderr on /dev/null. Returns the pipe's write end (close-on-exec: no program inherits it), or -1.
    private static func startShell() -> Int32 {
        guard let pipe = Pipe.make() else { return -1 }
        let null = Pipe.openNull(forWriting: true)
        defer {
            close(pipe.read)
            if null >= 0 { close(null) }
        }
        let result =
            null < 0
            ? .failure(Errno.current)
            : Spawn.start(
                path: "/bin/sh", argv: ["sut-reaper", "-c", script], environment: ["PATH=/usr/bin:/bin:/usr/sbin:/sbin"],
                workingDirectory: "/", descriptors: [pipe.read, null, null])
        guard case .success = result else {
            close(pipe.write)
            return -1
        }
        return pipe.write
    }

    /// Writes all of `bytes`; false when the reaper is gone (EPIPE, without raising SIGPIPE).
    private static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Descriptor.writeWithoutSIGPIPE(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
#endif
