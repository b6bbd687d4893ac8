internal import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts the ``Watchdog`` process and writes to it.
enum WatchdogProcess {
    /// Forks the watchdog (see `csystem_fork_watchdog`), its stdin the read end of a new pipe. Returns the
    /// pipe's write end (close-on-exec: no program inherits it), or -1.
    static func start() -> Int32 {
        guard let pipe = PosixSpawn.pipe() else { return -1 }
        defer { close(pipe.read) }
        guard csystem_fork_watchdog(pipe.read) > 0 else {
            close(pipe.write)
            return -1
        }
        return pipe.write
    }

    /// Writes all of `bytes`; false when the watchdog is gone (EPIPE, without raising SIGPIPE).
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { writeWithoutSIGPIPE(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
