#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C errno with its text.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value (`ENOENT`).
    public let rawValue: Int32
    /// The errno `rawValue`.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public var description: String { String(cString: strerror(rawValue)) }
}

extension Errno {
    /// ETIMEDOUT: a bounded wait or write ran out of time.
    package static let timedOut = Errno(ETIMEDOUT)
    /// The calling thread's errno now.
    static var current: Errno { Errno(errno) }
}
