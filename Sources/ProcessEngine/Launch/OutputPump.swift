import AutomationSupport
import Dispatch

/// Reads the program's stdout and stderr pipes on one thread with poll(), hands every chunk to the
/// recorder and (optionally) writes it through to our own stdout/stderr as it arrives: live, binary-safe,
/// and never blocking the program on a full pipe while the other one fills.
final class OutputPump: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let stopRequested = Locked(false)
    /// Time the pump's thread spent in writes to our stdout/stderr (waiting for our reader).
    private let waitingForReader = ReaderWait()
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
        let wake = Pipe.make() ?? Pipe(read: -1, write: -1)
        wakeWrite = Locked(wake.write)
        let stopRequested = self.stopRequested
        let done = self.done
        let waitingForReader = self.waitingForReader
        startThread {
            var loop = PumpLoop(
                open: pipes, wakeRead: wake.read, watch: exitWatch, recorder: recorder, forward: forward,
                stopRequested: stopRequested, done: done, waitingForReader: waitingForReader)
            loop.run()
        }
    }

    /// Waits until both pipes reached end of file, at most `timeout`; then stops reading either way
    /// (a background grandchild may hold a pipe open forever). Time spent waiting for our own reader to take the
    /// output does not count: a slow reader gets every byte. `stopAsked` (a signal came) gives our writes the
    /// deadline it returns (``StandardStreams/limitWrites(within:)``), so a reader that never reads cannot hold this.
    func finish(within timeout: Duration, stopAsked: @Sendable () -> Duration? = { nil }) {
        let start = ContinuousClock.now
        var stopping = false
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if let allowance = stopAsked() { StandardStreams.limitWrites(within: allowance) }
            guard !stopping, ContinuousClock.now - start - waitingForReader.total >= timeout else { continue }
            stopping = true
            stopRequested.withLock { $0 = true }
            var byte: UInt8 = 1
            _ = Descriptor.writeWithoutSIGPIPE(wakeWrite.current, &byte, 1)
        }
        closeWake()
    }

    private func closeWake() {
        let fd = wakeWrite.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { Descriptor.close(fd) }
    }

    deinit { closeWake() } // a process dropped without finish() does not leak the wake pipe
}

/// The pump's thread: polls the pipes, the wake pipe and the exit watch until the pipes are done and the exit
/// was seen.
private struct PumpLoop {
    var open: [(StandardStream, Int32)]
    var wakeRead: Int32
    var watch: OutputPump.ExitWatch?
    let recorder: OutputRecorder
    /// false once our stream could not take a write
    var forwarding: (stdout: Bool, stderr: Bool)
    /// Our fds (1, 2) whose reader stalled past a stop's deadline: what is read for them from then on is counted.
    var stalled: Set<Int32> = []
    let stopRequested: Locked<Bool>
    let done: DispatchSemaphore
    let waitingForReader: ReaderWait
    var pipesDone = false

    init(
        open: [(StandardStream, Int32)], wakeRead: Int32, watch: OutputPump.ExitWatch?, recorder: OutputRecorder, forward: Bool,
        stopRequested: Locked<Bool>, done: DispatchSemaphore, waitingForReader: ReaderWait
    ) {
        self.waitingForReader = waitingForReader
        self.open = open
        self.wakeRead = wakeRead
        self.watch = watch
        self.recorder = recorder
        self.forwarding = (forward, forward)
        self.stopRequested = stopRequested
        self.done = done
    }

