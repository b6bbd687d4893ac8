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
        let fd = makeSocket(family: isIPv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else { throw Error(call: "socket", code: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) // connect within a deadline
        guard let connected = withAddress(host: host, port: port, { systemConnect(fd, $0, $1) }) else {
            return try fail(fd, "inet_pton(\(host))", EINVAL)
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
