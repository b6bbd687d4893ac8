import AutomationSupport

/// What a client that speaks TLS to a plain-HTTP port gets: a 400 that says so at once, then the connection
/// closes (the converse of ``PlainHTTPRefusal``; nginx names "The plain HTTP request was sent to HTTPS port").
/// Without it, a ClientHello waited out the 10 s header timeout and its bytes were reported as a request line.
enum TLSRecordRefusal {
    static let message = "TLS sent to a plain HTTP port: this port speaks plain HTTP; use http:// or --https"

    /// Whether `bytes` from `start` begin a TLS record: a handshake record (0x16) of TLS 1.x (0x03). A request line
    /// never starts with a control character, so one byte 0x16 is enough while the second has not come yet.
    static func begins(_ bytes: [UInt8], at start: Int) -> Bool {
        guard start < bytes.count, bytes[start] == 0x16 else { return false }
        return start + 1 == bytes.count || bytes[start + 1] == 0x03
    }

    /// The request as the journal records it: the record's first bytes only (a ClientHello is hundreds of bytes
    /// of binary that says nothing more), shown as `\xNN`.
    static func request(_ bytes: ArraySlice<UInt8>, clientAddress: String) -> HTTPRequest {
        RefusedRequest.request(Array(bytes.prefix(3)), clientAddress: clientAddress)
    }

    /// Up to 64 KiB or half a second of what the client still sends (the rest of its ClientHello, its alert), so
    /// the close that follows is not a reset that could lose the answer.
    static func drain(_ socket: some ConnectionTransport) {
        let drainEnd = Int(MonotonicClock.milliseconds()) + 500
        var drained = 0
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var discard: [UInt8] = []
        while drained < 65_536 {
            let remaining = drainEnd - Int(MonotonicClock.milliseconds())
            guard remaining > 0, socket.waitReadable(timeoutMs: Int32(clamping: remaining)) else { return }
            discard.removeAll(keepingCapacity: true)
            let count = socket.receive(into: &discard, scratch: &scratch, wait: false)
            if count == -2 { continue }
            guard count > 0 else { return }
            drained += count
        }
    }
}
