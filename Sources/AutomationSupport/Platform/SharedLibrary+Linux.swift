// The one place the package loads a shared library at run time (libssl and libcrypto for HTTPS, libxml2 for XML
// matchers): no headers and no link-time dependency, so a machine without them still runs everything else.
#if canImport(Glibc)
import CSystemShims
import Glibc

/// A shared library opened with `dlopen`, kept open for the life of the process (OpenSSL is never unloaded:
/// its threads' state would dangle).
package struct SharedLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by (`libssl.so.3`).
    package let name: String

    /// True in a statically linked executable (no dynamic loader: AT_BASE is 0). There a loaded library brings the
    /// shared C library in beside the static one, two thread-key allocators share each thread's key slots, and
    /// OpenSSL's keys overwrite libdispatch's: a connection thread that used TLS crashed when it ended (measured:
    /// exit 139 after a passing run of the release binary). So nothing is loaded there.
    package static var inStaticExecutable: Bool { csystem_is_static_executable() != 0 }

    /// Opens the first of `names` that loads (RTLD_NOW: every symbol resolved now, not at a first call deep in a
    /// connection; RTLD_LOCAL: its symbols do not leak into later lookups). Nil when none does.
    package static func open(firstOf names: [String]) -> SharedLibrary? {
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return SharedLibrary(handle: handle, name: name) }
        }
        return nil
    }

    /// The function `symbol` names, as the Swift function type `T` (a `@convention(c)` type that matches its C
    /// declaration); nil when the library lacks it.
    package func function<T>(_ symbol: String, as type: T.Type) -> T? {
        guard let address = dlsym(handle, symbol) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
#endif
