import AutomationSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stored expected output: `__snapshots__/FEATURE-FILE-NAME/NAME.txt` beside the feature file. A missing or
/// different snapshot fails; `--update-snapshots` (or `SUT_UPDATE_SNAPSHOTS=1`) writes what the run saw
/// instead, except when `CI` is set: CI never writes snapshots (insta's rule).
package enum Snapshots {
    /// Why a snapshot name cannot be used, or nil.
    package static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." { return "a snapshot needs a name" }
        if name.contains("/") || name.contains("\\") { return "snapshot name \"\(name)\" may not contain a path separator" }
        return nil
    }

    package static func path(named name: String, featureFile: String) -> String {
        let featureName = String(featureFile.split(separator: "/").last ?? Substring(featureFile))
        return FileSystem.directory(of: featureFile) + "/__snapshots__/" + featureName + "/" + name + ".txt"
    }

    static func compare(_ actual: String, named name: String, run: ScenarioRun) throws(StepFailure) {
        if let problem = nameProblem(name) { throw StepFailure(problem, kind: .error) }
        let hint = "sut-launch test --update-snapshots \(run.pickle.uri)"
        if let failure = check(actual, at: path(named: name, featureFile: run.pickle.uri), name: name,
                               update: run.options.updateSnapshots, environment: run.options.environment, updateCommand: hint) {
            throw StepFailure(failure)
        }
    }

    /// Compares `actual` with the snapshot stored at `path` (wildcards allowed in it), writing it instead when
    /// updating and not in CI.
    /// - Parameters:
    ///   - update: update asked for (`--update-snapshots`, or `SUT_UPDATE_SNAPSHOTS=1` in `environment`).
    ///   - updateCommand: how the user updates, for the message.
    /// - Returns: why it fails (with a diff), or nil when it matches or was written.
    package static func check(_ actual: String, at path: String, name: String, update: Bool, environment: [String: String],
                              updateCommand: String) -> String? {
        let inCI = (environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" }) ?? false
        let asked = update || ["1", "true", "yes"].contains(environment["SUT_UPDATE_SNAPSHOTS"]?.lowercased() ?? "")
        let stored = FileSystem.read(path).map { String(decoding: $0, as: UTF8.self) }
        if let stored, OutputPattern.mismatch(expected: stored, actual: actual) == nil { return nil }
        if asked && !inCI {
            do {
                try FileManager.default.createDirectory(atPath: FileSystem.directory(of: path), withIntermediateDirectories: true)
            } catch {
                return "cannot create \(FileSystem.directory(of: path)): \(error)"
            }
            let text = actual.hasSuffix("\n") || actual.isEmpty ? actual : actual + "\n"
            return FileSystem.write(Array(text.utf8), to: path) ? nil : "cannot write the snapshot \(path)"
        }
        let hint = inCI && asked
            ? "snapshots are never written when CI is set; update them on your machine"
            : "to accept what the run saw: \(updateCommand)"
        guard let stored else { return "no snapshot \"\(name)\" yet (\(path)); \(hint)" }
        let difference = OutputPattern.mismatch(expected: stored, actual: actual) ?? ""
        return "the snapshot \"\(name)\" (\(path)) differs:\n\(difference)\n\(hint)"
    }
}
