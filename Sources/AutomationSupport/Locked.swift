/// A value guarded by the one ``Lock``.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }

    package var current: Value { withLock { $0 } }
}
