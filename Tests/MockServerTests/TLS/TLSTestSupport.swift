import Foundation
import Testing

@testable import MockServer

/// A stub server speaking HTTPS with a certificate minted for the test, and the authority's PEM in a file a
/// client can be pointed at (`--cacert`, `cafile=`): every client verifies, none is told to skip it.
struct TLSTestServer {
    let server: MockServer
    let port: UInt16
    let directory: URL
    var authorityFile: String { directory.appendingPathComponent("ca.pem").path }
    var url: String { "https://127.0.0.1:\(port)" }

    init(
        _ stubText: String, hosts: [String] = [], limits: ServerLimits = ServerLimits(), context: TLSServerContext? = nil,
        options: MockServer.Options = MockServer.Options()
    ) throws {
        let tls = try context ?? TLSServerContext.minted(hosts: hosts)
        var options = options
        options.tls = tls
        server = MockServer(
            stubs: try StubLoader.parse(stubText, file: "tls.json", directory: "."), host: "127.0.0.1", limits: limits, options: options)
        port = try server.start(port: 0)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data((tls.authorityPEM ?? "").utf8).write(to: directory.appendingPathComponent("ca.pem"))
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `sh -c script` with the server's URL, port and authority file in its environment.
    func shell(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try run("sh", ["-c", "URL='\(url)' PORT=\(port) CA='\(authorityFile)'; " + script])
    }
}

/// The stubs most TLS tests serve.
let tlsStubs = """
    { "routes": [
      { "method": "GET", "path": "/hello", "body": "hello over tls" },
      { "method": "POST", "path": "/upload", "status": 201, "body": "stored" },
      { "method": "GET", "path": "/big", "body": "\(String(repeating: "0123456789abcdef", count: 65_536))" }
    ] }
    """

/// True when this machine has a usable libssl (the TLS tests need one; plain HTTP tests do not).
let tlsAvailable = TLSServerContext.libraryName != nil

extension RawClient {
    /// True when the server ends the connection within `timeout` seconds (whatever it sent first: a TLS alert).
    func endsWithin(_ timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            if recv(fd, &buffer, buffer.count, 0) <= 0 { return true }
        }
        return false
    }
}
