#if canImport(Glibc)
import AutomationSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Forwards SIGINT, SIGTERM and SIGHUP that sut-launch receives to the program's whole process group,
/// then SIGKILL after the grace period; a second signal kills at once.
///
/// Call ``blockSignalsInThisProcess()`` first thing in `main`, before any thread starts, so every thread
/// inherits the block and only the forwarder's `sigwait` sees them. The program gets an empty mask anyway.
public final class SignalForwarder: Sendable {
    static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private struct State {
        var process: LaunchedProcess?
        var received: Int32?
        var count = 0
    }
    private let state = Locked(State())
    private let grace: Duration

    private static var forwardedSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in forwarded { sigaddset(&set, signal) }
        return set
    }

    /// Waits for the next SIGINT, SIGTERM or SIGHUP (blocked by ``blockSignalsInThisProcess()``) and returns it.
    public static func waitForTerminationSignal() -> Int32 {
        var set = forwardedSet
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Blocks the forwarded signals in the calling thread (and every thread it starts later).
    public static func blockSignalsInThisProcess() {
        var set = forwardedSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Writing to a closed stdout must not kill sut-launch before it writes its report; the program
        // gets the default disposition back (posix_spawn SETSIGDEF).
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts the forwarding thread.
    public init(grace: Duration) {
        self.grace = grace
        let state = self.state
        startThread {
            while true {
                let received = Self.waitForTerminationSignal()
                let (process, count) = state.withLock { state -> (LaunchedProcess?, Int) in
                    state.count += 1
                    if state.received == nil { state.received = received }
                    return (state.process, state.count)
                }
                guard let process else { continue }
                if count == 1 {
                    process.signalGroup(received)
                    startThread {
                        if process.waitForExit(timeout: grace) == nil { process.signalGroup(SIGKILL) }
                    }
                } else {
                    process.signalGroup(SIGKILL)
                }
            }
        }
    }

    /// The process that receives forwarded signals. A signal that came before it started is sent now.
    public func attach(_ process: LaunchedProcess) {
        let pending = state.withLock { state -> Int32? in
            state.process = process
            return state.received
        }
        if let pending {
            process.signalGroup(pending)
            let grace = self.grace
            startThread { if process.waitForExit(timeout: grace) == nil { process.signalGroup(SIGKILL) } }
        }
    }

    /// The first signal received, if any.
    public var receivedSignal: Int32? { state.withLock { $0.received } }
}
