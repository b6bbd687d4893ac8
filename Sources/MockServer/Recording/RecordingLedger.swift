import AutomationSupport

/// The recorded files this process wrote, by path, and which server wrote them: `test --record-from` gives every
/// scenario a server recording into one root, and two scenarios that got different answers to the same request
/// would write one name, the second silently replacing the first. The second is refused instead, named.
enum RecordingLedger {
    /// Written in a recording's root before its files and removed after the last: a root that still holds it was cut
    /// short (a SIGKILL mid-write), and loading it is refused by name.
    static let inProgressMarker = ".sut-recording-in-progress"

    /// By path: the server that wrote it (its ``ProxyLoop/token``, drawn per server: an object's address can be
    /// reused once a server is gone) and a digest of the bytes.
    private static let written = Locked<[String: (writer: String, digest: Int)]>([:])

    /// Why `bytes` must not be written at `path` (under `root`) by `writer`: another server of this process wrote
    /// other bytes there; nil when it may (first writer, the same writer again, or the same bytes). Notes the write.
    static func conflict(root: String, path: String, bytes: [UInt8], writer: String) -> String? {
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
