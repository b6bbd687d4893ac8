import AutomationSupport
import MockServer
import ProcessEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a failed scenario leaves under `--artifacts DIR`: `DIR/<feature>/<scenario>/` with the full stdout
/// and stderr of every command and launch, `NN-command.json` (argv, working directory, the environment it
/// added), the mock server's journal, and a copy of the scenario's directory (at most 50 MB).
package enum ScenarioArtifacts {
    static let directoryCap = 50 * 1024 * 1024

    /// Writes the artefacts; returns their directory (or why they could not be written). Below `root` nothing is
    /// written through a link; the names come from ``FileName`` (cut to 200 bytes, a hash when changed), the
    /// feature's directory always carries a hash of the feature file's path, so two features of one name
    /// (or names differing only by case) never share one.
    ///
    /// The scenario's directory holds this run's files only: they are written to a fresh directory beside it, which
    /// then replaces it whole (``RootedDirectory/replace(_:with:)``), so an older run's `02-stdout.txt` or copied file
    /// never sits among this run's. With `--retries`, each attempt that failed has its own (`… line 4 attempt 1`);
    /// the last keeps the plain name.
    /// The last attempt (`attempt` nil) also removes the `attempt K` directories an earlier run with more retries left
    /// (K from `attempts`, this run's count, up): none is left beside this run's as if this run had made it.
    ///
    /// A file that cannot be written (disk full, `ulimit -f`) is said on stderr at once and returned: the scenario's
    /// message names it, and the run ends 74 (``notWritten``), never with an artefact set silently incomplete.
    static func write(_ run: ScenarioRun, result: ScenarioResult, under root: String, attempt: Int? = nil, attempts: Int = 1)
        -> (shown: String, problems: [String])
    {
        let feature = FileName.component(result.pickle.featureName, key: result.pickle.uri)
        let name = { (attempt: Int?) in
            FileName.component("\(result.pickle.name) line \(result.pickle.line)" + (attempt.map { " attempt \($0)" } ?? ""))
        }
        let scenario = name(attempt)
        let shown = root + "/" + feature + "/" + scenario
        let parent: RootedDirectory
        let directory: RootedDirectory
        let staged = ".sut-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).new"
        do {
            parent = try RootedDirectory(root, create: true).directory(feature)
            directory = try parent.directory(staged)
        } catch {
            return failed(shown, ["cannot create \(shown): \(error)"])
        }
        // Named as the reader will find them: the scenario's directory, not the staging name it is written under.
        let problems = fill(directory, run: run).map { $0.replacingOccurrences(of: staged, with: scenario) }
        do { try parent.replace(scenario, with: staged) } catch { return failed(shown, problems + ["cannot create \(shown): \(error)"]) }
        if attempt == nil {
            for stale in max(attempts, 1)...(ScenarioRunner.retryLimit.upperBound + 1) {
                parent.remove(entry: Array(name(stale).utf8CString))
            }
        }
        return problems.isEmpty ? (shown, []) : failed(shown, problems)
    }

    /// Writes a scenario's artefacts into `directory`; returns what could not be written.
    private static func fill(_ directory: RootedDirectory, run: ScenarioRun) -> [String] {
        var problems: [String] = []
        func write(_ bytes: [UInt8], _ name: String, mode: Int = 0o644) {
            do { try directory.write(bytes, to: name, mode: mode) } catch { problems.append(error.description) }
        }
        for (offset, launch) in run.launches.enumerated() {
            let prefix = (offset + 1 < 10 ? "0" : "") + "\(offset + 1)"
            write(launch.process.output.captured(.stdout), prefix + "-stdout.txt")
            write(launch.process.output.captured(.stderr), prefix + "-stderr.txt")
            var json =
                "{\"what\":" + JSONWriter.quoted(launch.label) + ",\"argv\":[" + launch.argv.map(JSONWriter.quoted).joined(separator: ",")
                + "]"
            json += ",\"cwd\":" + JSONWriter.quoted(run.workDirectory)
            json +=
                ",\"environment\":{"
                + launch.addedEnvironment.map { JSONWriter.quoted($0.key) + ":" + JSONWriter.quoted($0.value) }.joined(separator: ",") + "}"
            json += ",\"status\":" + JSONWriter.quoted(launch.process.status.map { "\($0)" } ?? "running") + "}\n"
            write(Array(json.utf8), prefix + "-command.json")
        }
        if let server = run.server { write(Array(server.journal.json().utf8), "journal.json", mode: 0o600) }
        // The scenario's directory: files and directories, links left out (never followed), 50 MB at most.
        do {
            let skipped = try directory.directory("directory").copy(
                from: run.work(), rules: .init(keepLinksInside: false, skipOthers: true, sizeBudget: directoryCap))
            if !skipped.isEmpty { write(Array((skipped.joined(separator: "\n") + "\n").utf8), "directory-not-copied.txt") }
        } catch {
            problems.append("\(error)")
        }
        return problems
    }
}
