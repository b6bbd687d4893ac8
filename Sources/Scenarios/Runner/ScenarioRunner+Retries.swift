import AutomationSupport

/// Retries (`--retries N`, `@retries=N`): a scenario that failed runs again from scratch (a new directory, a new
/// mock server on a new port), up to N more times. Only a failure is retried: a scenario that could not run (an
/// undefined step, a bad tag, a preflight problem) fails the same way every time. One that fails, then passes, is
/// flaky: it passes the run unless `--fail-on-flaky`, and every report keeps its failed attempts.
extension ScenarioRunner {
    /// The most retries a scenario may have: each one runs the whole scenario again.
    package static let retryLimit = 0...10
    /// The tag that sets a scenario's retries: `@retries=2`.
    package static let retriesTag = "@retries="

    /// How many times a failed scenario runs again: its `@retries=N` tag (one at most: ``retriesProblems(_:)``), else `--retries`.
    static func retries(_ pickle: Pickle, options: ScenarioOptions) -> Int {
        var retries = options.retries
        for tag in pickle.tags where tag.hasPrefix(retriesTag) {
            if let value = BoundedNumber.written(tag.dropFirst(retriesTag.count), in: retryLimit) { retries = value }
        }
        return retries
    }

    /// `@retries=` tags whose value is not a whole number from 0 to 10, and two on one scenario (its own and those it
    /// inherits from its Feature and Rule: neither could be said to win): refused at load, as `@timeout=` tags are.
    static func retriesProblems(_ pickle: Pickle) -> [String] {
        let tags = pickle.tags.filter { $0.hasPrefix(retriesTag) }
        var problems = tags.compactMap { tag -> String? in
            let value = tag.dropFirst(retriesTag.count)
            do throws(NumberError) {
                _ = try BoundedNumber.requireWritten(value, in: retryLimit)
                return nil
            } catch {
                return "\(pickle.location): tag \(tag.prefix(50)): the number of retries \(error); write @retries=2"
            }
        }
        if tags.count > 1 {
            problems.append(
                "\(pickle.location): \(tags.count) retries tags on one scenario (\(tags.prefix(5).map { String($0.prefix(50)) }.joined(separator: ", "))"
                    + ", its own and its Feature's or Rule's): keep one @retries= tag, on the scenario")
        }
        return problems
    }

    /// Runs a scenario, and again while it failed and retries are left, each attempt recorded in a fresh
    /// ``ScenarioProgress`` that `started` sees first; `started` returning false (the run was interrupted or
    /// `--fail-fast` stopped it) starts no attempt.
    /// - Returns: the last attempt, carrying the earlier ones; nil when the first attempt was not started.
    static func runWithRetries(
        _ pickle: Pickle, options: ScenarioOptions, started: @Sendable (ScenarioProgress) -> Bool
    ) -> ScenarioResult? {
        let allowed = retries(pickle, options: options)
        let quarantined = options.quarantine.contains(pickle)
        var earlier: [ScenarioResult] = []
        while true {
            let progress = ScenarioProgress(pickle, earlierAttempts: earlier, of: allowed + 1, quarantined: quarantined)
            guard started(progress) else {
                guard var last = earlier.popLast() else { return nil }
                last.earlierAttempts = earlier
                return last
            }
            var result = runOne(pickle, options: options, progress: progress)
            result.quarantined = quarantined
            result.earlierAttempts = earlier
            result.flakyFailsTheRun = options.failOnFlaky && !quarantined && result.flaky
            guard result.status == .failed, earlier.count < allowed else { return result }
            result.earlierAttempts = []
            earlier.append(result)
        }
    }
}

/// Scenarios run and reported apart: tagged `@quarantine`, or named in a `--quarantine FILE` (by `file:line` or by
/// name). A quarantined scenario that fails does not fail the run; the reports still say it failed.
package struct Quarantine: Sendable {
    /// The tag that quarantines a scenario.
    package static let tag = "@quarantine"
    /// The locations (``Pickle/location``) of the scenarios `--quarantine FILE` names.
    package var locations: Set<String> = []

    package init() {}

    /// Whether the scenario is quarantined.
    package func contains(_ pickle: Pickle) -> Bool {
        pickle.tags.contains(Self.tag) || locations.contains(pickle.location)
    }
}
