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
