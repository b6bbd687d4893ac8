import AutomationSupport
import ProcessEngine

extension SUTApplication {
    /// What the last reference to an application stops, from its deinit (which runs on whatever thread let it go,
    /// and must not wait): a test that throws before ``terminate(grace:)`` and has no scope still leaves nothing
    /// running. A program still running gets SIGTERM to its process group at once and SIGKILL 2 s later (the grace
    /// of ``terminate(grace:)``), on a thread of its own that then reaps it and stops what it left running; the
    /// control channel's own endpoint stops and the HTTPS trust files go after it. A ``MockServer`` passed to
    /// ``launch(featureFlags:automationFlags:environment:arguments:entryPoint:server:flagsIn:workingDirectory:)``
    /// is the caller's and stays up (a scope, or `server.stop()`, stops it).
    static func releaseStops(_ state: Locked<State>) {
        let (process, endpoint, trust) = state.withLock { ($0.process, $0.controlEndpoint, $0.trust) }
        let rest: @Sendable () -> Void = {
            endpoint?.stop()
            trust?.remove()
        }
        guard let process else { return rest() }
        process.stopWithoutWaiting(grace: .seconds(2), then: rest)
    }
}
