/// How a launched program ended.
public enum ProcessStatus: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this code.
    case exited(Int32)
    /// It died of this signal.
    case signaled(Int32)

    /// The shell convention: the exit code, or 128 + the signal number.
    public var shellExitCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with code \(code)"
        case .signaled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
        }
    }
}

/// The conventional name of a signal number, e.g. "SIGTERM".
package func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU",
        23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO",
        30: "SIGPWR", 31: "SIGSYS",
    ]
    return names[signal] ?? "signal \(signal)"
}
