import Scenarios

/// Whether Messages given to `sut-launch report` hold every shard of their run: each file's run record keeps the
/// command line that wrote it, so `--shard 1/2` alone is a merge missing shard 2/2 (a report that looks green while
/// a shard crashed or its upload failed). A shard given twice is named too. `--shard auto` runs are known by the
/// variables their CI set, not by their command line, and are not counted.
enum ShardCompleteness {
    /// A shard as its command line names it: `--shard I/N` or `--shard=I/N`.
    struct Shard: Hashable {
        var index: Int
        var count: Int
    }

    /// What is wrong with the set of shards `run`'s files hold, one line per run id; empty when nothing is.
    static func problems(_ run: ReportRun) -> [String] {
        var byRun: [String: [(shard: Shard, file: String)]] = [:]
        var order: [String] = []
        for record in run.records {
            guard let shard = shard(in: record.run.commandLine) else { continue }
            if byRun[record.run.id] == nil { order.append(record.run.id) }
            byRun[record.run.id, default: []].append((shard, run.files[record.file]))
        }
        return order.compactMap { id in problem(id, byRun[id] ?? []) }
    }

    private static func problem(_ id: String, _ shards: [(shard: Shard, file: String)]) -> String? {
        let counts = Set(shards.map(\.shard.count))
        guard counts.count == 1, let count = counts.first else {
            return "run \(id): its files say different shard counts (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))"
        }
        var parts: [String] = []
        let given = Dictionary(grouping: shards, by: \.shard.index)
        let missing = (1...count).filter { given[$0] == nil }
        if !missing.isEmpty {
            parts.append("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing")
        }
        for (index, files) in given.sorted(by: { $0.key < $1.key }) where files.count > 1 {
            parts.append("shard \(index)/\(count) given \(files.count) times (\(files.map(\.file).joined(separator: ", ")))")
        }
        return parts.isEmpty ? nil : "run \(id): " + parts.joined(separator: "; ")
    }

    /// The shard a command line ran, or nil (no `--shard`, or `--shard auto`).
    static func shard(in commandLine: String) -> Shard? {
        let words = commandLine.split(separator: " ").map(String.init)
        var value: String?
        for (offset, word) in words.enumerated() {
            if word == "--shard", offset + 1 < words.count { value = words[offset + 1] }
            if word.hasPrefix("--shard=") { value = String(word.dropFirst("--shard=".count)) }
        }
        guard let parts = value?.split(separator: "/", omittingEmptySubsequences: false), parts.count == 2,
            let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 100_000, index >= 1, index <= count
        else { return nil }
        return Shard(index: index, count: count)
    }
}
