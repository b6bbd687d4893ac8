import Dispatch

extension Duration {
    /// The duration as a Dispatch interval (nanoseconds).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanos = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .nanoseconds(Int(clamping: nanos))
    }
}
