import AutomationSupport
import MockServer

// The TLS record layer, as the HTTPS mock server meets it: a client's bytes (a ClientHello, records of any type,
// length and version, fragments, alerts, plain HTTP, garbage) reach `TLSConnection.accept`, which hands them to
// OpenSSL through its memory BIOs and sends OpenSSL's answers back, exactly as HTTPServer does for a connection on
// an `--https` port; a handshake that completes is served HTTP. Each input must end within 5 s (a hang is a
// failure, as libFuzzer's -timeout makes it); the server end is closed every time.
extension FuzzTargets {
    static func serveTLS(_ bytes: [UInt8]) {
        guard let context = tlsContext else { return } // no libssl: nothing of ours to reach (the TLS suites fail then)
        let started = MonotonicClock.milliseconds()
        withClient(sending: bytes) { socket in
            guard case .established(let session) = TLSConnection.accept(socket, context: context, limits: tlsLimits) else { return }
            Connection(
                socket: session, clientAddress: "fuzz", limits: tlsLimits,
                handler: { _ in MockResponse(status: 200, body: Array("ok".utf8)) }, isStopped: { false }
            ).serve()
            session.finish()
        }
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 5_000, "a TLS input of \(bytes.count) bytes took \(Int(elapsed)) ms")
    }

    /// One context minted once (as a run mints one): the fuzzer measures the record layer, not key generation.
    private static let tlsContext: TLSServerContext? = try? TLSServerContext.minted()

    /// Short timeouts: the client never sends more than its input, so waiting long only slows the fuzzer.
    private static let tlsLimits: ServerLimits = {
        var limits = ServerLimits()
        limits.headerTimeoutMs = 20
        limits.bodyTimeoutMs = 20
        limits.idleTimeoutMs = 20
        limits.sendTimeoutMs = 200
        limits.maxBodyBytes = 64 * 1024
        return limits
    }()
}
