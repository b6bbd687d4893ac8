#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time in milliseconds since 1970, and its ISO 8601 form (UTC), for logs clients read.
package enum WallClock {
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// `2026-11-23T14:03:05.123Z`.
    package static func iso8601(milliseconds: Double) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(milliseconds.truncatingRemainder(dividingBy: 1000))
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    /// Milliseconds since 1970 for `2026-11-23T14:03:05Z` or `…05.123Z`; nil for anything else.
    package static func milliseconds(iso8601 text: String) -> Double? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 6, text.hasSuffix("Z") else { return nil }
        var parts = tm()
        parts.tm_year = Int32(digits[0] - 1900)
        parts.tm_mon = Int32(digits[1] - 1)
        parts.tm_mday = Int32(digits[2])
        parts.tm_hour = Int32(digits[3])
        parts.tm_min = Int32(digits[4])
        parts.tm_sec = Int32(digits[5])
        let seconds = timegm(&parts)
        let fraction = digits.count > 6 ? Double("0." + String(digits[6])) ?? 0 : 0
        return (Double(seconds) + fraction) * 1000
    }
}
