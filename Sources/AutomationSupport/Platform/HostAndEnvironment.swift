#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's name, as `gethostname(2)` gives it (what Java's `InetAddress.getLocalHost().getHostName()`
/// answers on a machine that resolves its own name); `localhost` when there is none, as WireMock falls back.
package enum HostName {
    package static let current: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }()
}

/// One variable of this process's environment, read when asked (`getenv(3)`); nil when unset.
package enum ProcessEnvironmentValue {
    package static func named(_ name: String) -> String? {
        guard !name.isEmpty, !name.utf8.contains(0) else { return nil }
        return getenv(name).map { String(cString: $0) }
    }
}
