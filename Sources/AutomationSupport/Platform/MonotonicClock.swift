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

    package static func sleep(milliseconds: Int) {
        usleep(UInt32(clamping: milliseconds * 1000))
    }
}
