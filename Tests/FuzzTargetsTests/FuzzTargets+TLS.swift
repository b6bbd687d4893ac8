import AutomationSupport
import MockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The TLS record layer, as the HTTPS mock server meets it: a client's bytes (a ClientHello, records of any type,
// length and version, fragments, alerts, plain HTTP, garbage) reach `TLSConnection.accept`, which hands them to
// OpenSSL through its memory BIOs and sends OpenSSL's answers back, exactly as HTTPServer does for a connection on
// an `--https` port; a handshake that completes is served HTTP. Each input must end within 5 s (a hang is a
// failure, as libFuzzer's -timeout makes it); the server end is closed every time.
extension FuzzTargets {
    static func serveTLS(_ bytes: [UInt8]) {
        guard let context = tlsContext else { return } // no libssl: nothing of ours to reach (the TLS suites fail then)
        let started = MonotonicClock.milliseconds()
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, tlsSocketStream, 0, &pair) == 0 else { return }
        // Input is at most a few KiB (fuzz.sh's -max_len): it fits the socket buffer, so it is all sent first.
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
            if sent <= 0 { break }
            offset += sent
        }
        shutdown(pair[1], Int32(SHUT_WR))
        let client = pair[1]
        // The client reads the server's flight and alerts on its own thread, so no write of the server blocks.
        let reader = JoinableThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(client, &buffer, buffer.count) > 0 {}
        }
        let socket = Socket(fd: pair[0])
        if case .established(let session) = TLSConnection.accept(socket, context: context, limits: tlsLimits) {
            Connection(
                socket: session, clientAddress: "fuzz", limits: tlsLimits,
                handler: { _ in MockResponse(status: 200, body: Array("ok".utf8)) }, isStopped: { false }
            ).serve()
            session.finish()
        }
        close(pair[0])
        reader.join()
        close(pair[1])
        let elapsed = MonotonicClock.milliseconds() - started
        precondition(elapsed < 5_000, "a TLS input of \(bytes.count) bytes took \(Int(elapsed)) ms")
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

    #if canImport(Glibc)
    private static let tlsSocketStream = Int32(SOCK_STREAM.rawValue)
    #else
    private static let tlsSocketStream = SOCK_STREAM
    #endif
}
