import AutomationSupport

/// Starts a detached POSIX thread (not a Dispatch worker: these threads block in waitpid, poll and read).
/// When no thread can be started the work runs inline rather than being lost.
package func startThread(_ body: @escaping @Sendable () -> Void) {
    if !startDetachedThread(body) { body() }
}
