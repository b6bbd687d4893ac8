#if canImport(Glibc)
import AutomationSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Reads the program's stdout and stderr pipes on one thread with poll(), hands every chunk to the
/// recorder and (optionally) writes it through to our own stdout/stderr as it arrives: live, binary-safe,
/// and never blocking the program on a full pipe while the other one fills.
final class OutputPump: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let stopRequested = Locked(false)
    /// The write end of the pipe that wakes the reader; -1 once closed.
    private let wakeWrite: Locked<Int32>

    /// A process whose exit the pump also watches: `fd` is its pidfd (closed by the pump), `onExit` runs on the
    /// pump's thread once it polls readable (it reaps the process).
    struct ExitWatch {
        let fd: Int32
        let onExit: @Sendable () -> Void
    }

    /// - Parameters:
    ///   - pipes: read ends, by stream.
    ///   - forward: write each chunk to fd 1 / fd 2 of this process.
    ///   - exitWatch: the program's exit, seen by the same thread (no waiter thread per launch).
    init(pipes: [(StandardStream, Int32)], recorder: OutputRecorder, forward: Bool, exitWatch: ExitWatch? = nil) {
        let wake = PosixSpawn.pipe() ?? (-1, -1)
        wakeWrite = Locked(wake.write)
        let stopRequested = self.stopRequested
        let done = self.done
        startThread {
            var open = pipes
            var wakeRead = wake.read
            var watch = exitWatch
            var pipesDone = false
            var forwarding = (stdout: forward, stderr: forward) // false once our stream could not take a write
            // Not zero-filled: only the pages read() writes become resident (a quiet program costs one, not 16).
            let capacity = 64 * 1024
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer { buffer.deallocate() }
            func finishPipes() {
                for (_, fd) in open { close(fd) }
                open = []
                pipesDone = true
                recorder.markFinished()
                done.signal()
            }
            func seeExit() {
                guard let current = watch else { return }
                watch = nil
                close(current.fd)
                current.onExit()
            }
            while !pipesDone || watch != nil {
                if !pipesDone && (open.isEmpty || stopRequested.current) {
                    finishPipes()
                    continue
                }
                var fds = pipesDone ? [] : open.map { pollfd(fd: $0.1, events: Int16(POLLIN), revents: 0) }
                let pipeCount = fds.count
                let wakeIndex = wakeRead >= 0 ? fds.count : -1
                if wakeRead >= 0 { fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)) }
                let watchIndex = watch != nil ? fds.count : -1
                if let watch { fds.append(pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)) }
                let ready = poll(&fds, nfds_t(fds.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    if !pipesDone { finishPipes() }
                    seeExit() // onExit blocks in waitpid: the exit is still seen
                    break
                }
                if wakeIndex >= 0, fds[wakeIndex].revents != 0 {
                    if stopRequested.current {
                        var byte: UInt8 = 0
                        _ = read(wakeRead, &byte, 1)
                    } else {
                        // The pump was dropped without finish(): keep draining the program's pipes, without the wake pipe.
                        close(wakeRead)
                        wakeRead = -1
                    }
                }
                if watchIndex >= 0, fds[watchIndex].revents != 0 { seeExit() }
                var closed: [Int32] = []
                for (index, (stream, fd)) in open.prefix(pipeCount).enumerated() where fds[index].revents != 0 {
                    let count = read(fd, buffer, capacity)
                    if count > 0 {
                        let chunk = UnsafeBufferPointer(start: buffer, count: count)
                        recorder.record(chunk, from: stream)
                        if stream == .stdout ? forwarding.stdout : forwarding.stderr {
                            switch StandardStreams.write(UnsafeRawBufferPointer(chunk), to: stream == .stdout ? 1 : 2) {
                            case .written: break
                            case .readerGone:
                                // Our reader went away (`sut-launch prog | head`): stop reading, so the program
                                // sees its stdout closed (EPIPE/SIGPIPE) as if it were piped to head directly.
                                closed.append(fd)
                            case .failed:
                                // Our output cannot be written (`> /dev/full`): not the program's doing. Keep
                                // reading (it is recorded), stop passing it on; the run ends with exit 74.
                                if stream == .stdout { forwarding.stdout = false } else { forwarding.stderr = false }
                            }
                        }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        closed.append(fd)
                    }
                }
                for fd in closed { close(fd) }
                open.removeAll { closed.contains($0.1) }
            }
            if wakeRead >= 0 { close(wakeRead) }
        }
    }

    /// Waits until both pipes reached end of file, at most `timeout`; then stops reading either way
    /// (a background grandchild may hold a pipe open forever).
    func finish(within timeout: Duration) {
        if done.wait(timeout: .now() + timeout.dispatchInterval) == .timedOut {
            stopRequested.withLock { $0 = true }
            var byte: UInt8 = 1
            _ = write(wakeWrite.current, &byte, 1)
            done.wait()
        }
        closeWake()
    }

    private func closeWake() {
        let fd = wakeWrite.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { close(fd) }
    }

    deinit { closeWake() } // a process dropped without finish() does not leak the wake pipe
}
