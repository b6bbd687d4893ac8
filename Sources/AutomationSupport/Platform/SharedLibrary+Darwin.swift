#if !canImport(Glibc)
/// Not built here: on macOS HTTPS is to sit on Network.framework or Security, not on a loaded OpenSSL. Until then
/// no library is found, so `--https` says it is unavailable and plain HTTP works as before.
package struct SharedLibrary: Sendable {
    package let name: String
    package static var inStaticExecutable: Bool { false }
    package static func open(firstOf names: [String]) -> SharedLibrary? { nil }
    package func function<T>(_ symbol: String, as type: T.Type) -> T? { nil }
}
#endif
