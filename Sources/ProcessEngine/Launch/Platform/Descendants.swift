import AutomationSupport
internal import _CProcessSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Descendants that left the program's process group (`setpgid`, `setsid`) and so escape the signals sent to it.
/// On Linux, sut-launch's run form is a child subreaper (``adopt()``): such a process, once its parent ended,
/// becomes sut-launch's child, and ``stopAll(grace:)`` stops every child left when the program's group is done.
/// A descendant whose parent is still alive when the run ends is found through that parent's end (the sweep
/// repeats while new orphans arrive). Elsewhere (macOS) neither exists: only the program's group is stopped.
package enum Descendants {
    /// Set once ``adopt()`` made this process a subreaper: only then are all its children the run's.
    static let adopted = Locked(false)

    /// Makes this process a child subreaper, for a process that runs one program (the run form): every child it has
    /// at the end is then the run's. False where there is none (not Linux, or the kernel refused).
    @discardableResult
    package static func adopt() -> Bool {
        #if os(Linux)
        let done = process_become_subreaper() == 1
        if done { adopted.withLock { $0 = true } }
        return done
        #else
        return false
        #endif
    }

    /// Stops every child of this process but the reaper (nothing unless ``adopt()`` was called): SIGTERM and SIGCONT
    /// (to its group when it leads one), SIGKILL after `grace`, then reaps it; again for the orphans that stopping them
    /// made ours, within `grace` twice plus 2 s. From round ``roundsWithTERM`` + 1 on, what is found gets SIGKILL at
    /// once: a process that answers each SIGTERM with a successor in a new session outlived the sweep (R10C-2).
    /// Returns how many processes it stopped, and how many were still running when its time was up.
    @discardableResult
    package static func stopAll(grace: Duration) -> (stopped: Int, left: Int) {
        #if os(Linux)
        guard adopted.current else { return (0, 0) }
        let deadline = ContinuousClock.now + grace * 2 + .seconds(2)
        var stopped = 0
        var round = 0
        while ContinuousClock.now < deadline {
            let children = settled(liveChildren)
            if children.isEmpty { return (stopped, 0) }
            stopped += children.count
            round += 1
            if round > roundsWithTERM {
                signal(children, SIGKILL)
                waitWhileAny(children, until: min(deadline, ContinuousClock.now + .seconds(1)))
                continue
            }
            signal(children, SIGTERM)
            signal(children, SIGCONT)
            waitWhileAny(children, until: min(deadline, ContinuousClock.now + grace))
            let left = liveChildren().filter { children.contains($0) }
            signal(left, SIGKILL)
            waitWhileAny(left, until: min(deadline, ContinuousClock.now + .seconds(1)))
        }
        return (stopped, liveChildren().count)
        #else
        return (0, 0)
        #endif
    }

    /// The rounds of a sweep that send SIGTERM first: the orphans of what the first round stopped get one too (a
    /// daemon's workers may clean up); what appears after that is late, and gets SIGKILL at once.
    static let roundsWithTERM = 2

    #if os(Linux)
    /// What `scan` finds; when it finds nothing, what it finds 20 ms later. `/proc` is listed before each process in it
    /// is read, so a process that forked a successor and ended in between reads as gone while its successor was not
    /// listed yet: one empty scan right after a round's SIGTERM let the successor outlive the sweep. A second scan
    /// lists what the first one's ended processes had started before they ended.
    static func settled(_ scan: () -> [Int32]) -> [Int32] {
        let found = scan()
        guard found.isEmpty else { return found }
        usleep(20_000)
        return scan()
    }

    /// This process's children but the reaper, zombies reaped on the way.
    private static func liveChildren() -> [Int32] {
        let me = getpid()
        let reaper = process_reaper_pid()
        var live: [Int32] = []
        for entry in ProcessGroup.processTable() ?? [] where entry.parent == me && entry.pid != reaper {
            if entry.isLive {
                live.append(entry.pid)
            } else {
                var status: Int32 = 0
                _ = waitpid(entry.pid, &status, WNOHANG)
            }
        }
        return live
    }

    /// Sends `signal` to each process, to its whole group when it leads one (what it started there goes too): once,
    /// so a handler that acts on SIGTERM (a request sent as it stops) does not act twice.
    static func signal(_ pids: [Int32], _ signal: Int32) {
        for pid in pids {
            if getpgid(pid) != pid || kill(-pid, signal) != 0 { _ = kill(pid, signal) }
        }
    }

    /// Reaps `pids` as they end, polling every 5 ms until none is left or `deadline` passed.
    private static func waitWhileAny(_ pids: [Int32], until deadline: ContinuousClock.Instant) {
        var left = Set(pids)
        while !left.isEmpty {
            for pid in left {
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid || (result < 0 && errno == ECHILD) { left.remove(pid) }
            }
            if left.isEmpty || ContinuousClock.now >= deadline { return }
            usleep(5_000)
        }
    }
    #endif
}
