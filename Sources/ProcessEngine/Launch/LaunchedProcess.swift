import AutomationSupport
import Dispatch

/// A running program under test. Its process group is its own: signals sent here reach its children too.
package final class LaunchedProcess: Sendable {
    /// The program's pid, which is also its process group id.
    package let pid: Int32
    /// The resolved path that was executed.
    package let executablePath: String
    /// argv as sent.
    package let argv: [String]
    /// What the program printed.
    package let output: OutputRecorder
    let started: ContinuousClock.Instant
    /// About when it started, in AutomationSupport's MonotonicClock milliseconds (comparable with output arrivals).
    package let startedAtMs = MonotonicClock.milliseconds()

    private struct State {
        var status: ProcessStatus?
        var ended: ContinuousClock.Instant?
        var standardInput: Int32
        /// Calls using `standardInput` now; a close asked for meanwhile waits for the last of them (until then
        /// the number cannot be reused by another file of the process, which a late write would reach instead).
        var standardInputUsers = 0
        var standardInputClosing = false
        var terminal: TerminalHandoff?
        var finished = false
        /// Processes that had left the group and were stopped by ``finish(grace:)`` through the launch's token.
        var sweptDescendants = 0

        /// Gives up the stdin descriptor (the caller closes it, outside the lock).
        mutating func releaseStandardInput() -> Int32 {
            defer { standardInput = -1 }
            return standardInput
        }
    }
    private let state: Locked<State>
    private let exited = DispatchSemaphore(value: 0)
    private let pump: OutputPump
    /// The launch's token in ``Descendants/variable``: what the program started, even out of its group, carries it.
    private let token: String?

    /// - Parameters:
    ///   - waitForExit: blocks until the program exits and returns its raw wait status (waitpid's, or one made
    ///     from Foundation.Process's termination reason).
    ///   - pipes: the read ends of its stdout and stderr, drained by the output pump.
    ///   - exitDescriptor: a pidfd: the pump's thread sees the exit and calls `waitForExit` then (no waiter
    ///     thread); -1: a thread of its own blocks in `waitForExit`.
    init(
        pid: Int32, executablePath: String, argv: [String], started: ContinuousClock.Instant,
        waitForExit: @escaping @Sendable () -> Int32, output: OutputRecorder, pipes: [(StandardStream, Int32)], forward: Bool,
        exitDescriptor: Int32, standardInput: Int32, terminal: TerminalHandoff?, token: String? = nil
    ) {
        self.pid = pid
        self.token = token
        self.executablePath = executablePath
        self.argv = argv
        self.started = started
        self.output = output
        self.state = Locked(State(standardInput: standardInput, terminal: terminal))
        let state = self.state
        let exited = self.exited
        let recordExit: @Sendable () -> Void = {
            let raw = waitForExit()
            let ended = ContinuousClock.now
            let terminal = state.withLock { state -> TerminalHandoff? in
                state.status = Spawn.exitStatus(raw)
                state.ended = ended
                defer { state.terminal = nil }
                return state.terminal
            }
            terminal?.takeBack()
            exited.signal()
            exited.signal() // one for waitForExit callers, one kept for later callers (see waitForExit)
        }
        if exitDescriptor >= 0 {
            pump = OutputPump(
                pipes: pipes, recorder: output, forward: forward,
                exitWatch: OutputPump.ExitWatch(fd: exitDescriptor, onExit: recordExit))
        } else {
            pump = OutputPump(pipes: pipes, recorder: output, forward: forward)
            startThread(recordExit)
        }
    }

    deinit {
        closeStandardInput() // a handle dropped without finish() does not leak the stdin pipe
        if !state.withLock({ $0.finished }) && !groupIsAlive { Reaper.release(pid) }
    }

    /// How many processes that had left the program's group ``finish(grace:)`` stopped (0 before it ran).
    package var sweptDescendants: Int { state.withLock { $0.sweptDescendants } }

    /// The status once the program has exited; nil while it runs.
    package var status: ProcessStatus? { state.withLock { $0.status } }

    /// Time from spawn to exit (or to now while it runs).
    package var duration: Duration { (state.withLock { $0.ended } ?? .now) - started }

    /// Waits for the program to exit, at most `timeout` (nil: no limit).
    /// - Returns: the status, or nil when the timeout passed first.
    package func waitForExit(timeout: Duration? = nil) -> ProcessStatus? {
        if let status { return status }
        let deadline: DispatchTime = timeout.map { .now() + $0.dispatchInterval } ?? .distantFuture
        guard exited.wait(timeout: deadline) == .success else { return nil }
        exited.signal() // leave the semaphore signalled for every later waiter
        return status
    }

    /// Sends `signal` to the program's whole process group.
    package func signalGroup(_ signal: Int32) {
        if !ProcessGroup.signal(pid, signal) && status == nil { ProcessGroup.signalProcess(pid, signal) }
    }

    /// True while any process of the group (the program, or a child it left behind) is alive (zombies do not count).
    package var groupIsAlive: Bool { ProcessGroup.hasLiveMembers(pid) }

    /// Stops the program: `signal` to the group, then SIGKILL to the group after `grace` if the program
    /// has not exited. Returns its status.
    @discardableResult
    package func stop(signal: Int32 = 15, grace: Duration) -> ProcessStatus {
        signalGroup(signal)
        // A stopped program (SIGSTOP, SIGTSTP) runs its handler only once continued, as GNU timeout does.
        if signal != ProcessGroup.kill { signalGroup(ProcessGroup.proceed) }
        if let status = waitForExit(timeout: grace) { return status }
        signalGroup(ProcessGroup.kill)
        return waitForExit()!
    }

    /// After the program exited: stops what it left running in its group (SIGTERM, SIGKILL after `grace`), then
    /// what left the group but carries the launch's token (``Descendants/stop(token:grace:)``), and waits for its
    /// output pipes to close, so no child outlives the run and no output is lost. `stopAsked` returns, once a stop
    /// was asked meanwhile (a signal), how long our writes may still wait for our reader (``OutputPump/finish(within:stopAsked:)``).
    package func finish(grace: Duration, stopAsked: @Sendable () -> Duration? = { nil }) {
        let alreadyFinished = state.withLock { state -> Bool in
            defer { state.finished = true }
            return state.finished
        }
        guard !alreadyFinished else { return }
        _ = waitForExit()
        if groupIsAlive {
            signalGroup(ProcessGroup.terminate)
            signalGroup(ProcessGroup.proceed)
            ProcessGroup.waitWhileAlive(pid, until: ContinuousClock.now + grace)
            if groupIsAlive {
                signalGroup(ProcessGroup.kill)
                // Ended, a member's children that left the group are orphans, found below (at most 1 s: a kill is quick).
                ProcessGroup.waitWhileAlive(pid, until: ContinuousClock.now + .seconds(1))
            }
        }
        if let token {
            let swept = Descendants.stop(token: token, grace: grace)
            state.withLock { $0.sweptDescendants = swept }
        }
        closeStandardInput()
        pump.finish(within: .milliseconds(250), stopAsked: stopAsked)
        Reaper.release(pid)
    }

    /// Stops the program without waiting in the caller (for a handle let go while its program may run, as
    /// `SUTApplication`'s deinit, on any thread): SIGTERM (and SIGCONT) to its group at once when it still runs; then,
    /// on a thread of its own, SIGKILL to the group after `grace` and ``finish(grace:)`` (what it left running, its
    /// pipes, reaping), then `then`. When ``finish(grace:)`` already ran, only `then` runs, here.
    package func stopWithoutWaiting(grace: Duration, then: @escaping @Sendable () -> Void) {
        guard !state.withLock({ $0.finished }) else { return then() }
        if status == nil {
            signalGroup(ProcessGroup.terminate)
            signalGroup(ProcessGroup.proceed)
        }
        startThread {
            if self.waitForExit(timeout: grace) == nil { self.signalGroup(ProcessGroup.kill) }
            self.finish(grace: grace)
            then()
        }
    }

    /// Writes bytes to the program's stdin (launched with `.pipe`).
    /// - Throws: ``Errno`` when stdin is not a pipe or the program closed it.
    package func writeToStandardInput(_ bytes: [UInt8]) throws(Errno) {
        try withStandardInput { fd throws(Errno) in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Descriptor.writeWithoutSIGPIPE(fd, $0.baseAddress, $0.count) }
                if written < 0 {
                    let error = Errno.current
                    if error == .interrupted { continue }
                    throw error
                }
                offset += written
            }
        }
    }

    /// Writes `bytes` to the program's stdin within `timeout`: waits for room (poll) and writes at most PIPE_BUF
    /// bytes at a time, so a program that never reads cannot hold the caller past its deadline.
    /// - Throws: ``Errno`` ETIMEDOUT when the time ran out first (some bytes may have been written), or the write's error.
    package func writeToStandardInput(_ bytes: [UInt8], timeout: Duration) throws(Errno) {
        let end = ContinuousClock.now + timeout
        try withStandardInput { fd throws(Errno) in
            var offset = 0
            while offset < bytes.count {
                let remaining = end - .now
                guard remaining > .zero else { throw Errno.timedOut }
                let milliseconds = Int32(
                    clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
                let ready = Descriptor.waitUntilWritable(fd, milliseconds: milliseconds)
                if ready < 0 {
                    let error = Errno.current
                    if error == .interrupted { continue }
                    throw error
                }
                guard ready > 0 else { continue } // the loop's deadline check ends it
                let count = min(bytes.count - offset, Descriptor.atomicWriteLimit)
                let written = bytes[offset..<(offset + count)].withUnsafeBytes {
                    Descriptor.writeWithoutSIGPIPE(fd, $0.baseAddress, $0.count)
                }
                if written < 0 {
                    let error = Errno.current
                    if error.isRetry { continue }
                    throw error
                }
                offset += written
            }
        }
    }

    /// Sets the window size of the program's pseudo-terminal (launched with ``LaunchRequest/terminal``); the
    /// program gets SIGWINCH.
    /// - Throws: ``Errno`` when it was not launched on a terminal (EBADF) or the terminal is gone.
    package func resizeTerminal(_ size: TerminalSize) throws(Errno) {
        try withStandardInput { fd throws(Errno) in
            try PseudoTerminal.setWindowSize(fd, size)
        }
    }

    /// Whether the program's pseudo-terminal reads lines now (canonical mode), where a line past
    /// ``terminalLineLimit`` is cut; nil when it was not launched on a terminal or its input is closed.
    package var terminalReadsLines: Bool? {
        var reads: Bool?
        try? withStandardInput { fd throws(Errno) in reads = PseudoTerminal.readsLines(fd) }
        return reads
    }

    /// The longest line a terminal in canonical mode takes whole (4095 bytes on Linux).
    package static var terminalLineLimit: Int { PseudoTerminal.lineLimit }

    /// Closes the program's stdin pipe: it reads end of file. (On a terminal it closes only the test's
    /// keyboard; type Ctrl-D, byte 4, for end of file there.) A write in progress on another thread finishes
    /// first; the descriptor is closed when it returns.
    package func closeStandardInput() {
        let fd = state.withLock { state -> Int32 in
            guard state.standardInput >= 0, !state.standardInputClosing else { return -1 }
            state.standardInputClosing = true
            return state.standardInputUsers == 0 ? state.releaseStandardInput() : -1
        }
        if fd >= 0 { Descriptor.close(fd) }
    }

    /// The stdin descriptor while it is open (a close asked for during a write keeps it until the write returns).
    package var standardInputDescriptor: Int32 { state.withLock { $0.standardInput } }
    /// Writes (and resizes) using the stdin descriptor now, for tests.
    package var standardInputUsers: Int { state.withLock { $0.standardInputUsers } }

    /// Runs `body` with the stdin descriptor held open (EBADF when it is closed or closing).
    private func withStandardInput(_ body: (Int32) throws(Errno) -> Void) throws(Errno) {
        let fd = state.withLock { state -> Int32 in
            guard state.standardInput >= 0, !state.standardInputClosing else { return -1 }
            state.standardInputUsers += 1
            return state.standardInput
        }
        guard fd >= 0 else { throw Errno.badDescriptor }
        defer {
            let last = state.withLock { state -> Int32 in
                state.standardInputUsers -= 1
                return state.standardInputUsers == 0 && state.standardInputClosing ? state.releaseStandardInput() : -1
            }
            if last >= 0 { Descriptor.close(last) }
        }
        try body(fd)
    }
}
