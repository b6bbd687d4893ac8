import AutomationSupport
import Scenarios

/// Whether Messages given to `sut-launch report` hold every shard of their run: each file's run record keeps the
/// shard that wrote it (older files: its command line), so `--shard 1/2` alone is a merge missing shard 2/2 (a report that looks green while
/// a shard crashed or its upload failed). A shard given twice is named too. A `--shard auto` run's record keeps the
/// `K/N` its CI's variables resolved to, so it is counted the same way.
enum ShardCompleteness {
    /// A shard as its command line names it: `--shard I/N` or `--shard=I/N`.
    struct Shard: Hashable {
        var index: Int
        var count: Int
    }

    /// What is wrong with the set of shards `run`'s files hold, one line per run id; empty when nothing is.
    static func problems(_ run: ReportRun) -> [String] {
        var byRun: [String: [(shard: Shard, file: String)]] = [:]
        var partitions: [String: [(shard: Shard, partition: String, selected: Int?)]] = [:]
        var order: [String] = []
        for record in run.records {
            guard let shard = shard(of: record.run) else { continue }
            if byRun[record.run.id] == nil { order.append(record.run.id) }
            byRun[record.run.id, default: []].append((shard, run.files[record.file]))
            if let partition = record.run.partition {
                partitions[record.run.id, default: []].append((shard, partition, record.run.selected?.count))
            }
        }
        // Each line names its run by the id its files hold, escaped here: the lines reach JUnit and HTML, not only the
        // console, and an id read back from a file may hold a line break or a bidi override (R10B-4).
        return order.compactMap { id in problem(id, byRun[id] ?? []) } + order.compactMap { partitionProblem($0, partitions[$0] ?? []) }
    }

    /// `run ID: `, the id escaped and cut as a message shows it.
    private static func runNamed(_ id: String) -> String {
        "run " + String(id.prefix(200)).escapingControlCharacters() + ": "
    }

    /// Shards of one run must have split one suite one way: each records what its partition was computed from
    /// (`N:DIGEST`, ``Sharding/partition(_:count:timings:)``). Different ones (other feature paths or tags, a
    /// different `--shard-timings` file, another checkout) leave scenarios on no shard, or on two: never green.
    /// When they agree and every shard is there, their `selected` must add up to the N scenarios split.
    private static func partitionProblem(_ id: String, _ shards: [(shard: Shard, partition: String, selected: Int?)]) -> String? {
        let distinct = Set(shards.map(\.partition))
        if distinct.count > 1 {
            let shown = shards.sorted { $0.shard.index < $1.shard.index }.prefix(10).map {
                "shard \($0.shard.index)/\($0.shard.count) split \($0.partition.split(separator: ":").first ?? "?") scenarios as \($0.partition.split(separator: ":").last ?? "?")"
            }
            return runNamed(id) + "its shards split different suites (\(shown.joined(separator: ", "))): some scenarios ran on no shard "
                + "or on two; give every shard the same features, tags and --shard-timings file"
        }
        guard let partition = distinct.first, let count = shards.first?.shard.count,
            Set(shards.map(\.shard.index)).count == count, let total = Int(partition.split(separator: ":").first ?? "")
        else { return nil }
        var seen = Set<Int>()
        let selected = shards.filter { seen.insert($0.shard.index).inserted }.compactMap(\.selected)
        guard selected.count == count, selected.reduce(0, +) != total else { return nil }
        return runNamed(id) + "its shards selected \(selected.reduce(0, +)) scenarios of the \(total) they split: some ran on no shard"
    }

    /// Files that ran another text of a feature file than an earlier one (R10B-3: a shard of another checkout, same
    /// scenario lines, passed the partition check and was merged as the first's text): one line per pair of files and
    /// feature file, naming the shards (else the files) and a scenario that differs. Never green, whatever the flags.
    static func otherTexts(_ run: ReportRun) -> [String] {
        var seen = Set<String>()
        var problems: [String] = []
        for other in run.otherTexts where seen.insert("\(other.file) \(other.earlier) \(other.uri)").inserted {
            problems.append(
                "\(named(run, other.file)) ran another text of \(other.uri.prefix(300).escapingControlCharacters()) than \(named(run, other.earlier)) (its scenario at line "
                    + "\(other.line) differs): the files ran different checkouts; run every shard on one commit")
        }
        return problems
    }

    /// A file as its shard (`shard 2/2 (s2.ndjson)`), or by name.
    private static func named(_ run: ReportRun, _ file: Int) -> String {
        let found = run.records.first { $0.file == file }.flatMap { Self.shard(of: $0.run) }
        return (found.map { "shard \($0.index)/\($0.count) " } ?? "") + "(\(run.files[file].escapingControlCharacters()))"
    }

    private static func problem(_ id: String, _ shards: [(shard: Shard, file: String)]) -> String? {
        let counts = Set(shards.map(\.shard.count))
        guard counts.count == 1, let count = counts.first else {
            return runNamed(id) + "its files say different shard counts (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))"
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
        return parts.isEmpty ? nil : runNamed(id) + parts.joined(separator: "; ")
    }

    /// The shard a run record says it ran: its `shard` field; in files written before it, the `--shard` option
    /// of its command line read as the shell reads it (quoted words whole), option by option (the value of
    /// `--name` or a feature path holding `--shard 1` is not an option).
    static func shard(of record: ReportRecord.Run) -> Shard? {
        if let recorded = record.shard { return shard(value: recorded) }
        return shard(in: record.commandLine)
    }

    /// The shard a command line ran, or nil (no `--shard`, or `--shard auto`).
    static func shard(in commandLine: String) -> Shard? {
        guard let words = try? ShellWords.split(commandLine) else { return nil }
        var value: String?
        var offset = words.first == "sut-launch" && words.dropFirst().first == "test" ? 2 : 0
        while offset < words.count {
            let word = words[offset]
            offset += 1
            if word == "--" { break }
            if word.hasPrefix("--shard=") { value = String(word.dropFirst("--shard=".count)) }
            guard word.hasPrefix("-"), !word.contains("="),
                let spec = TestOption.specs.first(where: { $0.long == word || $0.short == word }),
                spec.takesValue
            else { continue }
            if word == "--shard", offset < words.count { value = words[offset] }
            offset += 1 // the option's value, whatever it holds
        }
        return value.flatMap(shard(value:))
    }

    /// `K/N`, 1 <= K <= N <= 100,000 (``ReportRecord/shard(_:)``); nil otherwise.
    static func shard(value: String) -> Shard? {
        ReportRecord.shard(value).map { Shard(index: $0.index, count: $0.count) }
    }
}
