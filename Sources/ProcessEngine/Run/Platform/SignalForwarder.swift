internal import _CProcessSpawn

#if canImport(Glibc)
import AutomationSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Forwards the signals that end a run (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM… every signal whose
/// default action ends a process and that comes from outside; a crash signal sent with `kill`) that sut-launch
/// receives to the program's whole process group, then SIGKILL after the grace period; a second signal kills
/// at once. The run then ends as for SIGTERM: report written, exit 128+N. A real fault still crashes.
/// SIGTSTP, SIGTTIN and SIGTTOU stop the program's group and sut-launch, as a shell stops a job; SIGCONT
/// continues both. SIGHUP, SIGINT and SIGQUIT that the caller left ignored (`nohup`) stay ignored (``ProcessStart``).
///
/// The forwarding is a signal handler (`_CProcessSpawn`'s `process_forward_*`), not a thread: a run starts one
/// thread fewer. ``waitForExit(of:timeout:)`` enforces the grace period from the waiting thread.
///
/// `main` calls ``blockSignalsInThisProcess()`` first thing, so commands that wait with ``waitForTerminationSignal()``
/// (serve, test) see them in one thread; creating a forwarder installs the handlers and unblocks the signals in
/// the calling thread. The program gets an empty mask and default dispositions anyway.
package final class SignalForwarder: Sendable {
    private let grace: Duration
    private static var forwardedSet: sigset_t {
        var set = sigset_t()
        process_termination_set(&set)
        return set
    }

    /// Waits for the next signal that ends a run (blocked by ``blockSignalsInThisProcess()``) and returns it.
    package static func waitForTerminationSignal() -> Int32 {
        var set = forwardedSet
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return process_termination_signal(received)
    }

    /// Waits up to `timeoutMs` for a signal that ends a run (blocked); nil when none came.
    package static func waitForTerminationSignal(timeoutMs: Int) -> Int32? {
        var set = forwardedSet
        var timeout = timespec(tv_sec: timeoutMs / 1000, tv_nsec: (timeoutMs % 1000) * 1_000_000)
        let received = sigtimedwait(&set, nil, &timeout)
        return received > 0 ? process_termination_signal(received) : nil
    }

    /// Sends this process `signal` again (blocked in every thread, it stays pending for the next that takes it).
    package static func raise(_ signal: Int32) { kill(getpid(), signal) }

    /// Sends this process SIGTERM (what ``waitForTerminationSignal()`` waits for).
    package static func raiseTermination() { kill(getpid(), SIGTERM) }

    /// Blocks the forwarded signals in the calling thread (and every thread it starts later), and tells crash
    /// signals sent with `kill` from real faults.
    package static func blockSignalsInThisProcess() {
        var set = forwardedSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
        process_catch_external_crash_signals()
        // Writing to a closed stdout must not kill sut-launch before it writes its report; the program
        // gets the default disposition back (posix_spawn SETSIGDEF).
        signal(SIGPIPE, SIG_IGN)
        // A write past RLIMIT_FSIZE (`ulimit -f`) must fail with EFBIG, so the report or journal it was for is named
        // with exit 74, not kill sut-launch with no word (153). Caught, not ignored: a handler does not survive exec,
        // so every launcher (Foundation.Process too, which passes ignored signals on) gives the program the default.
        signal(SIGXFSZ) { _ in }
    }

    /// Installs the forwarding handlers (once per process is enough; again is harmless).
    package init(grace: Duration) {
        self.grace = grace
        process_forward_install()
        // A signal after the program ended (while the report or journal is written to a reader that never reads) gives
        // those writes the grace too: the handler only records it, the writers look (R9C-7).
        StandardStreams.watchForStop { [self] in writeAllowance }
    }

    /// The process that receives forwarded signals. A signal that came before it started is sent now.
    package func attach(_ process: LaunchedProcess) {
        process_forward_attach(process.pid)
    }

    /// The first signal received, if any.
    package var receivedSignal: Int32? {
        let signal = process_forward_first()
        return signal == 0 ? nil : signal
    }

    /// Once a signal came, how long our writes to stdout and stderr may still wait for their reader: what is left of
    /// the grace since the first, nothing after a second (``StandardStreams/limitWrites(within:)``); nil before any.
    package var writeAllowance: Duration? {
        let firstAt = process_forward_first_at()
        guard firstAt != 0 else { return nil }
        if process_forward_count() > 1 { return .zero }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return grace - .nanoseconds(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - firstAt)
    }

    /// Waits for the program to exit, at most `timeout` (nil: no limit), and sends its group SIGKILL once the
    /// grace period has passed since the first forwarded signal. Nil when the timeout passed first.
    package func waitForExit(of process: LaunchedProcess, timeout: Duration?) -> ProcessStatus? {
        let end = timeout.map { ContinuousClock.now + $0 }
        var killed = false
        while true {
            // Slices of 50 ms: the handler cannot wake this thread, so the grace is checked this often.
            var slice = Duration.milliseconds(50)
            if let end { slice = min(slice, max(end - .now, .zero)) }
            if let status = process.waitForExit(timeout: slice) { return status }
            if let end, ContinuousClock.now >= end { return nil }
            // With the terminal handed to the program: the sentinel follows the terminal's foreground group, and a
            // program that stopped (Ctrl-Z; vim stopping itself) stops sut-launch too, until `fg` (TerminalHandoff).
            _ = process_terminal_follow(process.pid)
            // Our writes to a reader that never reads (the output thread sees the exit only between them) end in time.
            if let allowance = writeAllowance { StandardStreams.limitWrites(within: allowance) }
            let firstAt = process_forward_first_at()
            if !killed, firstAt != 0 {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let elapsed = Duration.nanoseconds(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - firstAt)
                if elapsed >= grace {
                    process.signalGroup(SIGKILL)
                    killed = true
                }
            }
        }
    }
}
