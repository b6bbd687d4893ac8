import AutomationSupport

/// The recorded files this process wrote, by path, and which server wrote them: `test --record-from` gives every
/// scenario a server recording into one root, and two scenarios that got different answers to the same request
/// would write one name, the second silently replacing the first. The second is refused instead, named.
enum RecordingLedger {
    /// Written in a recording's root before its files and removed after the last: a root that still holds it was cut
    /// short (a SIGKILL mid-write), and loading it is refused by name.
    static let inProgressMarker = ".sut-recording-in-progress"

    private static let written = Locked<[String: (writer: Int, digest: Int)]>([:])
    private static let writers = Locked(0)

    /// A number no other server of this process has.
    static func newWriter() -> Int {
        writers.withLock { count in
            count += 1
            return count
        }
    }

    /// Why `bytes` must not be written at `path` (under `root`) by `writer`: another server of this process wrote
    /// other bytes there; nil when it may (first writer, the same writer again, or the same bytes). Notes the write.
    static func conflict(root: String, path: String, bytes: [UInt8], writer: Int) -> String? {
        let key = root + "/" + path
        var hasher = Hasher()
        hasher.combine(bytes)
        let digest = hasher.finalize()
        return written.withLock { entries in
            if let earlier = entries[key], earlier.writer != writer, earlier.digest != digest {
                return "\(path) was recorded earlier in this run by another server (another scenario) with a different "
                    + "answer to the same request: not replaced; record those scenarios apart, or tell the requests apart "
                    + "(a query, a header with --capture-header)"
            }
            entries[key] = (writer, digest)
            return nil
        }
    }
}
