#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes to this process's stdout or stderr, unbuffered (fd 1 and 2): sut-launch's own lines, the server's
/// warnings and the program's output passed through. Every write to fd 1 and 2 goes through here.
///
/// Only EPIPE means the reader went away (`sut-launch prog | head`: SIGPIPE is ignored by the CLI). Any other
/// error (`> /dev/full`: ENOSPC, EIO, EFBIG) is output lost: the first is kept in ``failure`` and the command
/// ends with exit 74 naming it, never 0. So does a write to stdout or stderr closed at start (`>&-`).
package enum StandardStreams {
    /// What became of one write.
    package enum Outcome: Equatable, Sendable {
        case written
        /// EPIPE: nobody reads any more.
        case readerGone
        /// Any other error (errno): the bytes are lost.
        case failed(Int32)
        /// Past the deadline of a stop (``limitWrites(within:)``) the reader took no more: this many bytes were not written.
        case stalled(Int)
    }

    private static let firstFailure = Locked<String?>(nil)
    /// Fds 0, 1 and 2 found closed at start (`<&-`, `>&-`), now on /dev/null: what is written to 1 and 2 is lost, and
    /// an output path naming any of them would be written nowhere.
    private static let closedAtStart = Locked<Set<Int32>>([])

    /// Whether lost output makes `code` 74: only a 0, whichever way it was lost (a descriptor closed at start, a full
    /// device): a failing program's own status, a timeout's 124 or a stop's 128+N is worth more to the caller than
    /// "output lost", which the line and the report still say (R8C-9: `> /dev/full` turned 124 and 139 into 74).
    package static func lostOutputOverrides(_ code: Int32) -> Bool { failure != nil && code == 0 }

    /// Records that `fd` (0, 1 or 2) was closed when the process started: for 1 and 2, its first write is output lost
    /// (exit 74).
    package static func markClosedAtStart(_ fd: Int32) { closedAtStart.withLock { _ = $0.insert(fd) } }

    /// Fds 0, 1 and 2 found closed at start, in order: handed to `sut-launch-foundation` across exec, which
    /// otherwise finds them open on the /dev/null put there and reports output lost as written.
    package static var descriptorsClosedAtStart: [Int32] { closedAtStart.current.sorted() }

    private static let undelivered = Locked<Int32?>(nil)

    /// Records that the program's output passed through to `fd` (1 or 2) met EPIPE: its reader went away and the
    /// bytes were not delivered; the first such fd is kept.
    package static func markUndelivered(_ fd: Int32) { undelivered.withLock { if $0 == nil { $0 = fd } } }

    /// The fd (1 or 2) whose reader went away while the program's output was still passed to it, or nil.
    package static var undeliveredTo: Int32? { undelivered.current }

    package static func out(_ text: String) { write(text, to: 1) }
    package static func error(_ text: String) { write(text, to: 2) }

    /// The first write to stdout or stderr that failed other than with EPIPE, e.g. "cannot write to standard
    /// output: No space left on device"; nil when none did.
    package static var failure: String? { firstFailure.current }

    private static let ownLinesLost = Locked<Int32?>(nil)

    /// The fd (1 or 2) whose reader went away while sut-launch's own lines were written to it (`sut-launch test |
    /// head -n1`): what followed was not delivered, so the command cannot end 0; nil when none did.
    package static var ownLinesUndeliveredTo: Int32? { ownLinesLost.current }

    private static func write(_ text: String, to fd: Int32) {
        // A line of ours after the program's unterminated last line on the same stream, file or terminal starts on a
        // line of its own (R10C-11: `partialsut-launch: error: … timed out`, missed by a search for `^sut-launch:`).
        var bytes = Array((!text.isEmpty && closeProgramLine(on: fd) ? "\n" + text : text).utf8)
        let outcome = bytes.withUnsafeMutableBytes { write(UnsafeRawBufferPointer($0), to: fd) }
        if outcome == .readerGone { ownLinesLost.withLock { if $0 == nil { $0 = fd } } }
    }

    /// Writes all of `bytes` to `fd` (1 or 2), waiting while a non-blocking descriptor is full; past the deadline of a
    /// stop (``limitWrites(within:)``), giving up when the reader takes no more.
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Outcome {
        if bytes.count > 0, closedAtStart.current.contains(fd) {
            let name = fd == 1 ? "standard output" : "standard error"
            firstFailure.withLock {
                if $0 == nil { $0 = "cannot write to \(name): it was closed when sut-launch started (the output is lost)" }
            }
            return .failed(EBADF)
        }
        return whileWriting { writeAll(bytes, to: fd) }
    }

    /// Writes all of `bytes` to `fd`, a pipe, FIFO or device a report goes to (opened non-blocking by the caller), as
    /// writes to stdout and stderr go: waiting for its reader as long as it takes until a stop is asked, then until the
    /// stop's deadline (``limitWrites(within:)``, ``noticeStop()``); a reader that took nothing more by then gives
    /// ``Outcome/stalled(_:)`` (R9C-7). A failure is the caller's to name: it is not the output lost of ``failure``.
    package static func writeUntilStopped(_ bytes: [UInt8], to fd: Int32) -> Outcome {
        bytes.withUnsafeBytes { raw in whileWriting { writeAll(raw, to: fd, standard: false) } }
    }

    /// `standard`: `fd` is 1 or 2, whose failure is the command's output lost (``failure``).
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, standard: Bool = true) -> Outcome {
        var offset = 0
        if bytes.count > 0 { watchWhileBlocked(fd) }
        while offset < bytes.count {
            if stalledPastDeadline(fd) { return .stalled(bytes.count - offset) }
            #if canImport(Glibc)
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let written = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written >= 0 {
                offset += written
                continue
            }
            let error = errno
            switch error {
            case EINTR: noticeStop()
            case EAGAIN, EWOULDBLOCK:
                noticeStop()
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 100)
            case EPIPE: return .readerGone
            default:
                guard standard else { return .failed(error) }
                let name = fd == 1 ? "standard output" : fd == 2 ? "standard error" : "descriptor \(fd)"
                let reason = String(cString: strerror(error))
                firstFailure.withLock { if $0 == nil { $0 = "cannot write to \(name): \(reason)" } }
                return .failed(error)
            }
        }
        return .written
    }
}
