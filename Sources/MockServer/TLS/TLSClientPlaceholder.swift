package import AutomationSupport

// TEMPORARY: replaced by the client side of TLS (branch tlsclient).
extension TLSConnection {
    package static func connect(
        _ socket: Socket, serverName: String, extraTrustPEM: [UInt8]? = nil, insecure: Bool = false, timeoutMs: Int32
    ) throws(TLSError) -> TLSConnection {
        throw .failed("not yet")
    }
}
