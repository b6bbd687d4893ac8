import AutomationSupport

/// Which pickles a run takes: `--name`, `--tags`, `--rerun-failed`, `FILE:LINE`, then the shard.
extension ScenarioRunner {
    /// `--name`'s pattern did not decide over the names of a run: the time all of them share (``nameTimeLimit``) ran
    /// out, or one name took a whole match's step budget.
    package struct NameBudgetSpent: Error, CustomStringConvertible {
        /// The scenario whose name the pattern was reading when it stopped.
        package let location: String
        package let bytes: Int
        /// The shared time ran out (else one name spent its step budget).
        package let timedOut: Bool

        package var description: String {
            let spent =
                timedOut
                ? "did not decide within \(ScenarioRunner.nameTimeLimit) over the scenario names"
                : "spent its step budget of \(RegexBox.stepBudget) steps on one name"
            return "--name: the pattern \(spent) (at \(location), a name of \(bytes) bytes), so the selection is unknown; make the "
                + "pattern simpler, or select with --tags or FILE.feature:LINE"
        }
    }

    /// How long `--name`'s pattern may take over every name of a run together. Each name had a step budget of its own
    /// and nothing bounded them all: a slow pattern over many long names ran for minutes before the first scenario
    /// (R10B-11). As a line pattern's matching answers to its step's deadline (R9B-7), the selection answers to this.
    package static let nameTimeLimit = Duration.seconds(10)

    /// The pickles whose name `--name` matches somewhere (all of them when it is not given), every name within one
    /// time limit, ``nameTimeLimit``.
    /// - Throws: ``NameBudgetSpent`` once that is spent: a selection the pattern could not decide is no selection.
    package static func named(_ pickles: [Pickle], options: ScenarioOptions) throws(NameBudgetSpent) -> [Pickle] {
        guard let pattern = options.namePattern, let regex = try? RegexBox(pattern) else { return pickles }
        let deadline = ContinuousClock.now + nameTimeLimit
        var selected: [Pickle] = []
        for pickle in pickles {
            var name = pickle.name
            // The engine looks at the clock every 1,024 positions: a shorter name ends before it looks.
            guard ContinuousClock.now < deadline, let matched = name.withUTF8({ regex.matchesPart(utf8: $0, deadline: deadline) }) else {
                throw NameBudgetSpent(location: pickle.location, bytes: pickle.name.utf8.count, timedOut: ContinuousClock.now >= deadline)
            }
            if matched { selected.append(pickle) }
        }
        return selected
    }

    /// Selects the pickles to run: tags first, then the shard (a stable share of the sorted list).
    package static func select(_ pickles: [Pickle], options: ScenarioOptions) -> [Pickle] {
        let selected = filtered(pickles, options: options)
        guard let shard = options.shard else { return selected }
        return Sharding.share(selected.sorted(by: Sharding.precedes), shard: shard, timings: options.shardTimings)
    }

    /// Under `--shard`: what this shard's partition was computed from (``Sharding/partition(_:count:timings:)``).
    package static func partition(_ pickles: [Pickle], options: ScenarioOptions) -> String? {
        guard let shard = options.shard else { return nil }
        let sorted = filtered(pickles, options: options).sorted(by: Sharding.precedes)
        return Sharding.partition(sorted, count: shard.count, timings: options.shardTimings)
    }

    /// The pickles the tags, `--rerun-failed`, `--name` and `FILE:LINE` select, before any shard is cut. A caller that
    /// selects more than once names them with ``named(_:options:)`` first and passes options without the pattern; here
    /// a pattern that spent its budget selects nothing (exit 5, never a share of the names).
    static func filtered(_ pickles: [Pickle], options: ScenarioOptions) -> [Pickle] {
        var selected = pickles.filter { options.tags?.matches($0.tags) ?? true }
        if let rerun = options.rerunLocations { selected = selected.filter { rerun.contains($0.location) } }
        if options.namePattern != nil { selected = (try? named(selected, options: options)) ?? [] }
        if !options.lines.isEmpty {
            selected = selected.filter { pickle in
                guard let lines = options.lines[pickle.uri] else { return true } // a file named without a line
                return lines.contains(pickle.line) || lines.contains(pickle.scenarioLine)
            }
        }
        return selected
    }
}
