import AutomationSupport
import ProcessEngine
import Scenarios

/// Every number the command line takes, each with its documented range, read by ``BoundedNumber/written(_:in:)``
/// (the rule steps and tags follow: bare digits, no sign, no leading zero): a value outside it (`0`, `-1`, `-0`,
/// `01`, `1e300`, `NaN`, `0x10`, ` 5`, 10,000 digits) is a usage error (exit 2) naming the option, never a trap or a
/// huge allocation further on.
///
/// | option | range |
/// |---|---|
/// | `--jobs N` | 1 to 1024 |
/// | `--shard K/N` | N from 1 to 10,000, K from 1 to N |
/// | `--port PORT` | 0 to 65535 |
/// | `--journal-limit N` | 1 to 1,000,000 |
/// | durations (`--timeout`, `--kill-grace`, `--step-timeout`, `--scenario-timeout`) | 0 to 1,000,000,000 s (``DurationParser``) |
/// | `FILE.feature:LINE` | LINE from 1 to 10,000,000 |
enum NumericOptions {
    static let jobs = 1...1024
    static let shardCount = 1...10_000
    static let port = 0...65_535
    static let journalLimit = 1...1_000_000
    static let featureLine = 1...10_000_000

    /// The option's value as a whole number in `range`.
    static func integer<Option>(_ option: ParsedOption<Option>, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        do {
            return try BoundedNumber.requireWritten(option.value ?? "", in: range)
        } catch {
            throw UsageError(.invalidNumber(option.spelling, problem: "\(error)", index: option.index))
        }
    }

    /// `--port`: 0 (a free port) to 65535.
    static func port<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(option, in: port))
    }

    /// `--shard K/N`: the K-th of N shares, 1 <= K <= N <= 10,000.
    static func shard<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> (index: Int, count: Int) {
        let value = option.value ?? ""
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        let usage = UsageError(.invalidShard(option.spelling, value: value, maxCount: shardCount.upperBound, index: option.index))
        guard parts.count == 2, let count = BoundedNumber.written(parts[1], in: shardCount),
            let index = BoundedNumber.written(parts[0], in: 1...count)
        else { throw usage }
        return (index, count)
    }

    /// A duration option: `500ms`, `30s`, `2m`, `1h`, `1m30s`, or seconds.
    static func duration<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> Duration {
        guard let duration = DurationParser.parse(option.value ?? "") else {
            throw UsageError(
                .invalidDuration(
                    option.spelling, value: option.value ?? "", maxSeconds: Int(DurationParser.maxSeconds), index: option.index))
        }
        return duration
    }
}
