#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Milliseconds on the monotonic clock, and sleeping.
package enum MonotonicClock {
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Sleeps `milliseconds` (negative: not at all; at most ~71 minutes, what usleep takes); never traps.
    package static func sleep(milliseconds: Int) {
        let capped = min(max(milliseconds, 0), Int(UInt32.max / 1000))
        usleep(UInt32(capped * 1000))
    }
}

/// Sleeps for `duration` (the rest of it after a signal interrupts). Here, beside the clock, because `timespec`'s
/// initialisers resolve in this module in every build (a whole-module release build of Scenarios took them from
/// SwiftOverlayShims, which it does not import).
package func sleepFor(_ duration: Duration) throws {
    let nanoseconds = max(0, duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
