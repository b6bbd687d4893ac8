import AutomationSupport
import ProcessEngine
import Scenarios

/// `--rerun-failed FILE` (read before the placeholders are written) and `--quarantine FILE`, resolved once the
/// features are loaded: each entry must name one of their scenarios.
extension TestCommand {
    /// Sets ``ScenarioOptions/rerunLocations`` and ``ScenarioOptions/quarantine`` from the files the options name.
    /// - Throws: ``UsageError`` (exit 2) for a file that cannot be read, or an entry that names no scenario of this run.
    /// `rerun`: the `--rerun-failed` file's bytes as read before the placeholders (nil: it could not be read then).
    static func readRerunAndQuarantine(
        _ options: TestOptions, rerun: [UInt8]?, pickles: [Pickle], into scenario: inout ScenarioOptions
    ) throws(UsageError) {
        if let file = options.rerunFailed {
            let bytes: [UInt8]
            if let rerun { bytes = rerun } else { bytes = try read(file) }
            if ReportPlaceholder.keepsRerunList(bytes) {
                Console.line(
                    "note: \(file.spelling) \(file.path.escapingControlCharacters()) is the placeholder of a run that did not "
                        + "finish; it kept the list of the file it replaced, which is rerun")
            }
            do {
                let entries = try RerunFile.entries(bytes, file: file.path)
                scenario.rerunLocations = try RerunFile.resolve(entries, in: pickles, file: file.path)
            } catch {
                throw UsageError(.badListFile(file.spelling, problem: error.description))
            }
        }
        if let file = options.quarantineFile {
            let bytes = try read(file)
            do {
                let entries = try RerunFile.quarantineEntries(bytes, file: file.path)
                scenario.quarantine.locations = try RerunFile.resolve(entries, in: pickles, file: file.path, uniqueNames: true)
            } catch {
                throw UsageError(.badListFile(file.spelling, problem: error.description))
            }
        }
    }

    /// `--name`: the scenarios it selects, matched once within the run's budget (``ScenarioRunner/nameBudget``).
    /// - Throws: ``UsageError`` naming the pattern when it spent the budget before every name was read (R10B-11).
    static func matchNames(_ pickles: [Pickle], into scenario: inout ScenarioOptions) throws(UsageError) {
        guard let pattern = scenario.namePattern else { return }
        let (matched, read) = ScenarioRunner.namesMatching(pickles, pattern: pattern)
        guard let matched else {
            let longest = pickles.map(\.name.unicodeScalars.count).max() ?? 0
            throw UsageError(
                .needsOperands(
                    "--name \(pattern.prefix(200).escapingControlCharacters()): matching it spent its budget of "
                        + "\(ScenarioRunner.nameBudget) regex steps after \(read) of \(pickles.count) scenario names (the longest "
                        + "\(longest) characters); write a pattern that does less work per character, or select by --tags or FILE:LINE"))
        }
        scenario.nameMatches = matched
    }

    private static func read(_ file: TestOptions.NamedPath) throws(UsageError) -> [UInt8] {
        guard let bytes = FileSystem.read(file.path) else {
            throw UsageError(.cannotRead(file.spelling, path: file.path, reason: FileSystem.unreadable(file.path)))
        }
        return bytes
    }
}
