import Foundation
import Testing

@testable import MockServer

/// A stub server on a free port for one test; stopped by `stop()` (call it in `defer`).
struct TestServer {
    let server: MockServer
    let port: UInt16
    var url: String { "http://127.0.0.1:\(port)" }

    init(_ stubText: String, file: String = "test.json", directory: String = ".", limits: ServerLimits = ServerLimits()) throws {
        let stubs = try StubLoader.parse(stubText, file: file, directory: directory)
        server = MockServer(stubs: stubs, limits: limits)
        port = try server.start(port: 0)
    }

    init(stubs: StubSet, limits: ServerLimits = ServerLimits()) throws {
        server = MockServer(stubs: stubs, limits: limits)
        port = try server.start(port: 0)
    }

    func stop() { server.stop() }
}

/// A raw TCP client: sends bytes exactly as given, reads what comes back.
struct RawClient {
    let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends all of `bytes` (stops early only when the server closed the connection).
    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    /// Reads until the peer closes, `until` appears, or `timeout` passes.
    func read(until marker: String? = nil, timeout: Double = 5) -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// True when the server closed the connection (read returns 0 or a reset) within `timeout`.
    func isClosed(timeout: Double = 3) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    func close() { Glibc.close(fd) }
}

/// Runs a command (curl, python3) and returns its exit status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// True when `name` is an executable in PATH.
func hasCommand(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}
