import AutomationSupport

/// Webhooks in flight and those that could not be delivered, counted with the journal: the summary's failures
/// name each, and ``MockServer/settle(timeout:)`` waits for the ones in flight.
final class WebhookLog: @unchecked Sendable {
    private let lock = Lock()
    private var inFlight = 0
    private var failures: [String] = []
    /// At most this many failures are described; the others are counted.
    static let described = 100
    private var failureTotal = 0

    func started() { lock.withLock { inFlight += 1 } }

    func finished(failure: String?) {
        lock.withLock {
            inFlight -= 1
            guard let failure else { return }
            failureTotal += 1
            if failures.count < Self.described { failures.append(failure) }
        }
    }

    /// Webhooks not finished yet.
    var pending: Int { lock.withLock { inFlight } }

    /// One line per failure, then how many more; and one for those still in flight.
    var report: [String] {
        lock.withLock {
            var lines = failures
            if failureTotal > failures.count { lines.append("\(failureTotal - failures.count) more webhooks failed") }
            if inFlight > 0 {
                lines.append("\(inFlight) webhook\(inFlight == 1 ? " was" : "s were") still being sent when the server stopped")
            }
            return lines
        }
    }
}

extension JournalStore {
    func webhookStarted() { webhooks.started() }
    func webhookFinished(failure: String?) { webhooks.finished(failure: failure) }
}
