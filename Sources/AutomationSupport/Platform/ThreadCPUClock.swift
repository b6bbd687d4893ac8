#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time one thread has used since the clock was taken, readable from any other thread while that thread
/// lives: how a watchdog tells work that spins (CPU) from work that waits behind a loaded machine (wall time).
/// Linux reads the thread's own CPU clock; elsewhere it is monotonic wall time (an upper bound of the CPU time).
package struct ThreadCPUClock: Sendable {
    #if os(Linux)
    private let clock: clockid_t
    #endif
    private let start: Int

    /// The calling thread's clock, counting from now; nil when the system gives none.
    package static func current() -> ThreadCPUClock? {
        #if os(Linux)
        var clock = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &clock) == 0, let start = read(clock) else { return nil }
        return ThreadCPUClock(clock: clock, start: start)
        #else
        return ThreadCPUClock(start: Int(MonotonicClock.milliseconds() * 1_000_000))
        #endif
    }

    /// Nanoseconds of CPU used by the thread since ``current()`` (0 when the clock cannot be read: the thread ended).
    package var elapsedNanoseconds: Int {
        #if os(Linux)
        return Self.read(clock).map { max(0, $0 - start) } ?? 0
        #else
        return max(0, Int(MonotonicClock.milliseconds() * 1_000_000) - start)
        #endif
    }

    #if os(Linux)
    private static func read(_ clock: clockid_t) -> Int? {
        var now = timespec()
        guard clock_gettime(clock, &now) == 0 else { return nil }
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
    #endif
}
