#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock: a mutex with a condition, for state shared by threads (``Locked`` wraps a value in it).
/// The standard `Synchronization.Mutex` needs macOS 15; Package.swift promises macOS 13. The pthread objects
/// are allocated, so their addresses never move.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
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
            if pthread_cond_timedwait(condition, mutex, &deadline) != 0 { return ready() }
        }
        return true
    }

    /// With the lock held: wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
