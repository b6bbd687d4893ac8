import AutomationSupport
package import MockServer

/// The end of a run's recording on stderr: what was written where, and what a recording asked for and did not get.
package enum RecordingReport {
    /// Prints one line for the recording (unless quiet, or it could not be written) and returns its problems, which
    /// fail the run.
    /// - Parameter forwardFailures: forwards that got no answer (then an empty recording is their doing).
    package static func report(_ result: RecordingResult, _ record: RecordPlan, quiet: Bool, forwardFailures: Int = 0) -> [String] {
        var problems = result.problems
        if result.mappings.isEmpty && record.required {
            problems.append(
                forwardFailures > 0
                    ? "nothing was recorded from \(record.rule.target): every forward to it failed (see above)"
                    : "nothing was recorded from \(record.rule.target): no request reached the mock server without a stub (does the program use SUT_MOCK_SERVER_URL?)"
            )
        }
        if !quiet && !result.mappings.isEmpty && result.problems.isEmpty {
            let files = result.written.filter { $0.hasPrefix("__files/") }.count
            Console.line(
                "recorded \(result.mappings.count) mapping\(result.mappings.count == 1 ? "" : "s") from \(record.rule.target)"
                    + (result.root.map { " into \($0) (\(files) body file\(files == 1 ? "" : "s") in __files/)" } ?? ""))
        }
        return problems
    }
}
