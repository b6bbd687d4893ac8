// The one place the package talks to the C library about TCP sockets (the mock server, its proxy and clients).
import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket descriptor with the few operations the server needs. Every socket is close-on-exec, so a
/// program under test never inherits the listening port.
package struct Socket: Sendable, Hashable {
    package let fd: Int32

    /// Wraps a descriptor this process opened (tests and fuzzing hand it one end of a socketpair).
    package init(fd: Int32) { self.fd = fd }

    /// An error from a socket call, with the call's name.
    package struct Error: Swift.Error, Sendable, CustomStringConvertible {
        package let call: String
        package let code: Int32
        package var description: String { code == 0 ? call : "\(call): \(String(cString: strerror(code)))" }
        package var isAddressInUse: Bool { code == EADDRINUSE }
        /// The code for "no thread could be started".
        package static let noThreadCode = EAGAIN

        package init(call: String, code: Int32) {
            self.call = call
            self.code = code
        }
    }

    /// Binds and listens on `host:port` (IPv4 dotted quad, or an IPv6 address); port 0 picks a free port.
    package static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(Error) -> Socket {
        let isIPv6 = host.contains(":")
        let fd = makeSocket(family: isIPv6 ? AF_INET6 : AF_INET)
        guard fd >= 0 else { throw Error(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let result = withAddress(host: host, port: port, { bind(fd, $0, $1) }) else {
            closeDescriptor(fd)
            throw Error(call: "inet_pton(\(host))", code: EINVAL)
        }
        guard result == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw Error(call: "bind", code: code)
        }
        guard systemListen(fd, backlog) == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw Error(call: "listen", code: code)
        }
        return Socket(fd: fd)
    }

    /// The port the socket is bound to (getsockname), for `--port 0`.
    package var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Self.port(of: storage)
    }

    /// Accepts one connection (blocking), close-on-exec, with TCP_NODELAY set.
    /// - Returns: the connection and the peer's address, or nil when the listening socket was closed.
    /// - Parameter outOfDescriptors: called each time accept() fails for want of descriptors (EMFILE, ENFILE);
    ///   `refusal` (when not empty) is then sent to the waiting client through ``DescriptorReserve``.
    package func accept(refusal: [UInt8] = [], outOfDescriptors: (@Sendable () -> Void)? = nil) -> (Socket, String)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptCloseOnExec(fd, $0, &length) }
            }
            if client < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    if errno == EMFILE || errno == ENFILE {
                        outOfDescriptors?()
                        if !refusal.isEmpty, DescriptorReserve.shared.shed(listener: fd, answer: refusal) { continue }
                    }
                    usleep(10_000) // out of descriptors: back off instead of spinning
                    continue
                default: return nil
                }
            }
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return (Socket(fd: client), Self.address(of: storage))
        }
    }

    /// Waits until the socket is readable or `timeoutMs` passes (-1: forever). False on timeout.
    package func waitReadable(timeoutMs: Int32) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&pfd, 1, timeoutMs)
            if result < 0 && errno == EINTR { continue }
            return result != 0
        }
    }

    /// True when the peer closed its side (FIN), reset the connection or it failed: nothing written now reaches a
    /// reader. Never waits. A peer that only shut its writing side looks gone too: the kernel cannot tell them apart.
    package var peerHasGone: Bool {
        #if canImport(Glibc)
        // POLLRDHUP (0x2000, Linux): the peer's FIN, seen even behind bytes not read yet. Swift's Glibc module is built
        // without _GNU_SOURCE and does not name it.
        let peerClosed: Int16 = 0x2000
        var pfd = pollfd(fd: fd, events: Int16(POLLIN) | peerClosed, revents: 0)
        while true {
            let result = poll(&pfd, 1, 0)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return result < 0 }
            return pfd.revents & (peerClosed | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0
        }
        #else
        var byte: UInt8 = 0
        while true {
            let result = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if result < 0 && errno == EINTR { continue }
            return result == 0 || (result < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }
        #endif
    }

    /// Reads what is available into `buffer` (appending), through `scratch`. Returns bytes read; 0 at end of
    /// stream; -1 on error. With `wait: false` it returns -2 at once when nothing is there yet.
    package func receive(into buffer: inout [UInt8], scratch: inout [UInt8], wait: Bool = true) -> Int {
        let count = scratch.withUnsafeMutableBytes { raw -> Int in
            while true {
                let result = recv(fd, raw.baseAddress!, raw.count, wait ? 0 : Int32(MSG_DONTWAIT))
                if result < 0 && errno == EINTR { continue }
                if result < 0 && !wait && (errno == EAGAIN || errno == EWOULDBLOCK) { return -2 }
                return result
            }
        }
        if count > 0 { buffer.append(contentsOf: scratch[0..<count]) }
        return count
    }

    /// Writes all bytes; false when the peer went away, or did not take them within the send timeout
    /// (``setSendTimeout(milliseconds:)``; none set: no limit). Never raises SIGPIPE. The timeout bounds the whole call,
    /// not each system call: a peer that takes a few bytes now and then cannot restart it (r10a C7: a client that never
    /// read held a thread and its connection for minutes, each partial write winning 30 s more).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var allowed = -2 // read from the socket the first time the peer is waited for
        return send(bytes, waitingAtMost: &allowed)
    }

    /// Writes all bytes, waiting for the peer to take them at most `waitMs` milliseconds in all, less what this call
    /// waited (an answer written in pieces passes the rest on); false when the peer went away or the time ran out.
    /// `waitMs` -1: no limit; -2: the socket's send timeout.
    package func send(_ bytes: [UInt8], waitingAtMost waitMs: inout Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let result = systemSend(fd, raw.baseAddress! + offset, raw.count - offset)
                if result >= 0 {
                    offset += result
                    continue
                }
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK, waitWritable(waitingAtMost: &waitMs) else { return false }
            }
            return true
        }
    }

    /// Waits until the socket takes bytes again, for at most `waitMs` (less what it waited; -1: no limit; -2: the
    /// socket's send timeout, none set: no limit). False when the time ran out.
    private func waitWritable(waitingAtMost waitMs: inout Int) -> Bool {
        if waitMs == -2 { waitMs = sendTimeoutMs ?? -1 }
        guard waitMs != 0 else { return false }
        let started = MonotonicClock.milliseconds()
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var result: Int32
        repeat { result = poll(&pfd, 1, waitMs < 0 ? -1 : Int32(clamping: waitMs)) } while result < 0 && errno == EINTR
        if waitMs > 0 { waitMs = max(0, waitMs - Int((MonotonicClock.milliseconds() - started).rounded(.up))) }
        return result > 0
    }

    /// The send timeout set on the socket (SO_SNDTIMEO), in milliseconds; nil when none is set.
    private var sendTimeoutMs: Int? {
        var value = timeval()
        var length = socklen_t(MemoryLayout<timeval>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, &length) == 0 else { return nil }
        let milliseconds = Int(value.tv_sec) * 1000 + Int(value.tv_usec) / 1000
        return milliseconds > 0 ? milliseconds : nil
    }

    /// Sets the send timeout, so a client that never reads cannot hold a thread forever: ``send(_:)`` fails once the
    /// peer has not taken its bytes for this long in all.
    package func setSendTimeout(milliseconds: Int) {
        var value = timeval(tv_sec: milliseconds / 1000, tv_usec: .init((milliseconds % 1000) * 1000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes the coming close send an RST instead of a FIN (SO_LINGER 0): the "connection reset by peer" fault.
    package func resetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Stops both directions (wakes a thread blocked on this socket) without closing the descriptor.
    package func shutdown() { _ = systemShutdown(fd) }

    package func close() { closeDescriptor(fd) }

    /// Sends a FIN (SHUT_WR) and keeps reading possible: an answer before a close is then not lost to a reset.
    package func shutdownSending() {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(fd, SHUT_WR)
        #endif
    }

    /// Calls `body` with the address of `host:port` (an IPv4 or IPv6 address) and its length; nil when `host` is
    /// not an address.
    static func withAddress(host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return nil }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    static func makeSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
        #endif
    }

    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            if Int32(storage.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// True when `text` is an IPv4 address in dotted-decimal form, as inet_pton(3) reads it.
    package static func isIPv4Address(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// True when `text` is an IPv6 address as inet_pton(3) reads it (no brackets, no zone).
    package static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    private static func address(of storage: sockaddr_storage) -> String {
        var copy = storage
        var text = [CChar](repeating: 0, count: 64)
        withUnsafePointer(to: &copy) { pointer in
            if Int32(storage.ss_family) == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// Thin wrappers where the two C libraries differ.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.listen(fd, backlog)
    #else
    Darwin.listen(fd, backlog)
    #endif
}

private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    // Never blocks: a full socket is waited for with poll(2) against the call's whole deadline (``Socket/send(_:)``).
    Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    #else
    Darwin.send(fd, pointer, count, MSG_DONTWAIT) // SO_NOSIGPIPE is set on accept
    #endif
}

private func systemShutdown(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.shutdown(fd, Int32(SHUT_RDWR))
    #else
    Darwin.shutdown(fd, SHUT_RDWR)
    #endif
}

private func closeDescriptor(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}

/// accept with the new descriptor close-on-exec from the start, so a program launched meanwhile cannot inherit it.
private func acceptCloseOnExec(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
    csystem_accept_cloexec(fd, address, length)
}
