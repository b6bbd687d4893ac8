import AutomationSupport

/// WireMock's random delays (`delayDistribution`): each answer waits a sample, added to `fixedDelayMilliseconds`,
/// never more than ``StubRanges/delayMs`` allows.
enum DelayDistribution: Sendable, Hashable {
    /// `{"type": "lognormal", "median": 80, "sigma": 0.4}`: `median × e^(sigma × N(0,1))`, below `maxValue` when given.
    case lognormal(median: Double, sigma: Double, maxValue: Double?)
    /// `{"type": "uniform", "lower": 15, "upper": 25}`: a whole number of milliseconds from lower to upper.
    case uniform(lower: Int, upper: Int)
    /// `{"type": "fixed", "milliseconds": 100}`.
    case fixed(Int)

    /// One sample, in milliseconds, within ``StubRanges/delayMs``.
    func sampleMs<Random: RandomNumberGenerator>(using random: inout Random) -> Int {
        let limit = StubRanges.delayMs.upperBound
        switch self {
        case .fixed(let milliseconds): return milliseconds
        case .uniform(let lower, let upper): return Int.random(in: lower...upper, using: &random)
        case .lognormal(let median, let sigma, let maxValue):
            // Box-Muller: one standard normal from two uniforms (the first never 0, so the logarithm is finite).
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random)
            let u2 = Double.random(in: 0..<1, using: &random)
            let normal = (-2 * Math.log(u1)).squareRoot() * Math.cos(2 * Double.pi * u2)
            var value = (median * Math.exp(sigma * normal)).rounded()
            if let maxValue { value = min(value, maxValue) }
            // A sample past the limit (or not finite) waits the limit: never a trap on Int(Double).
            return value.isFinite && value < Double(limit) ? max(0, Int(value)) : limit
        }
    }

    /// Reads a `delayDistribution` object, refusing what WireMock refuses and what would have no bound.
    static func parse(_ reader: ObjectReader) throws(StubError) -> DelayDistribution {
        let type = try reader.string("type")
        let bound = Double(StubRanges.delayMs.upperBound)
        switch type {
        case "lognormal":
            try reader.checkKeys(["type", "median", "sigma", "maxValue"])
            let median = try number(reader, "median", in: 0...bound)
            let sigma = try number(reader, "sigma", in: 0...16)
            let maxValue = reader["maxValue"] == nil ? nil : try number(reader, "maxValue", in: 0...bound)
            return .lognormal(median: median, sigma: sigma, maxValue: maxValue)
        case "uniform":
            try reader.checkKeys(["type", "lower", "upper"])
            guard let lower = try reader.int("lower", in: StubRanges.delayMs), let upper = try reader.int("upper", in: StubRanges.delayMs)
            else { throw reader.error("type", "a uniform delayDistribution needs \"lower\" and \"upper\" (milliseconds)") }
            guard lower <= upper else {
                throw reader.error("upper", "delayDistribution: \"upper\" (\(upper)) is below \"lower\" (\(lower))")
            }
            return .uniform(lower: lower, upper: upper)
        case "fixed":
            try reader.checkKeys(["type", "milliseconds"])
            guard let milliseconds = try reader.int("milliseconds", in: StubRanges.delayMs) else {
                throw reader.error("type", "a fixed delayDistribution needs \"milliseconds\"")
            }
            return .fixed(milliseconds)
        default:
            throw reader.error(
                "type", "delayDistribution \"type\" is lognormal, uniform or fixed, found \(type.map { "\"\($0.prefix(40))\"" } ?? "none")")
        }
    }

    /// A finite number in `range` (JSON integer or decimal).
    private static func number(_ reader: ObjectReader, _ key: String, in range: ClosedRange<Double>) throws(StubError) -> Double {
        let value: Double? =
            switch reader[key]?.value {
            case .int(let number): Double(number)
            case .double(let number): number
            default: nil
            }
        guard let value, value.isFinite, range.contains(value) else {
            throw reader.error(key, "delayDistribution \"\(key)\" must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

/// WireMock's `chunkedDribbleDelay`: the answer's bytes after its head go out in `chunks` pieces spread over
/// `totalMs` (a slow network, for clients' read timeouts).
package struct Dribble: Sendable, Hashable {
    package var chunks: Int
    package var totalMs: Int

    static func parse(_ reader: ObjectReader) throws(StubError) -> Dribble {
        try reader.checkKeys(["numberOfChunks", "totalDuration"])
        guard let chunks = try reader.int("numberOfChunks", in: 1...10_000),
            let total = try reader.int("totalDuration", in: StubRanges.delayMs)
        else {
            throw reader.error("numberOfChunks", "chunkedDribbleDelay needs \"numberOfChunks\" (1 to 10000) and \"totalDuration\" (ms)")
        }
        return Dribble(chunks: chunks, totalMs: total)
    }
}
