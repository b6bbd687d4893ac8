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

    private static func read(_ file: TestOptions.NamedPath) throws(UsageError) -> [UInt8] {
        guard let bytes = FileSystem.read(file.path) else {
            throw UsageError(.cannotRead(file.spelling, path: file.path, reason: FileSystem.unreadable(file.path)))
        }
        return bytes
    }
}
