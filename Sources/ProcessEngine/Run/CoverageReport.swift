package import Coverage

/// `--coverage` in the JSON report: where the files are, the totals (or why there are none), what was not seen.
package struct CoverageReport: Codable, Sendable {
    /// DIR as given.
    package var directory: String
    /// Lines, functions, regions; nil when nothing could be measured.
    package var totals: CoverageTotals?
    /// Why no coverage report was written, if none was.
    package var error: String?
    /// Why coverage failed the run though the reports were written (below `--coverage-threshold`).
    package var failure: String?
    /// What was not seen (profiles missing or refused), one sentence each.
    package var notes: [String]
    /// Raw profiles merged, launches recorded.
    package var profiles: Int
    package var launches: Int
    /// `--coverage-threshold`, when given.
    package var threshold: Double?

    package init(_ outcome: CoverageOutcome, directory: String, threshold: Double?) {
        self.directory = directory
        totals = outcome.totals
        error = outcome.error
        failure = outcome.failure
        notes = outcome.notes
        profiles = outcome.profiles
        launches = outcome.launches
        self.threshold = threshold
    }
}
