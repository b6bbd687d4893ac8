#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the program to launch: a name with a `/` is a path (relative to the caller's directory), any
/// other name is looked up in PATH, as a shell does.
enum ExecutableLocator {
    static func locate(_ name: String, path searchPath: String?, currentDirectory: String) -> Result<String, LaunchError> {
        if name.isEmpty { return .failure(LaunchError(.notFound, "empty program name")) }
        if name.contains("/") {
            let absolute = name.hasPrefix("/") ? name : join(currentDirectory, name)
            return check(absolute, shown: name)
        }
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        var firstNotExecutable: String?
        for directory in directories {
            // A relative entry (`.`, `bin`, empty) is read from the caller's directory, and the path found is made
            // absolute: the program runs in `-C DIR`, where `./prog` would name another file than the one checked.
            let entry = String(directory)
            let base = entry.isEmpty ? currentDirectory : entry.hasPrefix("/") ? entry : join(currentDirectory, entry)
            let candidate = join(base, name)
            var info = stat()
            guard stat(candidate, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { continue }
            if access(candidate, X_OK) == 0 { return .success(candidate) }
            if firstNotExecutable == nil { firstNotExecutable = candidate }
        }
        if let firstNotExecutable {
            return .failure(LaunchError(.notExecutable, "\(firstNotExecutable): permission denied (not executable; try chmod +x)"))
        }
        return .failure(LaunchError(.notFound, "\(name): command not found in PATH (\(searchPath ?? "unset")); give a path like ./\(name)"))
    }

    private static func check(_ path: String, shown: String) -> Result<String, LaunchError> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            // What is there cannot be run, as bash and env say (exit 126): never "no such file" for a path that cannot
            // be followed.
            switch errno {
            case ELOOP:
                return .failure(LaunchError(.notExecutable, "\(shown): too many levels of symbolic links (a symlink loop on its path?)"))
            case ENOTDIR:
                return .failure(
                    LaunchError(.notExecutable, "\(shown): not a directory (a component of its path is a file, not a directory)"))
            case ENAMETOOLONG: return .failure(LaunchError(.notFound, "\(shown): file name too long"))
            default: return .failure(LaunchError(.notFound, "\(shown): no such file"))
            }
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(LaunchError(.notExecutable, "\(shown): is a directory"))
        }
        guard access(path, X_OK) == 0 else {
            return .failure(LaunchError(.notExecutable, "\(shown): permission denied (not executable; try chmod +x \(shown))"))
        }
        return .success(path)
    }

    static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("./") { return join(directory, String(name.dropFirst(2))) }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// True when `path` names a directory (following symlinks).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when something exists at `path` (following symlinks): a file where a directory was asked for.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
