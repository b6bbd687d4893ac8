/// The test's side of the control channel: messages for the program under test and its acknowledgements.
extension MockServer {
    /// The program's control endpoint, `SUT_CONTROL_URL`: this server's host and port in plain HTTP (the Host library
    /// speaks no TLS; under HTTPS the same port answers the control channel in plain HTTP to local peers), with this
    /// server's channel (`?channel=`), so a program left from an earlier run on a reused port takes nothing here.
    package var controlURL: String {
        let base = baseURL.hasPrefix("https://") ? "http://" + baseURL.dropFirst("https://".count) : baseURL
        return base + "/__sut/control?channel=" + parts.control.channel
    }

    /// Queues a message for the program under test; it receives it from `GET /__sut/control` (long poll).
    /// - Returns: the message's id (for ``waitForControlAcknowledgement(of:timeout:)``), or nil when it was not
    ///   queued: over 1 MiB, or 10,000 messages (64 MiB) already wait unread.
    public func sendControlMessage(_ message: String) -> Int? { try? parts.control.enqueue(message).get() }

    /// Queues a message for the program under test: its id, or why it was not queued.
    package func enqueueControlMessage(_ message: String) -> Result<Int, ControlQueueError> { parts.control.enqueue(message) }

    /// Waits until the program took message `id` from `GET /__sut/control`, at most `timeout`; false when it did not.
    package func waitForControlDelivery(of id: Int, timeout: Duration) -> Bool {
        parts.control.waitForDelivery(id, timeoutMs: Self.waitMilliseconds(timeout))
    }

    /// Ends the control channel's waits: a `POST /__sut/control?waitForAckMs=N` still waiting is answered 503 (the run
    /// ended before the program acknowledged), never left to a closed connection.
    package func endControlChannel() { parts.control.endRun() }

    /// Withdraws message `id` (its sender gave up): still queued, it is never delivered; a late acknowledgement is refused.
    package func withdrawControlMessage(_ id: Int) { parts.control.withdraw(id) }

    /// Waits until the program acknowledges message `id` (`ControlChannel.acknowledge`), at most `timeout`.
    /// - Returns: the program's reply ("" when it gave none), or nil when no acknowledgement came in time.
    public func waitForControlAcknowledgement(of id: Int, timeout: Duration) -> String? {
        parts.control.waitForAcknowledgement(id, timeoutMs: Self.waitMilliseconds(timeout))
    }

    /// A wait in milliseconds, 0 to one hour (a negative or huge Duration cannot overflow the arithmetic).
    private static func waitMilliseconds(_ timeout: Duration) -> Int {
        let (seconds, attoseconds) = timeout.components
        guard seconds >= 0 else { return 0 }
        guard seconds < 3_600 else { return 3_600_000 }
        return min(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000), 3_600_000)
    }
}
