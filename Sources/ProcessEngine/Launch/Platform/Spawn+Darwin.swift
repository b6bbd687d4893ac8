// macOS: not built or run by this repository's CI (Linux x86_64); kept to the one posix_spawn call.
#if !os(Linux)
import Darwin

extension Spawn {
    /// Spawns `path` with posix_spawn (``posixSpawn(path:argv:environment:workingDirectory:descriptors:terminal:)``);
    /// the group is registered with the reaper after the spawn returns (`guarded` is always false).
    static func start(
        path: String, argv: [String], environment: [String], workingDirectory: String?, descriptors: [Int32], terminal: String? = nil,
        guarded: Bool = false
    ) -> Result<(pid: pid_t, guarded: Bool), Errno> {
        posixSpawn(
            path: path, argv: argv, environment: environment, workingDirectory: workingDirectory,
            descriptors: descriptors, terminal: terminal
        ).map { ($0, false) }
    }
}
#endif
