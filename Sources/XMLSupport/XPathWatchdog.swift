import AutomationSupport

/// Stops XPath evaluations that run past their CPU time. libxml2's operation limit (`opLimit`) counts an evaluation's
/// steps but not the merging of node-sets within one step, which is quadratic: `//a[count(//*//*//*//*) > 1]` over a
/// 66 KB body spent 16 s of CPU within 2,000,000 operations (an outside attack). One thread reads each evaluating
/// thread's CPU clock every few milliseconds and, past its limit, lowers that evaluation's `opLimit` to 1: libxml2
/// stops at its next check with its "operation limit exceeded" error (one node-set merge later at most).
final class XPathWatchdog: @unchecked Sendable {
    static let shared = XPathWatchdog()
    /// How often the clocks are read while an evaluation is watched.
    static let periodMs = 5

    private struct Watched {
        let context: UnsafeMutableRawPointer
        let clock: ThreadCPUClock
        let limitNanoseconds: Int
        var stopped = false
    }

    private let lock = Lock()
    private var watched: [Int: Watched] = [:]
    private var lastId = 0
    private var started = false

    /// Watches the evaluation on `context` by the calling thread until ``end(_:)``; nil when it cannot be watched (no
    /// CPU clock, no thread): the caller then refuses to evaluate.
    func begin(_ context: UnsafeMutableRawPointer, limitNanoseconds: Int) -> Int? {
        guard let clock = ThreadCPUClock.current() else { return nil }
        return lock.withLock {
            if !started {
                guard startDetachedThread({ self.run() }) else { return nil }
                started = true
            }
            lastId += 1
            watched[lastId] = Watched(context: context, clock: clock, limitNanoseconds: limitNanoseconds)
            lock.broadcast()
            return lastId
        }
    }

    /// Ends watching evaluation `id` (before its context is freed): the CPU it used, and whether it was stopped.
    func end(_ id: Int) -> (nanoseconds: Int, stopped: Bool) {
        lock.withLock {
            guard let entry = watched.removeValue(forKey: id) else { return (0, false) }
            return (entry.clock.elapsedNanoseconds, entry.stopped)
        }
    }

    private func run() {
        while true {
            lock.withLock {
                _ = lock.wait(until: { !watched.isEmpty }, timeoutMs: 60_000)
                for (id, entry) in watched where !entry.stopped && entry.clock.elapsedNanoseconds > entry.limitNanoseconds {
                    atomicStoreWord(entry.context + Layout.contextOpLimit, 1)
                    watched[id]?.stopped = true
                }
            }
            MonotonicClock.sleep(milliseconds: Self.periodMs)
        }
    }
}
