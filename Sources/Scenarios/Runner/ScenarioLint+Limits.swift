import ProcessEngine

/// The size a feature file may have: its text goes whole into the Cucumber Messages (`source`, `gherkinDocument`,
/// each pickle's doc strings), and a Messages line over ``MessagesReader/lineLimit`` is one `sut-launch report`
/// refuses. A file that could never be reported is refused when it loads (exit 3, naming it), not after the suite ran.
extension ScenarioLint {
    /// The most bytes a feature file may hold: with JSON's escapes at their worst (6 bytes for one), its text still
    /// fits one Messages line.
    package static let featureFileLimit = 8 << 20

    /// Why a feature file of `bytes` bytes is refused, or nil.
    static func sizeProblem(_ path: String, bytes: Int) -> String? {
        guard bytes > featureFileLimit else { return nil }
        return "\(path): a feature file of \(bytes) bytes (the limit is \(ByteSize.text(featureFileLimit)), so that its reports can be "
            + "read back): split it, or keep large texts in fixture files (Given the files from \"DIR\")"
    }
}
