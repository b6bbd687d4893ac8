#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared `flock` a run holds on a directory it writes into (`--artifacts DIR`) for as long as the process lives: a
/// process that can take it exclusively knows no live run uses the directory (whatever its pid namespace), so what a
/// dead run left half-written there may go.
enum DirectoryLock {
    /// Opens `path` and holds a shared lock on it until the process ends, first running `ifAlone` when the lock could
    /// be had exclusively. The descriptor, or nil when the directory cannot be opened.
    static func holdShared(_ path: String, ifAlone: () -> Void) -> Int32? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { ifAlone() }
        _ = flock(fd, LOCK_SH) // a run that started meanwhile holds it shared too: no sweep while either runs
        return fd
    }
}
