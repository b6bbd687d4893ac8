import AutomationSupport
import ProcessEngine
import Scenarios

/// `--rerun-failed FILE` and `--quarantine FILE`, read once the features are loaded: each entry must name one of
/// their scenarios.
extension TestCommand {
    /// Sets ``ScenarioOptions/rerunLocations`` and ``ScenarioOptions/quarantine`` from the files the options name.
    /// - Throws: ``UsageError`` (exit 2) for a file that cannot be read, or an entry that names no scenario of this run.
    static func readRerunAndQuarantine(_ options: TestOptions, pickles: [Pickle], into scenario: inout ScenarioOptions) throws(UsageError) {
        if let file = options.rerunFailed {
            let bytes = try read(file)
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
