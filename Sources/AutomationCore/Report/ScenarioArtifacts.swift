import AutomationSupport
import MockServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a failed scenario leaves under `--artifacts DIR`: `DIR/<feature>/<scenario>/` with the full stdout
/// and stderr of every command and launch, `NN-command.json` (argv, working directory, the environment it
/// added), the mock server's journal, and a copy of the scenario's directory (at most 50 MB).
enum ScenarioArtifacts {
    static let directoryCap = 50 * 1024 * 1024

    /// Writes the artefacts; returns their directory (or why they could not be written).
    static func write(_ run: ScenarioRun, result: ScenarioResult, under root: String) -> String {
        let directory = root + "/" + safeName(result.pickle.featureName) + "/" + safeName("\(result.pickle.name) line \(result.pickle.line)")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return "(cannot create \(directory))"
        }
        for (offset, launch) in run.launches.enumerated() {
            let prefix = directory + "/" + (offset + 1 < 10 ? "0" : "") + "\(offset + 1)"
            _ = FileSystem.write(launch.process.output.captured(.stdout), to: prefix + "-stdout.txt")
            _ = FileSystem.write(launch.process.output.captured(.stderr), to: prefix + "-stderr.txt")
            var json = "{\"what\":" + JSONWriter.quoted(launch.label) + ",\"argv\":[" + launch.argv.map(JSONWriter.quoted).joined(separator: ",") + "]"
            json += ",\"cwd\":" + JSONWriter.quoted(run.workDirectory)
            json += ",\"environment\":{" + launch.addedEnvironment.map { JSONWriter.quoted($0.key) + ":" + JSONWriter.quoted($0.value) }.joined(separator: ",") + "}"
            json += ",\"status\":" + JSONWriter.quoted(launch.process.status.map { "\($0)" } ?? "running") + "}\n"
            _ = FileSystem.write(Array(json.utf8), to: prefix + "-command.json")
        }
        if let server = run.server { _ = FileSystem.write(Array(server.journal.json().utf8), to: directory + "/journal.json", mode: 0o600) }
        copyTree(from: run.workDirectory, to: directory + "/directory")
        return directory
    }

    /// `Login: a user / line 12` → `Login_ a user _ line 12`: one path component, no separators.
    static func safeName(_ text: String) -> String {
        let cleaned = String(text.map { $0 == "/" || $0 == "\\" || $0 == ":" || $0 == "\0" ? "_" : $0 }.prefix(100))
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "_" : cleaned
    }

    /// Copies regular files and directories (links are not followed), up to ``directoryCap`` bytes.
    private static func copyTree(from source: String, to destination: String) {
        var budget = directoryCap
        var pending = [""]
        while let relative = pending.popLast() {
            let from = source + relative, to = destination + relative
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: from),
                  let type = attributes[.type] as? FileAttributeType else { continue }
            if type == .typeDirectory {
                try? FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: from)) ?? []
                pending += names.map { relative + "/" + $0 }
            } else if type == .typeRegular {
                let size = (attributes[.size] as? Int) ?? 0
                guard size <= budget, let bytes = FileSystem.read(from) else {
                    _ = FileSystem.write(Array("not copied: over the 50 MB cap\n".utf8), to: to + ".skipped")
                    continue
                }
                budget -= size
                _ = FileSystem.write(bytes, to: to)
            }
        }
    }
}
