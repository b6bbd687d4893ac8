#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request and its whole answer over a TCP connection to an IPv4 or IPv6 address, within one deadline (the
/// connection, each write and each read): the socket calls of ``ControlChannel``.
private let systemConnect = connect

enum LoopbackSocket {
    /// Sends `request`, reads until the peer closes, `limit` bytes or `timeoutMs` after the start, whichever
    /// comes first. nil when the address is not numeric, the connection fails or nothing could be sent.
    static func exchange(host: String, port: UInt16, request: [UInt8], timeoutMs: Int, limit: Int) -> [UInt8]? {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        let sendFlags = Int32(MSG_NOSIGNAL) // an endpoint that went away must not kill the program with SIGPIPE
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        let sendFlags: Int32 = 0
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // One deadline for the whole exchange, the connection included: an endpoint that drops SYNs (an accept queue
        // full, a stopped server) held `receive(timeoutMs: 10_000)` ~133 s in a blocking connect (R9C-8).
        let deadline = monotonicMilliseconds() + max(0, timeoutMs)
        guard connect(fd, host: host, port: port, family: family, within: min(deadline, monotonicMilliseconds() + connectLimitMs))
        else { return nil }
        var offset = 0
        while offset < request.count {
            guard setTimeout(fd, SO_SNDTIMEO, until: deadline) else { return nil }
            let sent = request[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return nil }
            offset += sent
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        // Each read waits only for what is left of the deadline: a peer that trickles bytes cannot stretch it.
        while response.count < limit, setTimeout(fd, SO_RCVTIMEO, until: deadline) {
            let count = recv(fd, &buffer, min(buffer.count, limit - response.count), 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        return response
    }

    /// True when `host` is a numeric IPv4 (`127.0.0.1`, four parts) or IPv6 (`::1`) address: the channel resolves no
    /// names (`localhost` may be ::1 first, or another machine's by /etc/hosts).
    static func isNumericAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The longest a connection may take to be accepted: on this machine it takes microseconds, or is refused at once.
    static let connectLimitMs = 5_000

    /// Connects `fd` to `host` without blocking past `deadline` (monotonic milliseconds): a non-blocking connect, then
    /// poll for its end; `fd` is blocking again after. False when the address is not numeric, the connection failed
    /// or the deadline passed first.
    private static func connect(_ fd: Int32, host: String, port: UInt16, family: Int32, within deadline: Int) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        defer { _ = fcntl(fd, F_SETFL, flags) }
        errno = 0
        if connect(fd, host: host, port: port, family: family) { return true }
        guard errno == EINPROGRESS || errno == EINTR else { return false }
        while true {
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return false }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let count = poll(&ready, 1, Int32(clamping: left))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0
        }
    }

    /// Starts connecting `fd` to an IPv4 (`127.0.0.1`) or IPv6 (`::1`, `--host ::1`) address; false (errno says why,
    /// EINPROGRESS for a non-blocking socket still connecting) when it is neither or the connection did not complete.
    private static func connect(_ fd: Int32, host: String, port: UInt16, family: Int32) -> Bool {
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return false }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            } == 0
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Sets a send or receive timeout to what is left until `deadline`; false once it has passed.
    private static func setTimeout(_ fd: Int32, _ option: Int32, until deadline: Int) -> Bool {
        let left = deadline - monotonicMilliseconds()
        guard left > 0 else { return false }
        var timeout = timeval(tv_sec: left / 1000, tv_usec: .init((left % 1000) * 1000))
        return setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
