#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts the ``Watchdog``'s `sh` and writes to it.
enum WatchdogProcess {
    /// Spawns `/bin/sh -c script` in its own process group, its stdin the read end of a new pipe, stdout and
    /// stderr on /dev/null. Returns the pipe's write end (close-on-exec: no program inherits it), or -1.
    static func start(script: String) -> Int32 {
        guard let pipe = PosixSpawn.pipe() else { return -1 }
        let null = PosixSpawn.openNull(forWriting: true)
        defer {
            close(pipe.read)
            if null >= 0 { close(null) }
        }
        guard null >= 0 else {
            close(pipe.write)
            return -1
        }
        let result = PosixSpawn.spawn(path: "/bin/sh", argv: ["sut-launch-watchdog", "-c", script],
                                      environment: ["PATH=/usr/bin:/bin:/usr/sbin:/sbin"], workingDirectory: "/",
                                      descriptors: [pipe.read, null, null])
        guard case .success = result else {
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
