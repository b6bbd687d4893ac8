import AutomationSupport
import Dispatch

/// SIGINT, SIGTERM or SIGHUP while no program runs under a ``SignalForwarder`` (parsing feature files,
/// between scenarios): a thread waits for the signal, runs the caller's clean-up, then exits 128+N as
/// shells do. Signals must be blocked in this process already.
package enum Interruption {
    /// Starts the waiting thread. Once the signal came, writes to stdout, stderr and to reports on a pipe or device
    /// that wait for a reader get `grace`, then give up (``StandardStreams/limitWrites(within:)``): a reader that never
    /// reads cannot hold the clean-up, nor the run's own end it waits for (R9C-7).
    /// - Parameters:
    ///   - grace: how long writes may still wait for their reader once the signal came.
    ///   - cleanUp: runs before the exit (stop programs, write reports); returns the exit code to
    ///   use instead of 128+N, or nil to keep it.
    package static func exitOnSignal(grace: Duration = .seconds(5), _ cleanUp: @escaping @Sendable (Int32) -> Int32? = { _ in nil }) {
        startThread {
            let received = SignalForwarder.waitForTerminationSignal()
            StandardStreams.limitWrites(within: grace)
            let code = cleanUp(received) ?? ExitCode.signaled(received)
            StandardDescriptors.exitProcess(code)
        }
    }

    /// Runs `body` (loading what a run needs: stubs, files) while a thread waits for SIGINT, SIGTERM or SIGHUP: one
    /// that comes meanwhile runs `cleanUp` (write the reports: nothing launched) and exits 128+N at once, instead of
    /// the signal waiting, blocked, until loading ends and then reaching a program launched anyway (R8C-11). A
    /// signal that comes once `body` returned is left pending for the ``SignalForwarder`` created next.
    package static func whileLoading<Value>(
        _ body: () throws -> Value, grace: Duration = .seconds(5), cleanUp: @escaping @Sendable (Int32) -> Int32? = { _ in nil }
    ) rethrows -> Value {
        let state = Locked(false) // true once loading ended
        let finished = DispatchSemaphore(value: 0)
        startThread {
            defer { finished.signal() }
            while true {
                // A deadline-bound wait, so the thread sees the end of loading within 50 ms.
                let received = SignalForwarder.waitForTerminationSignal(timeoutMs: 50)
                let ended = state.withLock { ended -> Bool in ended }
                if let received {
                    if ended {
                        SignalForwarder.raise(received) // pending again, for the forwarder
                        return
                    }
                    StandardStreams.limitWrites(within: grace) // the report written now, to a reader that never reads
                    let code = cleanUp(received) ?? ExitCode.signaled(received)
                    StandardDescriptors.exitProcess(code)
                }
                if ended { return }
            }
        }
        defer {
            state.withLock { $0 = true }
            finished.wait()
        }
        return try body()
    }
}
