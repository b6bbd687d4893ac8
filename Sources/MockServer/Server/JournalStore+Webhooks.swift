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

    /// At most this many webhooks in flight; past it a webhook is not sent, and that is a failure.
    static let inFlightLimit = 64
    /// When the last webhook reserved must have ended (its delay, then each step's deadline), monotonic ms.
    private var latestDeadlineMs = 0.0

    /// Reserves slots for `count` webhooks whose delays are at most `delayMs`; returns how many may be sent.
    func reserve(_ count: Int, delayMs: Int) -> Int {
        lock.withLock {
            let allowed = max(0, min(count, Self.inFlightLimit - inFlight))
            inFlight += allowed
            let deadline = MonotonicClock.milliseconds() + Double(delayMs) + Double(3 * WebhookSender.timeoutMs) + 1000
            latestDeadlineMs = max(latestDeadlineMs, deadline)
            return allowed
        }
    }

    /// Waits until every webhook reserved has ended, or its deadline passed; false when some were still in flight.
    func waitWhilePending() -> Bool {
        while true {
            let (pending, deadline) = lock.withLock { (inFlight, latestDeadlineMs) }
            if pending == 0 { return true }
            if MonotonicClock.milliseconds() >= deadline { return false }
            MonotonicClock.sleep(milliseconds: 5)
        }
    }

    /// Records a webhook that was not sent (no slot, no thread) as a failure, without a slot.
    func refused(_ failure: String) {
        lock.withLock {
            failureTotal += 1
            if failures.count < Self.described { failures.append(failure) }
        }
    }

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
