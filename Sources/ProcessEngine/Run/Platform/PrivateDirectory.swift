import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory only this user can enter, made fresh for one run and removed with what is in it.
enum PrivateDirectory {
    /// Makes `temporary/PREFIX` plus six random characters, mode 0700 (mkdtemp: never an existing name, never
    /// through a link at the name); nil when it cannot.
    static func make(in temporary: String, prefix: String) -> String? {
        var template = Array((temporary + "/" + prefix + "XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }

    /// Makes `temporary/PREFIX<pid>-XXXXXX` for this process, first removing those of earlier processes that died
    /// without removing theirs (SIGKILL: a CI job killed by its timeout left one per run). A directory is stale when
    /// its name carries a pid that no longer runs, it is this user's, a directory (not a link) of mode 0700 holding
    /// only regular files named as ours; anything else (another user's, a live run's, a link planted at such a name,
    /// a directory with files we never wrote) is left alone, silently.
    ///
    /// The run holds an flock on ``lockName`` in its directory for as long as it lives: the sweep removes only a directory
    /// whose lock nobody holds. A pid is no proof of death: a live run in another PID namespace (containers sharing /tmp)
    /// has a pid that is "dead" here (R4a-17: its directory was removed under it, and its program failed TLS).
    /// - Returns: the directory and the descriptor holding its lock (closed by ``release(_:)``).
    static func makeSweeping(in temporary: String, prefix: String, files: [String]) -> (path: String, lock: Int32)? {
        sweepStale(in: temporary, prefix: prefix, files: files)
        guard let path = make(in: temporary, prefix: prefix + "\(getpid())-") else { return nil }
        let lock = open(path + "/" + lockName, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            if lock >= 0 { close(lock) }
            remove(path, prefix: prefix, files: files)
            errno = error
            return nil
        }
        return (path, lock)
    }

    /// This process's id (what a placeholder names as its run's).
    static var processID: Int32 { getpid() }

    /// The file a live run holds locked in its directory.
    static let lockName = ".sut-lock"
    /// A directory with no lock file (a run between mkdtemp and its lock, or made by an older sut-launch) is stale only
    /// when it has not changed for this long.
    static let unlockedGraceSeconds = 60

    /// Removes the stale directories ``makeSweeping(in:prefix:files:)`` describes; at most 1,000 names looked at.
    static func sweepStale(in temporary: String, prefix: String, files: [String]) {
        for name in FileSystem.list(temporary).lazy.filter({ $0.hasPrefix(prefix) }).prefix(1_000) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) == -1 && errno == ESRCH else { continue } // running (or not ours to ask): kept
            var info = stat()
            let path = temporary + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o777 == 0o700,
                holdsOnly(files, in: path)
            else { continue }
            let lock = open(path + "/" + lockName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if lock >= 0 {
                defer { close(lock) }
                // Held: a live run, whatever its pid says here. Free: removed while we hold it.
                guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
            } else {
                guard time(nil) - info.st_mtim.tv_sec > unlockedGraceSeconds else { continue }
            }
            remove(path, prefix: prefix, files: files)
        }
    }

    /// Whether `path` holds nothing but some of `files` (or their temporary names), each a regular file of this user's (not a link): what a run
    /// writes there. A directory at such a name holding anything else was not made by us and is left as it is.
    private static func holdsOnly(_ files: [String], in path: String) -> Bool {
        let names = FileSystem.list(path)
        // `.sut-….tmp`: a file being written when the run was killed (written to a temporary name, then renamed).
        return names.allSatisfy { name in
            var info = stat()
            let ours =
                files.contains(name) || name == lockName || (name.hasPrefix(".sut-") && name.hasSuffix(".tmp") && name.utf8.count <= 40)
            return ours && lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                && info.st_uid == getuid()
        }
    }

    /// Closes a lock descriptor ``makeSweeping(in:prefix:files:)`` returned (after its directory is removed).
    static func release(_ lock: Int32) { close(lock) }

    /// Removes `path` (one ``make(in:prefix:)`` made) and everything in it, following no link.
    /// - Parameter files: the names written in it, removed by path when no descriptor can be had for its parent (out
    ///   of file descriptors, what may have made the run fail): the directory is this user's alone (0700).
    static func remove(_ path: String, prefix: String, files: [String] = []) {
        let name = String(path.split(separator: "/").last ?? "")
        guard name.hasPrefix(prefix) else { return }
        if let parent = try? RootedDirectory(FileSystem.directory(of: path)) { parent.remove(entry: Array(name.utf8CString)) }
        guard FileSystem.exists(path) else { return }
        // Not removed: no descriptor for the parent or for the walk (out of file descriptors).
        for file in files + [lockName] where !file.contains("/") { _ = unlink(path + "/" + file) }
        _ = rmdir(path) // removes no link, and nothing that still holds a file
    }
}
