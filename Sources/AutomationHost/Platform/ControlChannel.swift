#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages from the test to the running program (the pasteboard idea), over the mock server's
/// `/__sut/control` long-poll endpoint.
///
/// ```swift
/// let channel = ControlChannel(AutomationBridge.shared)
/// while let message = channel?.next(timeoutMs: 10_000) { handle(message) }
/// ```
public struct ControlChannel: Sendable {
    public let host: String
    public let port: UInt16

    /// The channel of the bridge's mock server; nil when no mock server runs.
    public init?(_ bridge: AutomationBridge) {
        guard let url = bridge.mockServerURL, let host = url.host, let port = url.port, let value = UInt16(exactly: port) else { return nil }
        self.host = host
        self.port = value
    }

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Waits up to `timeoutMs` for the next message. nil when none came or the server cannot be reached.
    public func next(timeoutMs: Int = 25_000) -> String? {
        guard let (status, body) = get("/__sut/control?timeoutMs=\(timeoutMs)", timeoutMs: timeoutMs + 5_000), status == 200 else {
            return nil
        }
        return body
    }

    /// A minimal blocking HTTP/1.1 GET on IPv4 (the Host library keeps to FoundationEssentials: no URLSession).
    private func get(_ target: String, timeoutMs: Int) -> (Int, String)? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let sendFlags = Int32(MSG_NOSIGNAL) // a server that went away must not kill the program with SIGPIPE
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        let sendFlags: Int32 = 0
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: .init((timeoutMs % 1000) * 1000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, sendFlags) }) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let headEnd = text.firstRange(of: "\r\n\r\n"), let status = Int(text.dropFirst(9).prefix(3)) else { return nil }
        return (status, String(text[headEnd.upperBound...]))
    }
}
