import Dispatch
import Testing

@testable import AutomationSupport

#if canImport(Glibc)
import Glibc
#endif

/// `startDetachedThread(onAnotherCPU:)`, which route loading uses for its second thread: the thread runs, and
/// once running it may use every CPU the process's main thread may (it is only started elsewhere).
@Suite struct ThreadsTests {
    private final class Seen: @unchecked Sendable {
        var ran = false
        var sameCPUsAsMain = false
    }

    private static func allowedCPUs(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("Cpus_allowed_list:") { return text }
        }
        return nil
    }

    @Test(arguments: [false, true])
    func aThreadRunsAndKeepsTheCPUsOfTheProcess(onAnotherCPU: Bool) {
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        let started = startDetachedThread(onAnotherCPU: onAnotherCPU) {
            // The kernel's word for it: this thread's and the main thread's allowed CPUs.
            let mine = Self.allowedCPUs("/proc/thread-self/status")
            let main = Self.allowedCPUs("/proc/self/status")
            seen.sameCPUsAsMain = mine != nil && mine == main
            seen.ran = true
            done.signal()
        }
        #expect(started)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.ran)
        #expect(seen.sameCPUsAsMain)
    }

    /// `runInParallel`: both halves run, the second on another thread, and it returns only once both are done,
    /// whether the caller's wait ends while it polls (the other half quick) or after it blocks (slower than 2 ms).
    @Test(arguments: [0, 500, 20_000])
    func runInParallelReturnsWhenBothHalvesAreDone(otherHalfMicroseconds: UInt32) {
        final class Halves: @unchecked Sendable {
            let lock = Lock()
            var threads: [pthread_t] = []
            var finished = 0
        }
        let halves = Halves()
        runInParallel(
            {
                halves.lock.withLock { halves.threads.append(pthread_self()) }
                halves.lock.withLock { halves.finished += 1 }
            },
            {
                usleep(otherHalfMicroseconds) // the call must wait for it, however long it takes
                halves.lock.withLock {
                    halves.threads.append(pthread_self())
                    halves.finished += 1
                }
            })
        #expect(halves.finished == 2)
        #expect(halves.threads.count == 2 && pthread_equal(halves.threads[0], halves.threads[1]) == 0)
    }
}