    mutating func run() {
        // Not zero-filled: only the pages read() writes become resident (a quiet program costs one, not 16).
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while !pipesDone || watch != nil {
            if !pipesDone && (open.isEmpty || stopRequested.current) {
                finishPipes()
                continue
            }
            var fds = pipesDone ? [] : open.map { Descriptor.readable($0.1) }
            let pipeCount = fds.count
            let wakeIndex = wakeRead >= 0 ? fds.count : -1
            if wakeRead >= 0 { fds.append(Descriptor.readable(wakeRead)) }
            let watchIndex = watch != nil ? fds.count : -1
            if let watch { fds.append(Descriptor.readable(watch.fd)) }
            if Descriptor.waitUntilReadable(&fds) < 0 {
                if Errno.current == .interrupted { continue }
                if !pipesDone { finishPipes() }
                seeExit() // onExit blocks in waitpid: the exit is still seen
                break
            }
            if wakeIndex >= 0, Descriptor.isReady(fds[wakeIndex]) { readWake() }
            if watchIndex >= 0, Descriptor.isReady(fds[watchIndex]) { seeExit() }
            let ready = open.prefix(pipeCount).enumerated().filter { Descriptor.isReady(fds[$0.offset]) }.map(\.element)
            let closed = ready.filter { !drain($0.1, from: $0.0, buffer: buffer, capacity: capacity) }.map(\.1)
            for fd in closed { Descriptor.close(fd) }
            open.removeAll { closed.contains($0.1) }
        }
        if wakeRead >= 0 { Descriptor.close(wakeRead) }
    }

    /// Reads one chunk of `stream` and passes it on; false when the pipe is done (end of file, an error, or our
    /// reader gone).
    private mutating func drain(_ fd: Int32, from stream: StandardStream, buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> Bool {
        let count = Descriptor.read(fd, into: buffer, capacity: capacity)
        guard count > 0 else { return count < 0 && Errno.current.isRetry }
        let chunk = UnsafeBufferPointer(start: buffer, count: count)
        recorder.record(chunk, from: stream)
        let target: Int32 = stream == .stdout ? 1 : 2
        guard stream == .stdout ? forwarding.stdout : forwarding.stderr else {
            if stalled.contains(target) { StandardStreams.countNotWritten(count, to: target) }
            return true
        }
        switch waitingForReader.timing({ StandardStreams.passOn(UnsafeRawBufferPointer(chunk), to: target) }) {
        case .written: return true
        case .stalled(let left):
            // A stop was asked and our reader did not read before its deadline (`| (sleep 1000)`): keep reading (the
            // program is not held on its pipe, its exit is seen), count what is not passed on (``Runner`` says it).
            StandardStreams.countNotWritten(left, to: target)
            stalled.insert(target)
            if stream == .stdout { forwarding.stdout = false } else { forwarding.stderr = false }
            return true
        case .readerGone:
            // Our reader went away (`sut-launch prog | head`): stop reading, so the program
            // sees its stdout closed (EPIPE/SIGPIPE) as if it were piped to head directly. This chunk was not
            // delivered: the run ends with 141 even when the program writes no more (``Runner``).
            StandardStreams.markUndelivered(target)
            return false
        case .failed:
            // Our output cannot be written (`> /dev/full`): not the program's doing. Keep
            // reading (it is recorded), stop passing it on; the run ends with exit 74.
            if stream == .stdout { forwarding.stdout = false } else { forwarding.stderr = false }
            return true
        }
    }

    private mutating func readWake() {
        if stopRequested.current {
            var byte: UInt8 = 0
            _ = Descriptor.read(wakeRead, into: &byte, capacity: 1)
        } else {
            // The pump was dropped without finish(): keep draining the program's pipes, without the wake pipe.
            Descriptor.close(wakeRead)
            wakeRead = -1
        }
    }

    private mutating func finishPipes() {
        for (_, fd) in open { Descriptor.close(fd) }
        open = []
        pipesDone = true
        recorder.markFinished()
        done.signal()
    }

    private mutating func seeExit() {
        guard let current = watch else { return }
        watch = nil
        Descriptor.close(current.fd)
        current.onExit()
    }
}

/// The time a pump's thread spends in writes to our stdout and stderr, a write in progress included.
final class ReaderWait: Sendable {
    private struct State {
        var done: Duration = .zero
        var since: ContinuousClock.Instant?
    }
    private let state = Locked(State())

    /// The time spent so far.
    var total: Duration { state.withLock { $0.done + ($0.since.map { ContinuousClock.now - $0 } ?? .zero) } }

    /// Runs the write `body`, counting its time.
    func timing<R>(_ body: () -> R) -> R {
        let began = ContinuousClock.now
        state.withLock { $0.since = began }
        defer {
            let ended = ContinuousClock.now
            state.withLock {
                $0.since = nil
                $0.done += ended - began
            }
        }
        return body()
    }
}
