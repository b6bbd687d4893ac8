package import AutomationSupport

/// What a ``Connection`` reads requests from and writes answers to: a plain ``Socket``, or a ``TLSConnection``
/// that offers the same operations over an established TLS session, so the HTTP code is the same for both.
package protocol ConnectionTransport {
    /// Waits until bytes can be received or `timeoutMs` passes (-1: forever). False on timeout.
    func waitReadable(timeoutMs: Int32) -> Bool
    /// Appends what is available to `buffer` (through `scratch`). Returns the bytes appended; 0 at the end of the
    /// stream; -1 on error; -2 when nothing is there yet (always possible with `wait: false`; after a
    /// `waitReadable` that said yes, only on TLS, whose record may not be complete).
    func receive(into buffer: inout [UInt8], scratch: inout [UInt8], wait: Bool) -> Int
    /// Writes all bytes; false when the peer went away, or did not take them within the send timeout (over the whole call).
    @discardableResult func send(_ bytes: [UInt8]) -> Bool
    /// Writes all bytes, waiting for the peer at most `waitMs` in all, less what it waited (an answer written in
    /// pieces shares one allowance; -1: no limit; -2: the send timeout); false when the peer went away or time ran out.
    func send(_ bytes: [UInt8], waitingAtMost waitMs: inout Int) -> Bool
    /// Bounds the time a write may wait for a client that does not read (over each ``send(_:)`` call).
    func setSendTimeout(milliseconds: Int)
    /// Makes the coming close a reset (RST), for the `connection-reset` fault.
    func resetOnClose()
    /// The TCP socket underneath (the one a ``Peer`` watches).
    var tcpSocket: Socket { get }
}

extension ConnectionTransport {
    func receive(into buffer: inout [UInt8], scratch: inout [UInt8]) -> Int { receive(into: &buffer, scratch: &scratch, wait: true) }
}

extension Socket: ConnectionTransport {
    package var tcpSocket: Socket { self }
}
