#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Socket {
    /// Connects to `host:port` (an IPv4 or IPv6 address, never a name: no DNS) within `timeoutMs`; the socket is
    /// close-on-exec and blocking once connected.
    package static func connect(host: String, port: UInt16, timeoutMs: Int32) throws(Error) -> Socket {
        let isIPv6 = host.contains(":")
        #if canImport(Glibc)
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        guard fd >= 0 else { throw Error(call: "socket", code: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) // connect within a deadline
        let connected: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return try fail(fd, "inet_pton(\(host))", EINVAL) }
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return try fail(fd, "inet_pton(\(host))", EINVAL) }
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        if connected != 0 {
            guard errno == EINPROGRESS else { return try fail(fd, "connect", errno) }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&pfd, 1, timeoutMs) == 1 else { return try fail(fd, "connect", ETIMEDOUT) }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else { return try fail(fd, "connect", code) }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return Socket(fd: fd)
    }

    private static func fail(_ fd: Int32, _ call: String, _ code: Int32) throws(Error) -> Socket {
        _ = systemClose(fd)
        throw Error(call: call, code: code)
    }
}

#if canImport(Glibc)
private let systemConnect = Glibc.connect
private let systemClose = Glibc.close
#else
private let systemConnect = Darwin.connect
private let systemClose = Darwin.close
#endif
