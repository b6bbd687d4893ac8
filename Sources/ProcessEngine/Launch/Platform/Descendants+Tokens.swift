import AutomationSupport
internal import _CProcessSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whose descendant is whose, when several programs run at once (`sut-launch test --jobs N`, a Swift test's
/// `SUTApplication`s): every launch gets a token of its own in ``variable``, which every descendant inherits
/// through fork and exec, and a process that left the program's group (`setpgid`, `setsid`) is found by it in
/// `/proc/PID/environ` when the program is finished (``LaunchedProcess/finish(grace:)``). What drops the
/// variable (`env -i`, a program that builds its children's environment anew) is not the launch's to tell: the
/// subreaper's sweep at the end of a run (``stopAll(grace:)``) still finds it there.
extension Descendants {
    /// The variable every launched program gets: its launch's token, after the tokens of the launches it runs
    /// inside (`a,b`: a program that runs sut-launch keeps the outer run's token too).
    package static let variable = "SUT_LAUNCH_ID"

    /// This process's part of every token: its pid and 64 random bits (a later process with the same pid never
    /// shares it).
    private static let prefix = "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    private static let launches = Locked(0)

    /// A new launch's token.
    static func nextToken() -> String {
        let number = launches.withLock { count in
            count += 1
            return count
        }
        return prefix + "-" + String(number)
    }

    /// `environment` with `token` added to ``variable`` (after what is there: a run inside a run keeps both).
    static func tagged(_ environment: [String: String], token: String) -> [String: String] {
        var tagged = environment
        let outer = environment[variable].map { $0.split(separator: ",").prefix(16).joined(separator: ",") } ?? ""
        tagged[variable] = outer.isEmpty ? token : outer + "," + token
        return tagged
    }

    /// Stops every live process that carries `token` (but this one): SIGTERM and SIGCONT (to its group too when it
    /// leads one), SIGKILL after `grace`; again for what that frees, within `grace` twice plus 2 s, SIGKILL at once from
    /// round ``roundsWithTERM`` + 1 on (what appears that late answered a SIGTERM with a successor). Where this
    /// process is a subreaper (``adopt()``) such a process is its child by now (its parent ended), so only the
    /// children are read; elsewhere (a Swift test's process) every process this user can read. Returns how many
    /// processes it stopped; 0 where there is no `/proc` (macOS).
    @discardableResult
    static func stop(token: String, grace: Duration) -> Int {
        #if os(Linux)
        let deadline = ContinuousClock.now + grace * 2 + .seconds(2)
        var stopped = Set<Int32>()
        var round = 0
        while ContinuousClock.now < deadline {
            let found = settled { carrying(token) }
            if found.isEmpty { break }
            stopped.formUnion(found)
            round += 1
            if round > roundsWithTERM { // late: a successor made on SIGTERM gets none (R10C-2)
                signal(found, SIGKILL)
                waitWhileAlive(found, until: min(deadline, ContinuousClock.now + .seconds(1)))
                continue
            }
            signal(found, SIGTERM)
            signal(found, SIGCONT)
            waitWhileAlive(found, until: min(deadline, ContinuousClock.now + grace))
            let left = found.filter(isAlive)
            signal(left, SIGKILL)
            waitWhileAlive(left, until: min(deadline, ContinuousClock.now + .seconds(1)))
        }
        return stopped.count
        #else
        return 0
        #endif
    }

    #if os(Linux)
    /// Live processes (not this one, not the reaper) whose environment holds `token` in ``variable``.
    private static func carrying(_ token: String) -> [Int32] {
        let me = getpid()
        let reaper = process_reaper_pid()
        let onlyChildren = adopted.current
        return (ProcessGroup.processTable() ?? []).compactMap { entry in
            guard entry.isLive, entry.pid != me, entry.pid != reaper, !onlyChildren || entry.parent == me else { return nil }
            return environment(of: entry.pid, holds: token) ? entry.pid : nil
        }
    }

    /// True when `/proc/PID/environ` (its first 4 MiB) has ``variable`` with `token` among its tokens.
    private static func environment(of pid: Int32, holds token: String) -> Bool {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 4 << 20 {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        let name = Array((variable + "=").utf8)
        for entry in bytes.split(separator: 0, omittingEmptySubsequences: true) where entry.starts(with: name) {
            let value = entry.dropFirst(name.count)
            if value.split(separator: UInt8(ascii: ",")).contains(where: { $0.elementsEqual(token.utf8) }) { return true }
        }
        return false
    }

    /// Reaps what of `pids` is this process's child as it ends, polling every 5 ms until none is alive or
    /// `deadline` passed (a process that is not a child is gone once it is a zombie or no more).
    private static func waitWhileAlive(_ pids: [Int32], until deadline: ContinuousClock.Instant) {
        var left = pids
        while !left.isEmpty {
            left = left.filter(isAlive)
            if left.isEmpty || ContinuousClock.now >= deadline { return }
            usleep(5_000)
        }
    }

    /// Not ended: reaped here when it is a zombie child of this process.
    private static func isAlive(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return false }
        return ProcessGroup.isLive(pid)
    }
    #endif
}
