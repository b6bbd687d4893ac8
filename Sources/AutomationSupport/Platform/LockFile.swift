#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file that keeps two runs out of one directory (`--coverage DIR`, a recording's root).
/// The kernel drops it when its holder ends, however it ends (a normal exit, a signal, SIGKILL), so a lock left by a
/// dead run never blocks the next one. The holder writes its pid into the file, for the refusal of the next to name.
package enum LockFile {
    /// What ``take(_:)`` found.
    package enum Outcome: Equatable, Sendable {
        /// Taken: the descriptor, held until ``release(_:)`` or the process ends.
        case taken(Int32)
        /// Another process holds it: its pid, when it has written it yet.
        case held(pid: Int32?)
        /// The file cannot be opened (a link, not writable, no directory).
        case cannotOpen
    }

    /// Takes the lock on `path` (made when missing, never through a link; close-on-exec, so launches do not inherit
    /// it), and writes this process's pid into the file.
    package static func take(_ path: String) -> Outcome {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .cannotOpen }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let pid = holder(fd)
            close(fd)
            return .held(pid: pid)
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        return .taken(fd)
    }

    package static func release(_ fd: Int32) { close(fd) }

    /// The pid the holder wrote, when the file holds one.
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: " \n")
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
