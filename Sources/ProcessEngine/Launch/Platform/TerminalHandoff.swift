internal import _CProcessSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the controlling terminal to the program while it runs, so a program that reads the terminal
/// is not stopped by SIGTTIN in its own process group; gives it back afterwards.
///
/// The terminal's Ctrl-C, Ctrl-\ and Ctrl-Z then go to the program's group only. Where signals are forwarded
/// (``SignalForwarder``, the run form), a sentinel process in that group passes Ctrl-C and Ctrl-\ on to sut-launch
/// (`_CProcessSpawn`'s terminal_sentinel.c): Ctrl-C makes the run interrupted (130, a second one kills). When the program
/// gives the terminal to a group of its own (a job, as a shell does), the sentinel follows it there within 50 ms.
/// Ctrl-Z reaches the program alone: when it stops (or stops itself, as vim does), sut-launch stops with it, as a
/// shell's job; `fg` continues both and gives the program the terminal back (``SignalForwarder/waitForExit(of:timeout:)``
/// calls `process_terminal_follow`).
struct TerminalHandoff: Sendable {
    let ourGroup: pid_t

    static func give(to pid: pid_t) -> TerminalHandoff? {
        guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
        if process_forward_is_installed() == 1 { _ = process_terminal_sentinel_start(pid) }
        guard tcsetpgrp(0, pid) == 0 else {
            process_terminal_sentinel_stop()
            return nil
        }
        process_terminal_handed(pid)
        kill(-pid, SIGCONT) // in case it read the terminal before the handoff and was stopped
        return TerminalHandoff(ourGroup: getpgrp())
    }

    func takeBack() {
        process_terminal_handed(0)
        process_terminal_sentinel_stop()
        // We are in the background now: tcsetpgrp would raise SIGTTOU unless it is blocked.
        var block = sigset_t()
        var old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        tcsetpgrp(0, ourGroup)
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}
