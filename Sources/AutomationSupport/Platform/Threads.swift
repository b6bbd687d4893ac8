import CSystemShims
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a detached POSIX thread with a 1 MiB stack (not a Dispatch worker: these threads block in accept,
/// poll, read and waitpid). 1 MiB is virtual (pages are committed when touched): room for JSON and regex
/// structure at their documented depth limits with debug builds' frames.
/// - Returns: false when no thread could be started.
/// - Parameter onAnotherCPU: on Linux, when the process's ``ProcessTuning`` allows it, start it on a CPU other
///   than the caller's (then let it run anywhere): a new thread otherwise often waits behind its creator for up to
///   milliseconds on this VM's 2 CPUs, which is the whole point lost for work split between the two.
package func startDetachedThread(onAnotherCPU: Bool = false, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    // 1 MiB (virtual; pages are committed when touched): room for JSON and regex structure at their
    // documented depth limits (JSONParser.maxDepth, LinearRegex.maxNesting) with debug builds' frames.
    pthread_attr_setstacksize(&attributes, 1024 * 1024)
    defer { pthread_attr_destroy(&attributes) }
    let pinned = onAnotherCPU && ProcessTuning.threadsStartOnAnotherCPU.value && csystem_thread_attr_prefer_other_cpu(&attributes) == 1
    let run: @Sendable () -> Void
    if pinned {
        run = {
            csystem_thread_allow_cpus_of_main()
            body()
        }
    } else {
        run = body
    }
    let context = Unmanaged.passRetained(Box(run)).toOpaque()
    let status = pthread_create(
        &thread, &attributes,
        { context in
            let box = Unmanaged<Box>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeRetainedValue()
            box.body()
            return nil
        }, context)
    if status != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        return false
    }
    return true
}

/// Runs `other` on a thread started on another CPU while the caller runs `here`, and returns when both are
/// done (both run here, one after the other, when no thread can be started). For work split in two on the
/// path to "ready".
///
/// The caller, done first, waits up to 2 ms by polling a flag (yielding the CPU between polls) before it
/// blocks: the two halves usually end within a fraction of that of each other, and a thread blocked then woken
/// takes ~0.1 ms to run again on this VM. The blocking wait is a semaphore: joining on ``Lock``'s condition
/// measured slower in one series.
package func runInParallel(_ here: () -> Void, _ other: @escaping @Sendable () -> Void) {
    final class Join: @unchecked Sendable {
        let done = AtomicFlag()
        let semaphore = DispatchSemaphore(value: 0)
    }
    let join = Join()
    let started = startDetachedThread(onAnotherCPU: true) {
        other()
        join.done.value = true
        join.semaphore.signal()
    }
    here()
    guard started else { return other() }
    if !pollBriefly(milliseconds: 2, until: { join.done.value }) { join.semaphore.wait() }
}

/// Polls `done` for up to `milliseconds`, yielding the CPU between polls (on one CPU, what it waits for needs
/// this one); true when `done` held. For waits that usually end within a fraction of a millisecond, where
/// blocking and being woken costs ~0.1 ms on this VM.
package func pollBriefly(milliseconds: Double, until done: () -> Bool) -> Bool {
    let deadline = MonotonicClock.milliseconds() + milliseconds
    while !done() {
        if MonotonicClock.milliseconds() > deadline { return false }
        sched_yield()
    }
    return true
}
