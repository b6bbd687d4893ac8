import AutomationSupport

/// `--format github`: each failed scenario as a GitHub Actions annotation on its failing step's line
/// (`::error file=F,line=L,title=T::message`), and a Markdown table appended to `$GITHUB_STEP_SUMMARY`.
enum GitHubOutput {
    static func report(_ results: [ScenarioResult], environment: [String: String]) {
        for result in results where result.status != .passed {
            let (file, line) = location(result)
            let title = "\(result.pickle.featureName): \(result.pickle.name)"
            Console.out("::error file=\(property(file)),line=\(line),title=\(property(title))::\(data(result.message ?? "failed"))\n")
        }
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        var markdown = "### sut-launch test\n\n| | scenario | where |\n|---|---|---|\n"
        for result in results {
            let mark = result.status == .passed ? "✅" : result.status == .failed ? "❌" : "⚠️"
            markdown += "| \(mark) | \(cell(result.pickle.featureName + ": " + result.pickle.name)) | \(cell(result.failedStep ?? result.pickle.location)) |\n"
        }
        let passed = results.filter { $0.status == .passed }.count
        markdown += "\n\(passed) of \(results.count) passed\n"
        if let problem = OutputFile.append(Array(markdown.utf8), to: path) {
            Console.error("GITHUB_STEP_SUMMARY \(path): cannot append the summary: \(problem)")
        }
    }

    /// The failing step's file and line (`login.feature:14: Then …`), else the scenario's.
    static func location(_ result: ScenarioResult) -> (String, Int) {
        let text = result.failedStep ?? result.pickle.location
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count >= 2, let line = Int(parts[1]) { return (String(parts[0]), line) }
        return (result.pickle.uri, result.pickle.line)
    }

    /// GitHub's escaping for an annotation's message.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for an annotation's properties.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
}
