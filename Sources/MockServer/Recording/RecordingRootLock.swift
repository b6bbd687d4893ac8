import AutomationSupport

/// The lock a recording takes on its root (`--into DIR`, `serve --record-mappings` in `--root-dir`): one process
/// records into a root at a time. Two recordings into one root each wrote their answers at their stop, the later
/// silently replacing the other's for the same request, and the first to finish removed the in-progress marker the
/// other still needed (r11 R11-10). Taken once per process and root and held until the process ends (the kernel drops
/// it then, on a signal too): every server of one run (`test --record-from`'s scenarios) shares it, and
/// ``RecordingLedger`` tells their clashes apart. The lock itself is ``LockFile``'s, as `--coverage DIR` takes it.
package enum RecordingRootLock {
    /// The lock's file in the root; the loader reads only `mappings/` and `__files/`, so it is never a mapping.
    package static let fileName = ".sut-recording.lock"

    /// The roots this process holds, by real path: their lock's descriptor.
    private static let held = Locked<[String: Int32]>([:])

    /// Takes `root`'s lock for this process, unless it holds it already; `root` exists. Nil when this process holds
    /// it now; else why not, one line naming the other run's pid (or the lock file that cannot be opened).
    package static func take(_ root: String) -> String? {
        let real = FileSystem.realPath(root) ?? root
        return held.withLock { held in
            if held[real] != nil { return nil }
            switch LockFile.take(real + "/" + fileName) {
            case .taken(let fd):
                held[real] = fd
                return nil
            case .held(let pid):
                return "another sut-launch\(pid.map { " (pid \($0))" } ?? "") is recording into this directory: its answers and "
                    + "this recording's would replace each other; wait for it to stop, or record into another directory"
            case .cannotOpen:
                return "cannot open \(fileName) in it (a link, or the directory is not writable), the lock that keeps two "
                    + "recordings apart"
            }
        }
    }

    /// How many servers of this process are writing into each root (by real path).
    private static let writers = Locked<[String: Int]>([:])

    /// Runs `body`, which writes into `root`, with ``RecordingLedger/inProgressMarker`` there: written by the first of
    /// this process's servers to start writing, removed by the last to finish, so one scenario's stop never removes
    /// the marker while another's files are still being written.
    /// - Throws: when the marker cannot be written (nothing was written then).
    static func writing(_ root: String, in directory: RootedDirectory, _ body: () -> Void) throws(RootedDirectory.Error) {
        let real = FileSystem.realPath(root) ?? root
        let failed: RootedDirectory.Error? = writers.withLock { writers in
            if writers[real, default: 0] == 0 {
                do throws(RootedDirectory.Error) { try directory.write([], to: RecordingLedger.inProgressMarker) } catch { return error }
            }
            writers[real, default: 0] += 1
            return nil
        }
        if let failed { throw failed }
        body()
        writers.withLock { writers in
            writers[real, default: 1] -= 1
            if writers[real] == 0 {
                writers[real] = nil
                directory.remove(entry: Array(RecordingLedger.inProgressMarker.utf8CString))
            }
        }
    }
}
