#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The current process's environment, read from `environ`.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        guard var pointer = _NSGetEnviron()?.pointee else { return [:] } // the documented accessor for programs on Darwin
        #else
        var pointer = environ
        #endif
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer += 1
        }
        return result
    }
}
