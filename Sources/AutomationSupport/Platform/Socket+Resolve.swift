#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Socket {
    /// The IPv4 and IPv6 addresses `host` names (itself when it is an address), in the resolver's order, at most 8;
    /// throws when the name does not resolve. Used for a backend the user named (recording, proxying); the mock server
    /// itself never resolves names.
    package static func resolve(_ host: String) throws(Error) -> [String] {
        if isIPv4Address(host) || isIPv6Address(host) { return [host] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0, let first = list else {
            throw Error(call: "resolve \(host.prefix(100)): \(String(cString: gai_strerror(code)))", code: 0)
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node, addresses.count < 8 {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            if current.pointee.ai_family == AF_INET, let address = current.pointee.ai_addr {
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            } else if current.pointee.ai_family == AF_INET6, let address = current.pointee.ai_addr {
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !address.isEmpty && !addresses.contains(address) { addresses.append(address) }
            node = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw Error(call: "resolve \(host.prefix(100)): no IPv4 or IPv6 address", code: 0) }
        return addresses
    }

    /// The address a numeric `host` connects to (inet_ntop's form), for every spelling the resolver reads as a number:
    /// `127.1`, `2130706433`, `0x7f.0.0.1`, `0`, `::ffff:127.0.0.1`; nil for a name. The unspecified addresses are
    /// given as the loopback ones a connection to them reaches (`0.0.0.0` as 127.0.0.1, `::` as ::1).
    package static func numericAddress(_ host: String) -> String? {
        guard !host.isEmpty, !host.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if host.utf8.allSatisfy({ $0 > 0x20 }), inet_aton(host, &v4) != 0 { return text(of: v4) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12..<16]) }
            return text(of: v4)
        }
        if bytes.allSatisfy({ $0 == 0 }) { return "::1" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func text(of address: in_addr) -> String {
        if address.s_addr == 0 { return "127.0.0.1" }
        var raw = address
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN) + 1)
        _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
