import ProcessEngine

/// JUnit and the JSON report of a run read from its Messages (``ReportRun``).
package enum RunReports {
    /// A run that is not whole (``ReportRun/incompleteness``: a shard missing, a file cut short...) gets one `<error>`
    /// entry saying why, so a JUnit reader (GitLab, Jenkins) never shows it green with the exit code 1.
    /// - Parameter missing: outputs of the run that could not be written (R10B-10: a JUnit written after one said nothing).
    package static func junit(_ run: ReportRun, strict: Bool, missing: [String] = []) -> String {
        var results = run.results
        if !missing.isEmpty {
            results.append(
                runEntry(
                    "write the run's outputs", failedStep: "write the run's outputs",
                    message: missing.joined(separator: "\n") + " (exit \(ExitCode.ioError))"))
        }
        let reasons = run.incompleteness
        if !reasons.isEmpty {
            results.append(runEntry("incomplete run", failedStep: "the run is not whole", message: reasons.joined(separator: "\n")))
        } else if let nothingRan = run.nothingRan {
            // An empty suite is no pass: a JUnit reader would show zero tests, green, for a run that exits 5.
            results.append(
                runEntry("no scenario ran", failedStep: "no scenario ran", message: "\(nothingRan) (exit \(ExitCode.noScenarios))"))
        }
        // A run that exits non-zero with no entry a JUnit reader shows red (coverage, the file's own word, scenarios
        // that did not run): one error entry saying why.
        if !results.contains(where: JUnitReport.isRed), let reason = run.unattributedFailure {
            results.append(runEntry("run failed", failedStep: "the run's exit code", message: "\(reason) (exit \(run.exitCode))"))
        }
        return JUnitReport.render(results, totalSeconds: run.seconds, strict: strict)
    }

    /// One `<error>` entry that stands for the run itself.
    private static func runEntry(_ name: String, failedStep: String, message: String) -> ScenarioResult {
        let pickle = Pickle(uri: "", featureName: "sut-launch", name: name, line: 0, tags: [], steps: [])
        var entry = ScenarioResult(pickle: pickle, status: .error, duration: .zero, trail: [], outputTail: "", unexpectedRequests: [])
        entry.failedStep = failedStep
        entry.message = message
        return entry
    }

    package static func json(_ run: ReportRun) -> String {
        ScenarioJSONReport.render(
            run.results, totalSeconds: run.seconds, exitCode: run.exitCode, error: run.error, coverage: run.records.first?.run.coverage)
    }
}
