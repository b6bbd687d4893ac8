import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// A TCP server on 127.0.0.1 that answers each connection with `serve` on a thread of its own, then closes it: the
/// hostile backends of the client's tests (silent, garbage, a close halfway). `serve` never closes the socket
/// itself (a descriptor closed twice may be another test's by then); `stop()` wakes every thread still serving.
final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Socket
    private let open = Locked<[Socket]>([])

    init(_ serve: @escaping @Sendable (Socket) -> Void) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        let listener = listener
        let open = open
        Thread.detachNewThread {
            while let (client, _) = listener.accept() {
                open.withLock { $0.append(client) }
                Thread.detachNewThread {
                    serve(client)
                    open.withLock { sockets in
                        sockets.removeAll { $0 == client }
                        client.close() // under the lock: stop() never shuts down a descriptor closed here
                    }
                }
            }
            listener.close()
        }
    }

    func stop() {
        listener.shutdown()
        open.withLock { sockets in for socket in sockets { socket.shutdown() } }
    }

    /// Reads what the client sends for up to `milliseconds` (its ClientHello).
    static func read(_ socket: Socket, milliseconds: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16_384)
        while socket.waitReadable(timeoutMs: milliseconds), socket.receive(into: &bytes, scratch: &scratch, wait: false) > 0 {
            if bytes.count > 5 && bytes.count >= 5 + (Int(bytes[3]) << 8 | Int(bytes[4])) { break } // one whole record
        }
        return bytes
    }
}

extension TLSTestServer {
    /// The authority a client trusts, PEM.
    var authorityPEM: String { (try? String(contentsOfFile: authorityFile, encoding: .utf8)) ?? "" }
}

/// Connects to 127.0.0.1:`port` and runs the client handshake.
func tlsConnect(
    port: UInt16, serverName: String = "localhost", trust: String? = nil, insecure: Bool = false, timeoutMs: Int32 = 10_000
) throws -> TLSConnection {
    let socket = try Socket.connect(host: "127.0.0.1", port: port, timeoutMs: 5_000)
    do {
        return try TLSConnection.connect(
            socket, serverName: serverName, extraTrustPEM: trust.map { Array($0.utf8) }, insecure: insecure, timeoutMs: timeoutMs)
    } catch {
        socket.close()
        throw error
    }
}

/// The one line a failed connect threw, or nil when it succeeded.
func tlsRefusal(port: UInt16, serverName: String = "localhost", trust: String? = nil, insecure: Bool = false, timeoutMs: Int32 = 10_000)
    -> String?
{
    do {
        try tlsConnect(port: port, serverName: serverName, trust: trust, insecure: insecure, timeoutMs: timeoutMs).close()
        return nil
    } catch {
        return "\(error)"
    }
}

extension TLSConnection {
    /// Sends a GET and reads the answer until the server closes (the test servers answer `Connection: close`).
    func get(_ path: String, host: String = "localhost") -> String {
        guard send(Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)) else { return "(send failed)" }
        var answer: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16_384)
        while waitReadable(timeoutMs: 10_000) {
            let count = receive(into: &answer, scratch: &scratch, wait: false)
            if count == -2 { continue }
            if count <= 0 { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }
}

/// Python's `ssl` as the backend: a self-signed certificate made by `openssl req`, a server answering each
/// request with the SNI it was sent (`sni=NAME`, `sni=None` without), TLS versions chosen by `mode`.
final class PythonTLSServer {
    let port: UInt16
    let certificatePEM: String
    private let process: Process
    private let directory: URL

    static let available = hasCommand("python3") && hasCommand("openssl")

    static let script = """
        import socket, ssl, sys, threading
        certificate, key, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        if mode == "tls10":
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.minimum_version = ssl.TLSVersion.TLSv1
            context.maximum_version = ssl.TLSVersion.TLSv1
        names = {}
        def remember(connection, name, _):
            names[id(connection)] = name
        context.sni_callback = remember
        listener = socket.create_server(("127.0.0.1", 0))
        print(listener.getsockname()[1], flush=True)
        def serve(raw):
            try:
                with context.wrap_socket(raw, server_side=True) as tls:
                    tls.recv(65536)
                    body = ("sni=%s" % names.get(id(tls), None)).encode()
                    tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n" % len(body) + body)
            except Exception as error:
                print("handshake:", error, file=sys.stderr, flush=True)
        while True:
            raw, _ = listener.accept()
            threading.Thread(target=serve, args=(raw,), daemon=True).start()
        """

    /// True when this machine's Python can serve TLS 1.0 at all (its OpenSSL may refuse it at any security level).
    static let servesTLS10: Bool = {
        let probe = """
            import socket, ssl, threading
            def make(side):
                context = ssl.SSLContext(side)
                context.set_ciphers("DEFAULT:@SECLEVEL=0")
                context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1
                return context
            a, b = socket.socketpair()
            a.settimeout(10)
            b.settimeout(10)
            server = make(ssl.PROTOCOL_TLS_SERVER)
            server.load_cert_chain(__import__("sys").argv[1], __import__("sys").argv[2])
            client = make(ssl.PROTOCOL_TLS_CLIENT)
            client.check_hostname = False
            client.verify_mode = ssl.CERT_NONE
            def accept():
                try:
                    server.wrap_socket(a, server_side=True)
                except Exception:
                    a.close()  # the client's handshake then ends at once, never waits
            threading.Thread(target=accept, daemon=True).start()
            print(client.wrap_socket(b).version())
            """
        guard available, let files = try? makeSelfSigned() else { return false }
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let result = try? run("python3", ["-c", probe, files.certificate.path, files.key.path])
        return result?.stdout == "TLSv1\n"
    }()

    init(mode: String = "modern") throws {
        let files = try Self.makeSelfSigned()
        directory = files.directory
        certificatePEM = try String(contentsOf: files.certificate, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, files.certificate.path, files.key.path, mode]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while line.last != 0x0A {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        guard let port = UInt16(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: files.directory)
            throw POSIXError(.EIO)
        }
        self.port = port
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL) // SIGTERM may be ignored by the test runner, and so by its children
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A self-signed certificate for localhost and 127.0.0.1 (CA:TRUE, as `openssl req -x509` makes it) and its key.
    static func makeSelfSigned() throws -> (directory: URL, certificate: URL, key: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-tls-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        let result = try run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.path, "-out",
                certificate.path, "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "2",
            ])
        guard result.status == 0 else { throw POSIXError(.EIO) }
        return (directory, certificate, key)
    }
}
