/// How the steps of one attempt of a test case make its verdict: the one rule `sut-launch report` (``MessagesReader``,
/// ``ReportRun``) and `--rerun-failed` (``RerunMessages``) read a Messages file by, so the records of one run select
/// the same scenarios. A step with two results counts as the worse of them (a FAILED then PASSED is failed); a step
/// with no result is `UNKNOWN` (an error: never a pass); an attempt without `testCaseFinished` is not passed.
enum MessagesVerdict {
    /// Cucumber's step statuses from best to worst (PENDING and UNKNOWN rank alike; AMBIGUOUS and FAILED too).
    private static let rank: [String: Int] = [
        "PASSED": 0, "SKIPPED": 1, "PENDING": 2, "UNKNOWN": 2, "UNDEFINED": 3, "AMBIGUOUS": 4, "FAILED": 4,
    ]

    /// The worse of two results given for one step (an unknown word ranks worst).
    static func worse(_ left: String, _ right: String) -> String {
        (rank[right] ?? 5) > (rank[left] ?? 5) ? right : left
    }

    /// A scenario's status from its steps' statuses (nil: the step has no result), the worst as Cucumber ranks them:
    /// `failed`, `undefined`, `unknown` (a step without a result among them), then `notRun` for any skipped step (a
    /// step that did not run: never a pass), else `passed`.
    static func status(_ steps: [String?]) -> String {
        let steps = steps.map { $0 ?? "UNKNOWN" }
        if steps.contains(where: { ["FAILED", "AMBIGUOUS"].contains($0) }) { return "failed" }
        if steps.contains("UNDEFINED") { return "undefined" }
        if steps.contains(where: { ["UNKNOWN", "PENDING"].contains($0) }) { return "unknown" }
        if steps.contains("SKIPPED") { return "notRun" }
        return "passed"
    }
}
