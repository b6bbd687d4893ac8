/// SIGINT, SIGTERM or SIGHUP while no program runs under a ``SignalForwarder`` (parsing feature files,
/// between scenarios): a thread waits for the signal, runs the caller's clean-up, then exits 128+N as
/// shells do. Signals must be blocked in this process already.
package enum Interruption {
    /// Starts the waiting thread.
    /// - Parameter cleanUp: runs before the exit (stop programs, write reports); returns the exit code to
    ///   use instead of 128+N, or nil to keep it.
    package static func exitOnSignal(_ cleanUp: @escaping @Sendable (Int32) -> Int32? = { _ in nil }) {
        startThread {
            let received = SignalForwarder.waitForTerminationSignal()
            let code = cleanUp(received) ?? ExitCode.signaled(received)
            StandardDescriptors.exitProcess(code)
        }
    }
}
