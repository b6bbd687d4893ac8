extension ScenarioResult {
    /// The JUnit/JSON entry for feature files that did not load.
    /// - Parameter name: the entry's name; another than the default names a problem of no file (`file` then "").
    package static func loadError(_ problems: [String], name: String = "load feature files") -> ScenarioResult {
        let file = name != "load feature files" ? "" : problems.first.map { String($0.prefix { $0 != ":" }) } ?? ""
        let pickle = Pickle(uri: file, featureName: "sut-launch", name: name, line: 0, tags: [], steps: [])
        var result = ScenarioResult(pickle: pickle, status: .error, duration: .zero, trail: [], outputTail: "", unexpectedRequests: [])
        result.failedStep = file
        result.message = problems.joined(separator: "\n")
        return result
    }
}
