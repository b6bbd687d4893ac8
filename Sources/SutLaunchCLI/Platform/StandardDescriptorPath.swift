import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output paths that name one of sut-launch's own standard descriptors.
enum StandardDescriptorPath {
    /// Why `path` cannot take an output when it names one of the standard descriptors that was closed when the process
    /// started (`--report /dev/stdout >&-`, `/dev/stderr 2>&-`, `/dev/fd/1`, `/dev/stdin <&-`): that descriptor is
    /// now the /dev/null put there (`StandardDescriptors.openClosedOnes()`), and the report was written into it,
    /// exit 0, the report found nowhere (R10C-13). Nil for any other path.
    static func closedDescriptorProblem(_ path: String) -> String? {
        guard let fd = standardDescriptor(named: path), StandardStreams.descriptorsClosedAtStart.contains(fd) else { return nil }
        let name = ["standard input", "standard output", "standard error"][Int(fd)]
        // Standard input is no place for an output even when open: name a file.
        let remedy = fd == 0 ? "name a file" : "open it (\(fd)>out.json) or name a file"
        return "\(path) is \(name) (fd \(fd)), which was closed when sut-launch started, so the output would be lost; \(remedy)"
    }

    /// The descriptor 0, 1 or 2 that `path` names through the process's descriptor directory (`/dev/fd/N`,
    /// `/proc/self/fd/N`, and the links to them: `/dev/stdout`), following links one at a time (the last link,
    /// `/proc/self/fd/1`, points at what the descriptor holds, not at its number); nil for any other path.
    static func standardDescriptor(named path: String) -> Int32? {
        var current = path
        for _ in 0..<40 {
            let directory = FileSystem.directory(of: current)
            let name = current.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
            if let fd = Int32(name), (0...2).contains(fd), let real = FileSystem.realPath(directory), isDescriptorDirectory(real) {
                return fd
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, Int(PATH_MAX))
            guard count > 0 else { return nil }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory + "/" + target
        }
        return nil
    }

    /// `/dev/fd` (a directory of its own on Darwin) or this process's `/proc/PID/fd` (`/proc/self/fd`, and a thread's
    /// `/proc/PID/task/TID/fd`), resolved.
    private static func isDescriptorDirectory(_ real: String) -> Bool {
        real == "/dev/fd" || real.hasPrefix("/proc/\(getpid())/") && real.hasSuffix("/fd")
    }
}
