import ProcessEngine

extension CucumberMessages {
    /// The status of each of a test case's `count` steps, read off its trail (✓ passed, ✗ failed, - skipped).
    static func stepStatuses(_ result: ScenarioResult, count: Int, hookFailed: Bool) -> [String] {
        // An undefined step stops the scenario before anything runs: that step is UNDEFINED, the others SKIPPED.
        let undefined = result.message?.hasPrefix("undefined step") == true
        let undefinedIndex =
            undefined ? result.pickle.steps.firstIndex { result.failedStep?.hasPrefix("\(result.pickle.uri):\($0.line):") == true } : nil
        var statuses = (0..<count).map { index -> String in
            switch index < result.trail.count ? result.trail[index].first : "-" {
            case "✓": return "PASSED"
            case "✗": return "FAILED"
            default: return index == undefinedIndex ? "UNDEFINED" : "SKIPPED"
            }
        }
        // Fail closed: a case that did not pass (interrupted by a signal, stopped before a step ran) shows a FAILED
        // step, the first that did not pass, so no report reads its steps as green.
        let shown = hookFailed || statuses.contains { $0 == "FAILED" || $0 == "UNDEFINED" }
        if result.status != .passed, result.status != .notRun, !shown,
            let index = statuses.firstIndex(where: { $0 != "PASSED" }) ?? statuses.indices.last
        {
            statuses[index] = "FAILED"
        }
        return statuses
    }
}
