import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP client with a small receive buffer that reads only when told: a client that sends a request and never (or
/// partly) reads its answer. Closed by `close()`.
struct SlowClient {
    let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096 // before connect, so the window stays small
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the server closes the connection or `timeout` (seconds) passes: the bytes, and whether it closed.
    func readToEnd(timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received += buffer[0..<count]
        }
        return (received, false)
    }

    /// Reads until `marker` has arrived (at most `timeout` seconds), then no more.
    func read(until marker: String, timeout: Double = 10) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !String(decoding: received.suffix(marker.utf8.count), as: UTF8.self).hasSuffix(marker) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            guard recv(fd, &byte, 1, 0) == 1 else { break }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() { Glibc.close(fd) }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout` seconds; its last value.
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(20_000)
    }
    return true
}
