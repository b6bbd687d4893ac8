import AutomationSupport
import MockServer
import ProcessEngine

/// `--shard K/N` and `--shard-timings FILE`: which scenarios one machine of a CI matrix runs.
///
/// Numbers from the timings file are read by ``BoundedNumber`` (a JUnit `time` from 0 to 10^9 seconds, a JSON
/// report's `durationMs` from 0 to 10^12, Messages' timestamps; see `Sharding+Timings.swift`): a bad one is an
/// ``InputError`` (exit 3) naming FILE:LINE. Then every
/// sum stays finite (at most 10^9 s per scenario), and no array is sized by N: a shard count of 10,000 costs
/// what the scenarios cost.
package enum Sharding {
    /// The most seconds a timings file may give one scenario (``DurationParser``'s limit).
    static let maxSeconds = DurationParser.maxSeconds

    /// The `shard.index`-th (1-based) of `shard.count` shares of `sorted` (sorted by file and line): balanced by
    /// `timings` when given, else every N-th scenario.
    package static func share(_ sorted: [Pickle], shard: (index: Int, count: Int), timings: [String: Double]?) -> [Pickle] {
        guard shard.count > 0, (1...shard.count).contains(shard.index) else { return [] }
        guard let timings else {
            return sorted.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        let shares = balanced(sorted, timings: timings, shards: shard.count)
        return shard.index <= shares.count ? shares[shard.index - 1] : []
    }

    /// Shares balanced by measured time (greedy, longest first, each to the share with the least so far; ties by
    /// file and line, so every machine of a matrix computes the same partition). Scenarios the timings do not
    /// know take their median. A time under ``floorSeconds`` (JUnit writes `0` for what it rounds away, and for
    /// skipped cases) counts as that floor, and equal totals go to the share with fewer scenarios: a file of zeros
    /// still spreads the scenarios evenly, never all on shard 1. Returns at most `min(shards, pickles.count)` shares: the greedy fills empty
    /// shares in order, so the ones after that would stay empty.
    package static func balanced(_ pickles: [Pickle], timings: [String: Double], shards: Int) -> [[Pickle]] {
        let used = max(0, min(shards, pickles.count))
        guard used > 0 else { return [] }
        let known = pickles.compactMap { seconds($0, in: timings) }.map(clamp).sorted()
        let median = known.isEmpty ? 1 : known[known.count / 2] // at least floorSeconds (clamped)
        let weighted = pickles.enumerated().map {
            (offset: $0.offset, pickle: $0.element, seconds: seconds($0.element, in: timings).map(clamp) ?? median)
        }
        .sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.offset < $1.offset }
        var totals = [Double](repeating: 0, count: used)
        var result = [[(offset: Int, pickle: Pickle)]](repeating: [], count: used)
        for item in weighted {
            var target = 0
            for index in totals.indices
            where totals[index] < totals[target] || (totals[index] == totals[target] && result[index].count < result[target].count) {
                target = index
            }
            totals[target] += item.seconds // at most pickles.count × 10^9: finite
            result[target].append((item.offset, item.pickle))
        }
        return result.map { $0.sorted { $0.offset < $1.offset }.map(\.pickle) }
    }

    /// A scenario's time: by `file:line` (JUnit's attributes, Messages' pickle location), else by `feature: name`.
    static func seconds(_ pickle: Pickle, in timings: [String: Double]) -> Double? {
        timings[pickle.location] ?? timings[ScenarioRunner.timingKey(pickle)]
    }

    /// Timings built in code (not read from a file) kept in the range a file's are.
    private static func clamp(_ seconds: Double) -> Double {
        seconds.isFinite ? min(max(seconds, floorSeconds), maxSeconds) : maxSeconds
    }

    /// The least time a scenario counts for when balancing: launching anything takes about a millisecond.
    static let floorSeconds = 0.001

    /// What a shard's partition was computed from, which every shard of one run must share (``ReportRecord/Run/partition``):
    /// `N:DIGEST`, the number of scenarios split and 16 hex digits of FNV-1a over each one's `uri:line` and the shard it
    /// goes to. Shards of different suites (paths, tags, a checkout), different `--shard-timings` files, or different
    /// counts give different digests: `report` refuses to call their merge whole (scenarios on no shard, or on two).
    package static func partition(_ sorted: [Pickle], count: Int, timings: [String: Double]?) -> String {
        var shardOf = [Int](repeating: 0, count: sorted.count)
        if let timings {
            var place: [Pickle: Int] = [:]
            for (offset, pickle) in sorted.enumerated() { place[pickle] = offset }
            for (share, pickles) in balanced(sorted, timings: timings, shards: count).enumerated() {
                for pickle in pickles { if let offset = place[pickle] { shardOf[offset] = share + 1 } }
            }
        } else if count > 0 {
            for offset in sorted.indices { shardOf[offset] = offset % count + 1 }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (offset, pickle) in sorted.enumerated() {
            for byte in "\(pickle.location)\t\(shardOf[offset])/\(count)\n".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return "\(sorted.count):" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The order shards are cut from: the bytes of the path, then the line, then the bytes of the name. A total
    /// order on what every machine sees alike: Swift's `<` on Strings holds `café` in NFC and NFD equal, which
    /// left their order to the order of the arguments, and two machines could run one scenario twice.
    package static func precedes(_ left: Pickle, _ right: Pickle) -> Bool {
        if !left.uri.utf8.elementsEqual(right.uri.utf8) { return left.uri.utf8.lexicographicallyPrecedes(right.uri.utf8) }
        if left.line != right.line { return left.line < right.line }
        return left.name.utf8.lexicographicallyPrecedes(right.name.utf8)
    }
}
