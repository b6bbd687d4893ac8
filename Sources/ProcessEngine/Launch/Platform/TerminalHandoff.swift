#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the controlling terminal to the program while it runs, so a program that reads the terminal
/// is not stopped by SIGTTIN in its own process group; gives it back afterwards.
struct TerminalHandoff: Sendable {
    let ourGroup: pid_t

    static func give(to pid: pid_t) -> TerminalHandoff? {
        guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
        guard tcsetpgrp(0, pid) == 0 else { return nil }
        kill(-pid, SIGCONT) // in case it read the terminal before the handoff and was stopped
        return TerminalHandoff(ourGroup: getpgrp())
    }

    func takeBack() {
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
