#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Once a stop is asked (a timeout, SIGTERM, Ctrl-C), writes to fd 1 and 2 get a deadline: a reader that holds our
/// stdout or stderr open and never reads (`sut-launch prog | (sleep 1000)`) cannot hold the run in write(2) past it.
/// So do the reports written to a pipe, FIFO or device (`--report /dev/fd/3 3>&1 1>&2 | (sleep 1000)`, R9C-7).
///
/// Before a stop nothing changes: a write waits for its reader as long as it takes (a pager, a slow consumer gets
/// every byte). After the deadline a write that cannot go on at once gives up (``StandardStreams/Outcome/stalled(_:)``);
/// one blocked in write(2) is broken by SIGURG sent to its thread (a handler without SA_RESTART, installed only
/// then, so write returns EINTR or the bytes it took), again every 20 ms until it returns (a signal that came just
/// before the call is not lost for good).
extension StandardStreams {
    private struct Limit {
        var deadline: ContinuousClock.Instant?
        var handlerInstalled = false
        var breakerStarted = false
        var nextWriter = 0
        var writers: [Int: pthread_t] = [:]
        /// Says, once a stop was asked by a signal its handler recorded (``watchForStop(_:)``), how long writes may wait.
        var probe: (@Sendable () -> Duration?)?
    }
    private static let limit = Locked(Limit())
    private static let notWritten = Locked<[Int32: Int]>([:])

    /// Gives writes to fd 1 and 2, and to the reports written to a pipe or device (``writeUntilStopped(_:to:)``), a
    /// deadline `within` from now (an earlier one set before stays).
    package static func limitWrites(within: Duration) {
        let deadline = ContinuousClock.now + max(within, .zero)
        let install = limit.withLock { limit -> Bool in
            if limit.deadline.map({ deadline < $0 }) ?? true { limit.deadline = deadline }
            defer { limit.handlerInstalled = true }
            return !limit.handlerInstalled
        }
        if install {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in }
            #else
            action.__sigaction_u.__sa_handler = { _ in }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0 // no SA_RESTART: the blocked write returns
            sigaction(SIGURG, &action, nil)
        }
        startBreaker()
    }

    /// A stop asked by a signal that a handler records (the launcher's forwarder): `probe` returns, once one came, how
    /// long writes may still wait (nil before). Looked at by every write that waits for its reader, and by the breaker's
    /// thread while a write is blocked (started only then): a report or a line written after the program ended, to a
    /// reader that never reads, is not held past the stop's grace (R9C-7).
    package static func watchForStop(_ probe: @escaping @Sendable () -> Duration?) { limit.withLock { $0.probe = probe } }

    /// Gives writes their deadline when the probe of ``watchForStop(_:)`` says a stop was asked.
    package static func noticeStop() {
        // Looked at after a deadline too: a second signal shortens it (nothing is left after a second Ctrl-C).
        guard let probe = limit.withLock({ $0.probe }), let allowance = probe() else { return }
        limitWrites(within: allowance)
    }

    /// Starts the breaker's thread, once.
    private static func startBreaker() {
        let start = limit.withLock { limit -> Bool in
            defer { limit.breakerStarted = true }
            return !limit.breakerStarted
        }
        if start { _ = startDetachedThread { breakBlockedWrites() } }
    }

    /// Before a write to `fd` that may block: when a stop could still come (a probe is set, no deadline yet) and `fd`
    /// cannot take a byte now, the breaker's thread watches for it meanwhile (the write itself cannot look).
    static func watchWhileBlocked(_ fd: Int32) {
        guard limit.withLock({ !$0.breakerStarted && $0.probe != nil && $0.deadline == nil }) else { return }
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if poll(&ready, 1, 0) == 0 { startBreaker() }
    }

    /// True once the deadline of ``limitWrites(within:)`` has passed.
    package static var writeDeadlinePassed: Bool { limit.current.deadline.map { ContinuousClock.now >= $0 } ?? false }

    /// Counts `count` bytes of the program's output that were not written to `fd` (1 or 2): its reader did not take them.
    package static func countNotWritten(_ count: Int, to fd: Int32) { notWritten.withLock { $0[fd, default: 0] += count } }

    /// Bytes of the program's output not written to `fd` because its reader did not read before the deadline.
    package static func bytesNotWritten(to fd: Int32) -> Int { notWritten.current[fd] ?? 0 }

    /// Registers the calling thread as writing (the breaker may signal it) for the time of `body`.
    static func whileWriting<R>(_ body: () -> R) -> R {
        let id = limit.withLock { limit -> Int in
            limit.nextWriter += 1
            limit.writers[limit.nextWriter] = pthread_self()
            return limit.nextWriter
        }
        defer { _ = limit.withLock { $0.writers.removeValue(forKey: id) } }
        return body()
    }

    /// Past the deadline, whether `fd` cannot take a byte now (the write then gives up).
    static func stalledPastDeadline(_ fd: Int32) -> Bool {
        guard writeDeadlinePassed else { return false }
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&ready, 1, 0) == 0
    }

    /// The breaker's thread: while writes wait, the probe of ``watchForStop(_:)``; after the deadline, SIGURG to every
    /// thread in a write, every 20 ms.
    private static func breakBlockedWrites() {
        while true {
            noticeStop()
            // Under the lock: a writer unregisters (and may exit) only once its signal was sent.
            limit.withLock { limit in
                guard let deadline = limit.deadline, ContinuousClock.now >= deadline else { return }
                for thread in limit.writers.values { pthread_kill(thread, SIGURG) }
            }
            usleep(20_000)
        }
    }
}
