import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts programs and waits for them: one spawn per platform. Linux: the process runtime's own spawn
/// (`_CProcessSpawn`: clone with CLONE_VM | CLONE_VFORK, then execve; the child registers its group with the
/// reaper before it execs), `Spawn+Linux.swift`. macOS: posix_spawn (`Spawn+PosixSpawn.swift`, which the tests
/// also run on Linux, as the reference the program must not be able to tell ours from).
///
/// Why not Foundation.Process by default (measured on Swift 6.3.1, Linux; the launcher contract tests run both
/// backends and mark what Foundation.Process cannot meet):
/// - waitUntilExit() polls its run loop in 50 ms steps; a trivial program "takes" 56 ms.
/// - the child inherits the spawning thread's signal mask (a Dispatch worker blocks SIGTERM, so terminate()
///   does nothing); we set an empty mask and default dispositions explicitly.
/// - exit detection waits on a descriptor the child inherits: a background grandchild that keeps it open
///   delays the exit by seconds. waitpid() here sees the exit at once.
enum Spawn {
    /// Blocks until `pid` exits; returns the raw wait status. When the status is lost (ECHILD: someone else
    /// reaped it, or this process ignores SIGCHLD, as a library user's process may) it says so and returns
    /// exit code 125, never 0: a status not seen is not a success.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                StandardStreams.error(
                    "sut-launch: error: lost the exit status of process \(pid) (waitpid: \(Errno(errno))); is SIGCHLD ignored? Reporting exit code \(ExitCode.cannotLaunch)\n"
                )
                return ExitCode.cannotLaunch << 8
            }
        }
        return status
    }

    /// Sleeps `microseconds` before a spawn is tried again.
    static func backOff(microseconds: UInt32) { usleep(microseconds) }

    /// A raw wait status as an exit code or a signal.
    static func exitStatus(_ status: Int32) -> ProcessStatus {
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(status & 0x7F)
    }

    /// A NULL-terminated array of C strings for `strings`, in one allocation (the environment is ~40 strings on
    /// every launch's path: one strdup and free each cost more than the copy).
    /// A string with `originals` at its index is written as those bytes (the bytes sut-launch received, where they
    /// are not UTF-8: ``OriginalBytes``): the program gets what it was given, not U+FFFD.
    static func withCStrings<R>(
        _ strings: [String], originals: [[UInt8]?], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        var bytes = 0
        for (index, string) in strings.enumerated() { bytes += (originals[index]?.count ?? string.utf8.count) + 1 }
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes, 1))
        defer {
            pointers.deallocate()
            text.deallocate()
        }
        var offset = 0
        for (index, string) in strings.enumerated() {
            pointers[index] = text + offset
            if let original = originals[index] {
                for byte in original {
                    text[offset] = CChar(bitPattern: byte)
                    offset += 1
                }
            } else {
                for byte in string.utf8 {
                    text[offset] = CChar(bitPattern: byte)
                    offset += 1
                }
            }
            text[offset] = 0
            offset += 1
        }
        pointers[strings.count] = nil
        return body(pointers)
    }
}
