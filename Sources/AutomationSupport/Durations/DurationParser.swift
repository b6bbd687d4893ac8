/// Parses durations like `500ms`, `30s`, `2m`, `1.5h`; a bare number is seconds. Up to a billion seconds
/// (beyond, nil: a Duration counts nanoseconds in an Int64, which a longer one would overflow).
package enum DurationParser {
    static let maxSeconds = 1e9

    package static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite, value >= 0, value * scale <= maxSeconds else { return nil }
        return .nanoseconds(Int64(value * scale * 1e9))
    }
}
