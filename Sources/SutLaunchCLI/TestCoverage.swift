import Coverage
import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `test --coverage DIR`: after the scenarios, before the reports: merge and export, and what each scenario reached.
enum TestCoverage {
    /// The results with what each scenario reached, and the exit code (``ExitCode/coverageFailed`` when the suite
    /// passed but coverage could not be measured or is below the threshold).
    static func finish(
        _ results: [ScenarioResult], session: CoverageSession?, threshold: Double?, exitCode: Int32,
        reports: ScenarioReports
    ) -> ([ScenarioResult], Int32) {
        guard let session else { return (results, exitCode) }
        let plan = CoveragePlan(session: session, threshold: threshold)
        // test's --quiet prints failures and the summary: the coverage line is part of the summary.
        let (outcome, code) = plan.finish(exitCode: exitCode, perScenario: true, quiet: false)
        let report = CoverageReport(outcome, directory: session.directory, threshold: plan.threshold)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(report) { reports.setCoverage(String(decoding: data, as: UTF8.self)) }
        var measured = results
        for index in measured.indices {
            let id = CoverageSession.scenarioID(uri: measured[index].pickle.uri, line: measured[index].pickle.line)
            measured[index].coverage = outcome.scenarios[id]
        }
        return (measured, code)
    }
}
