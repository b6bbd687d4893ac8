#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals to a process group, and questions about it that kill(2) alone answers wrongly.
enum ProcessGroup {
    /// Sends `signal` to every process of group `pgid`; false when none could be signalled (errno tells).
    @discardableResult
    static func signal(_ pgid: Int32, _ signal: Int32) -> Bool { systemKill(-pgid, signal) == 0 }

    /// SIGTERM and SIGKILL.
    static let terminate = SIGTERM, kill = SIGKILL

    /// Waits, polling every 2 ms, while the group has live members and `deadline` has not passed.
    static func waitWhileAlive(_ pgid: Int32, until deadline: ContinuousClock.Instant) {
        while hasLiveMembers(pgid) && ContinuousClock.now < deadline { usleep(2_000) }
    }

    /// Sends `signal` to process `pid` only.
    static func signalProcess(_ pid: Int32, _ signal: Int32) { _ = systemKill(pid, signal) }

    /// True when the group has a member that is not a zombie.
    ///
    /// kill(-pgid, 0) also succeeds while a killed member waits to be reaped by init, which some container
    /// inits do only every second or so; on Linux /proc tells zombies apart.
    static func hasLiveMembers(_ pgid: Int32) -> Bool {
        guard systemKill(-pgid, 0) == 0 else { return false }
        #if os(Linux)
        guard let directory = opendir("/proc") else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = name.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { continue }
            guard let stat = readSmallFile("/proc/\(name)/stat") else { continue }
            // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, Int32(fields[2]) == pgid else { continue }
            if fields[0] != "Z" && fields[0] != "X" { return true }
        }
        return false
        #else
        return true
        #endif
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

/// kill(2), under a name the static `ProcessGroup.kill` does not hide.
private func systemKill(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid, signal) }
