internal import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe's two ends, close-on-exec.
struct Pipe {
    let read: Int32
    let write: Int32

    /// A pipe whose both ends are close-on-exec (the spawn's dup2 clears the flag on the copy the child gets).
    static func make() -> Pipe? {
        var fds: [Int32] = [-1, -1]
        guard csystem_pipe_cloexec(&fds) == 0 else { return nil }
        return Pipe(read: fds[0], write: fds[1])
    }

    /// Opens /dev/null close-on-exec; -1 and errno on failure.
    static func openNull(forWriting: Bool) -> Int32 {
        open("/dev/null", (forWriting ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

/// The calls the launcher makes on one descriptor (read, close, poll), and writes that never raise SIGPIPE.
enum Descriptor {
    /// read(2): the count, 0 at end of file, -1 and errno.
    static func read(_ fd: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        systemRead(fd, buffer, capacity)
    }

    /// Closes `fd`.
    static func close(_ fd: Int32) { _ = systemClose(fd) }

    /// Waits with no time limit until one of `fds` is readable or hung up (poll(2)); their `revents` say which.
    /// The number ready, or -1 and errno (EINTR: try again).
    static func waitUntilReadable(_ fds: inout [pollfd]) -> Int32 { poll(&fds, nfds_t(fds.count), -1) }

    /// Waits at most `milliseconds` until `fd` can take a write (poll(2)): 1, 0 on timeout, or -1 and errno.
    static func waitUntilWritable(_ fd: Int32, milliseconds: Int32) -> Int32 {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, milliseconds)
    }

    /// The most bytes a write to a pipe makes at once (PIPE_BUF): a writer that waits for room writes at most this.
    static let atomicWriteLimit = Int(PIPE_BUF)

    /// True when ``waitUntilReadable(_:)`` found `entry` readable or hung up.
    static func isReady(_ entry: pollfd) -> Bool { entry.revents != 0 }

    /// What ``waitUntilReadable(_:)`` watches for `fd`.
    static func readable(_ fd: Int32) -> pollfd { pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }

    /// write(2) that reports EPIPE instead of raising SIGPIPE, whatever this process's SIGPIPE disposition is.
    static func writeWithoutSIGPIPE(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        var block = sigset_t()
        var old = sigset_t()
        var pending = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        let written = write(fd, pointer, count)
        let savedErrno = errno
        if written < 0 && savedErrno == EPIPE {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var timeout = timespec()
                sigtimedwait(&block, nil, &timeout) // consume the SIGPIPE we caused
            }
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        errno = savedErrno
        return written
    }
}
