/// Parses durations like `500ms`, `30s`, `2m`, `1.5h` and compound ones like `1m30s` or `1h2m3.5s`; a bare
/// number is seconds. Each number is digits as a whole number is written (no sign, no leading zero: `0`, `5`,
/// `0.5`, never `05`, `00`, `.5` or `5.`), then read by ``BoundedNumber``; up to a billion seconds in all (beyond,
/// nil: a Duration counts nanoseconds in an Int64, which a longer one would overflow). A duration of 0 means none
/// of it where it bounds something (`--timeout 0`, `--scenario-timeout 0`: no timeout); its reader says so.
package enum DurationParser {
    package static let maxSeconds = 1e9

    package static func parse(_ text: String) -> Duration? {
        guard !text.isEmpty, text.utf8.count <= BoundedNumber.maxLength else { return nil }
        if text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) { return seconds(number(text[...])) }
        // Number-unit pairs, largest unit first, each unit once: 1h2m3s, 1m30s, 2s500ms.
        let order = ["h", "m", "s", "ms"]
        let factors: [String: Double] = ["h": 3600, "m": 60, "s": 1, "ms": 0.001]
        var total = 0.0
        var lastUnit = -1
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            var unit = String(rest.prefix { $0.isASCII && $0.isLetter })
            if unit.hasPrefix("ms") { unit = "ms" } else if unit.count > 1 { return nil }
            rest = rest.dropFirst(unit.count)
            guard let value = self.number(number), let position = order.firstIndex(of: unit),
                position > lastUnit, let factor = factors[unit]
            else { return nil }
            lastUnit = position
            total += value * factor
        }
        return seconds(total)
    }

    /// One number of a duration: `0`, `12`, `0.5`, `1.25`; nil for `05`, `00`, `.5`, `5.` (the step-number rule).
    private static func number(_ text: Substring) -> Double? { BoundedNumber.writtenDecimal(text, in: 0...maxSeconds) }

    private static func seconds(_ value: Double?) -> Duration? {
        guard let value, value.isFinite, value >= 0, value <= maxSeconds else { return nil }
        // A positive duration under a nanosecond is one nanosecond, never zero: `--timeout 0` means no timeout,
        // and `--timeout 0.0000000001s` must not mean that too.
        return .nanoseconds(value > 0 ? max(1, Int64(value * 1e9)) : 0)
    }

    /// A duration the one way sut-launch prints them: `63ms`, `1.2s`, `45s`, `1m30s`, `2h5m`.
    package static func format(_ duration: Duration) -> String {
        let (wholeSeconds, attoseconds) = duration.components
        let seconds = Double(wholeSeconds) + Double(attoseconds) / 1e18
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds < 60 {
            let tenths = Int((seconds * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
        }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total % 3600 / 60, total % 60)
        if hours > 0 { return "\(hours)h" + (minutes > 0 ? "\(minutes)m" : "") + (secs > 0 ? "\(secs)s" : "") }
        return "\(minutes)m" + (secs > 0 ? "\(secs)s" : "")
    }
}
