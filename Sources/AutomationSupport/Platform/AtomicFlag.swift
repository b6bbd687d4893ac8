import CSystemShims

/// A flag one thread sets and others poll without a lock (``pollBriefly(milliseconds:until:)``): polling a
/// mutex-guarded value made the setter block on the mutex, and a blocked thread takes ~0.1 ms to run again here.
package final class AtomicFlag: @unchecked Sendable {
    private let storage = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    package init(_ value: Bool = false) { storage.initialize(to: value ? 1 : 0) }
    deinit { storage.deallocate() }

    /// Reads with acquire, writes with release: what the setter wrote before is seen by a reader that sees it set.
    package var value: Bool {
        get { csystem_atomic_load(storage) != 0 }
        set { csystem_atomic_store(storage, newValue ? 1 : 0) }
    }
}

/// Writes `value` atomically (release) into the word at `pointer`, which another thread reads (a C library's field).
package func atomicStoreWord(_ pointer: UnsafeMutableRawPointer, _ value: UInt) {
    csystem_atomic_store_word(pointer.assumingMemoryBound(to: UInt.self), value)
}
