import MockServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stored expected output: `__snapshots__/FEATURE-FILE-NAME/NAME.txt` beside the feature file. A missing or
/// different snapshot fails; `--update-snapshots` (or `SUT_UPDATE_SNAPSHOTS=1`) writes what the run saw
/// instead, except when `CI` is set: CI never writes snapshots (insta's rule).
enum Snapshots {
    /// Why a snapshot name cannot be used, or nil.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." { return "a snapshot needs a name" }
        if name.contains("/") || name.contains("\\") { return "snapshot name \"\(name)\" may not contain a path separator" }
        return nil
    }

    static func path(named name: String, featureFile: String) -> String {
        let featureName = String(featureFile.split(separator: "/").last ?? Substring(featureFile))
        return FileSystem.directory(of: featureFile) + "/__snapshots__/" + featureName + "/" + name + ".txt"
    }

    static func compare(_ actual: String, named name: String, run: ScenarioRun) throws(StepFailure) {
        if let problem = nameProblem(name) { throw StepFailure(problem, kind: .error) }
        let path = path(named: name, featureFile: run.pickle.uri)
        let inCI = (run.options.environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" }) ?? false
        let update = run.options.updateSnapshots && !inCI
        let stored = FileSystem.read(path).map { String(decoding: $0, as: UTF8.self) }
        if let stored, OutputPattern.mismatch(expected: stored, actual: actual) == nil { return }
        if update {
            do {
                try FileManager.default.createDirectory(atPath: FileSystem.directory(of: path), withIntermediateDirectories: true)
            } catch {
                throw StepFailure("cannot create \(FileSystem.directory(of: path)): \(error)", kind: .error)
            }
            let text = actual.hasSuffix("\n") || actual.isEmpty ? actual : actual + "\n"
            guard FileSystem.write(Array(text.utf8), to: path) else { throw StepFailure("cannot write the snapshot \(path)", kind: .error) }
            return
        }
        let hint = inCI && run.options.updateSnapshots
            ? "snapshots are never written when CI is set; update them on your machine"
            : "to accept what the run saw: sut-launch test --update-snapshots \(run.pickle.uri)"
        guard let stored else {
            throw StepFailure("no snapshot \"\(name)\" yet (\(path)); \(hint)")
        }
        let difference = OutputPattern.mismatch(expected: stored, actual: actual) ?? ""
        throw StepFailure("the snapshot \"\(name)\" (\(path)) differs:\n\(difference)\n\(hint)")
    }
}
