#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of the process's arguments and flag variables were not UTF-8 as the kernel gave them: Swift's
/// `CommandLine.arguments` and `ProcessInfo.environment` replace such bytes with U+FFFD, so a flag read from them
/// would silently hold text nobody sent (R4a-9). The bridge reports those values as problems instead, as sut-launch
/// refuses them.
enum RawProcessText {
    /// The indices of argv whose bytes are not UTF-8.
    static func invalidArgumentIndices() -> Set<Int> {
        var invalid = Set<Int>()
        for index in 0..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: pointer) == nil { invalid.insert(index) }
        }
        return invalid
    }

    /// The names among `names` whose value in the environment is not UTF-8.
    static func invalidVariables(_ names: [String]) -> Set<String> {
        Set(names.filter { name in getenv(name).map { String(validatingCString: $0) == nil } ?? false })
    }
}
