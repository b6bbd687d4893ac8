#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C errno with its text.
package struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value (`ENOENT`).
    package let rawValue: Int32
    /// The errno `rawValue`.
    package init(_ rawValue: Int32) { self.rawValue = rawValue }
    package var description: String { String(cString: strerror(rawValue)) }
}

extension Errno {
    /// ETIMEDOUT: a bounded wait or write ran out of time.
    package static let timedOut = Errno(ETIMEDOUT)
    /// The calling thread's errno now.
    static var current: Errno { Errno(errno) }
    /// EINTR: a signal handler ran; try again.
    static let interrupted = Errno(EINTR)
    /// EAGAIN: not ready; try again.
    static let wouldBlock = Errno(EAGAIN)
    /// EBADF: not an open descriptor (of the right kind).
    static let badDescriptor = Errno(EBADF)
    /// ETXTBSY: the file is open for writing somewhere.
    static let textBusy = Errno(ETXTBSY)
    /// ENOENT, EACCES, EISDIR, ENOEXEC, E2BIG: why execve refused a program.
    static let noSuchFile = Errno(ENOENT), permissionDenied = Errno(EACCES), isADirectory = Errno(EISDIR)
    static let execFormat = Errno(ENOEXEC), argumentsTooLong = Errno(E2BIG)
    /// True for EINTR and EAGAIN: the call may simply be made again.
    var isRetry: Bool { self == .interrupted || self == .wouldBlock }
}
