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

    /// At most this many webhooks start in any one second (a storm of webhooks calling this server keeps the CPU
    /// it may take bounded); past it a webhook is not sent, and that is a failure.
    static let startsPerSecond = 256
    private var windowStartMs = -Double.infinity
    private var windowStarts = 0
    /// Set once the server begins to stop: no webhook is reserved after it.
    private var stopping = false
    /// Set when a wait for the webhooks in flight gave up (``waitWhilePending(timeoutMs:interrupted:)``): those still in
    /// their delay are not sent (a scenario's server is gone by then; its callee may be the next scenario's).
    private var abandoned = false

    /// Whether the wait for the webhooks in flight gave up on them.
    var isAbandoned: Bool { lock.withLock { abandoned } }

    /// Reserves slots for `count` webhooks whose delays are at most `delayMs`; returns how many may be sent and why
    /// the others may not (the server stopping, too many in flight, too many this second).
    func reserve(_ count: Int, delayMs: Int) -> (allowed: Int, refusal: String) {
        lock.withLock {
            if stopping { return (0, "not sent, the server was stopping") }
            let now = MonotonicClock.milliseconds()
            if now - windowStartMs >= 1000 { (windowStartMs, windowStarts) = (now, 0) }
            let slots = max(0, Self.inFlightLimit - inFlight)
            let allowed = max(0, min(count, slots, Self.startsPerSecond - windowStarts))
            inFlight += allowed
            windowStarts += allowed
            let deadline = now + Double(delayMs) + Double(3 * WebhookSender.timeoutMs) + 1000
            latestDeadlineMs = max(latestDeadlineMs, deadline)
            let refusal =
                allowed < min(count, slots)
                ? "not sent, \(Self.startsPerSecond) webhooks had started within a second"
                : "not sent, \(Self.inFlightLimit) webhooks were in flight"
            return (allowed, refusal)
        }
    }

    /// Stops reserving: every webhook after this is not sent, a failure.
    func stopAccepting() { lock.withLock { stopping = true } }

    /// Stops reserving, then waits until every webhook reserved has ended, or the deadline fixed now has passed: the
    /// last one's own deadline, or `timeoutMs` from now when that comes first, or until `interrupted` says so (a
    /// signal: checked every 5 ms). False when some were still in flight: those still in their delay are not sent.
    func waitWhilePending(timeoutMs: Double? = nil, interrupted: () -> Bool = { false }) -> Bool {
        let deadline = lock.withLock {
            stopping = true
            return min(latestDeadlineMs, timeoutMs.map { MonotonicClock.milliseconds() + $0 } ?? .infinity)
        }
        while true {
            if lock.withLock({ inFlight }) == 0 { return true }
            if MonotonicClock.milliseconds() >= deadline || interrupted() {
                lock.withLock { abandoned = true }
                return false
            }
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
