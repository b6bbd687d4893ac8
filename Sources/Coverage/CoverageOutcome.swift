/// Covered and total of one kind (lines, functions, regions), as `llvm-cov export -summary-only` counts them.
package struct CoverageCount: Sendable, Codable, Equatable {
    package var count: Int
    package var covered: Int
    /// 0 when there is nothing to count: nothing measured is never full coverage.
    package var percent: Double { count == 0 ? 0 : Double(covered) * 100 / Double(count) }

    package init(count: Int, covered: Int) {
        self.count = count
        self.covered = covered
    }

    enum CodingKeys: String, CodingKey { case count, covered }

    /// `75.0% (6/8)`.
    package var text: String { count == 0 ? "none measured (0/0)" : "\(Self.format(percent))% (\(covered)/\(count))" }

    /// One decimal, never rounded up to 100 when something is uncovered.
    static func format(_ percent: Double) -> String {
        let tenths = (percent * 10).rounded(.down) / 10
        return oneDecimal(tenths)
    }

    static func oneDecimal(_ value: Double) -> String {
        let whole = Int(value)
        let tenth = Int(((value - Double(whole)) * 10).rounded())
        return "\(whole).\(min(tenth, 9))"
    }
}

/// Lines, functions and regions.
package struct CoverageTotals: Sendable, Codable, Equatable {
    package var lines: CoverageCount
    package var functions: CoverageCount
    package var regions: CoverageCount
}

/// One source file's totals.
package struct CoverageFile: Sendable, Codable, Equatable {
    package var filename: String
    package var summary: CoverageTotals
}

/// What one scenario's launches reached: the source files and functions with a count above zero.
package struct ScenarioReach: Sendable, Codable, Equatable {
    package var files: [String]
    package var functions: [String]

    package init(files: [String], functions: [String]) {
        self.files = files
        self.functions = functions
    }
}

/// The end of a coverage run: what was written, what was seen and what could not be.
package struct CoverageOutcome: Sendable {
    /// The totals; nil when no report could be written (``error`` says why).
    package var totals: CoverageTotals?
    /// Per source file, sorted by path.
    package var files: [CoverageFile] = []
    /// Lines to print besides the summary (missing profiles, corrupt profiles), each a whole sentence.
    package var notes: [String] = []
    /// Why `lcov.info` and `coverage.xml` were not written; nil when they were.
    package var error: String?
    /// Per scenario id (``CoverageSession/scenarioID(uri:line:)``): what it reached.
    package var scenarios: [String: ScenarioReach] = [:]
    /// Raw profiles merged, and launches recorded.
    package var profiles = 0
    package var launches = 0
    /// True when the only data is Go's (`DIR/go`): no LLVM profile to merge, and no failure.
    package var goOnly = false
    /// Why the run failed on coverage though the reports were written (below the threshold); nil otherwise.
    package var failure: String?
    /// True when a report could not be written (exit 74, ``error`` says which).
    package var writeFailed = false

    package init() {}

    /// The one summary line: `coverage: lines 75.0% (6/8), functions …, regions … (3 profiles of 3 launches) → DIR`.
    package func summaryLine(directory: String) -> String {
        guard let totals else {
            if error == nil && launches == 0 { return "coverage: nothing launched, nothing measured (no report written in \(directory))" }
            if goOnly { return "coverage: Go coverage data only, in \(directory)/go (no lcov.info or coverage.xml written)" }
            return "coverage: \(error ?? "no coverage") (no report written in \(directory))"
        }
        return "coverage: lines \(totals.lines.text), functions \(totals.functions.text), regions \(totals.regions.text)"
            + " (\(profiles) profile\(profiles == 1 ? "" : "s") of \(launches) launch\(launches == 1 ? "" : "es"))"
            + " → \(directory)/lcov.info, \(directory)/coverage.xml"
    }

    /// The per-file table (`DIR/summary.txt`): lines, functions, regions per file, then the total.
    package func table() -> String {
        let names = files.map { Visible.text($0.filename) }
        let width = min(max(names.map(\.count).max() ?? 4, 5), 100)
        func pad(_ text: String, _ count: Int) -> String {
            text.count >= count ? text : text + String(repeating: " ", count: count - text.count)
        }
        var text = pad("FILE", width) + "  " + pad("LINES", 22) + pad("FUNCTIONS", 22) + "REGIONS\n"
        for (file, name) in zip(files, names) {
            text +=
                pad(name, width) + "  " + pad(file.summary.lines.text, 22) + pad(file.summary.functions.text, 22)
                + file.summary.regions.text + "\n"
        }
        if let totals {
            text += pad("TOTAL", width) + "  " + pad(totals.lines.text, 22) + pad(totals.functions.text, 22) + totals.regions.text + "\n"
        }
        return text
    }
}
