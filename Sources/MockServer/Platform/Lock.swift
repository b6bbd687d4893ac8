#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's one lock: a mutex with a condition, for state shared by connection threads.
/// (The standard `Synchronization.Mutex` needs macOS 15; Package.swift promises macOS 13.)
package final class Lock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    package init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    /// With the lock held: waits until `ready()` holds or `timeoutMs` passes; true when it holds.
    package func wait(until ready: () -> Bool, timeoutMs: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += timeoutMs / 1000
        deadline.tv_nsec += (timeoutMs % 1000) * 1_000_000
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while !ready() {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) != 0 { return ready() }
        }
        return true
    }

    /// With the lock held: wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(&condition) }
}

/// A flag that is set once, from any thread.
package final class LockedFlag: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var value = false
    package init() {}
    /// Sets the flag; true when this call set it (it was clear).
    package func set() -> Bool {
        lock.withLock {
            defer { value = true }
            return !value
        }
    }
}

/// Milliseconds on the monotonic clock, and sleeping.
package enum MonotonicClock {
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    package static func sleep(milliseconds: Int) {
        usleep(UInt32(clamping: milliseconds * 1000))
    }
}
