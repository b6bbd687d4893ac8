/// A run's counts, taken once from its results: what the console's summary, `report`'s line and the JSON report say,
/// so they cannot disagree. A quarantined failure is counted `quarantined` (and among `quarantinedFailed`), never
/// `failed`: it did not fail the run. A flaky pass under `--fail-on-flaky` is `failed`, as the exit code has it.
package struct ScenarioCounts: Equatable, Sendable {
    package var passed = 0
    /// Failed scenarios that fail the run (a quarantined failure is not one).
    package var failed = 0
    /// Could not run.
    package var errors = 0
    package var notRun = 0
    package var flaky = 0
    package var quarantined = 0
    package var quarantinedFailed = 0

    package init(_ results: [ScenarioResult]) {
        for result in results {
            switch result.shownStatus {
            case .passed: passed += 1
            case .failed where result.failsTheRun: failed += 1
            case .error: errors += 1
            case .notRun: notRun += 1
            default: break
            }
            if result.flaky { flaky += 1 }
            if result.quarantined {
                quarantined += 1
                if result.status == .failed { quarantinedFailed += 1 }
            }
        }
    }
}
