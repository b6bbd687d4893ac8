#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another executable installed next to this one (`sut-launch-foundation` beside `sut-launch`), run in this
/// process's place.
package enum CompanionExecutable {
    /// The path of `name` in the directory of the running executable, or nil when that cannot be told.
    package static func path(_ name: String) -> String? {
        guard let own = ownPath(), let slash = own.lastIndex(of: "/") else { return nil }
        return String(own[...slash]) + name
    }

    /// Replaces this process with `path`, argv[0] its file name, same environment, descriptors and signal
    /// state. Returns only when exec failed, with the error.
    package static func exec(_ path: String, arguments: [String]) -> Errno {
        let argv = [String(path.split(separator: "/").last ?? Substring(path))] + arguments
        StandardDescriptors.handClosedOnesAcrossExec()
        return Spawn.withCStrings(argv, originals: OriginalBytes.arguments(argv)) { pointers in
            execv(path, pointers) // execv keeps `environ`
            return Errno(errno)
        }
    }

    private static func ownPath() -> String? {
        #if canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #else
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
