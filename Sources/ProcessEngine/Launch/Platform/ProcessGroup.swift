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

    /// SIGTERM, SIGKILL and SIGCONT.
    static let terminate = SIGTERM, kill = SIGKILL, proceed = SIGCONT

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
        guard let table = processTable() else { return true }
        return table.contains { $0.group == pgid && $0.isLive }
        #else
        return true
        #endif
    }

    /// One line of /proc/PID/stat: the process, its state letter, parent and group.
    struct Entry {
        let pid: Int32
        let state: Character
        let parent: Int32
        let group: Int32
        /// Not a zombie (Z) nor dead (X).
        var isLive: Bool { state != "Z" && state != "X" }
    }

    #if os(Linux)
    /// True while process `pid` exists and is not a zombie (/proc tells).
    static func isLive(_ pid: Int32) -> Bool {
        guard let stat = readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].dropFirst().first
        return state != nil && state != "Z" && state != "X"
    }

    /// Every process this one can see in /proc; nil when /proc cannot be read.
    static func processTable() -> [Entry]? {
        guard let directory = opendir("/proc") else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), let stat = readSmallFile("/proc/\(name)/stat") else { continue }
            // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, let state = fields[0].first, let parent = Int32(fields[1]), let group = Int32(fields[2]) else {
                continue
            }
            entries.append(Entry(pid: pid, state: state, parent: parent, group: group))
        }
        return entries
    }
    #endif

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
