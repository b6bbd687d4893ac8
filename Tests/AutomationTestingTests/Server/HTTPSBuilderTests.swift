import Foundation
import ProcessEngine
import Testing

@testable import AutomationTesting

/// `MockServerBuilder().https()`: the server speaks TLS and a program `SUTApplication` launches with it trusts it
/// through its environment, as `sut-launch --https` does (the same `TrustFiles` code), with its own client and no
/// verification turned off.
@Suite(.automationScope) struct HTTPSBuilderTests {
    private func server() throws -> MockServer {
        try MockServerBuilder().https().route("GET /message") { _, _ in .ok(text: "hello over tls") }.start()
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func curlLaunchedWithAnHTTPSServerTrustsItAndTheTrustFilesGoAtTheEnd() async throws {
        let server = try server()
        #expect(server.url.hasPrefix("https://127.0.0.1:"))
        #expect(server.certificateAuthorityPEM?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(
            arguments: [
                "-c", #"curl -sS --fail "$SUT_MOCK_SERVER_URL/message" && echo && echo "files=$SSL_CERT_FILE $SUT_MOCK_SERVER_CA""#,
            ],
            server: server)
        #expect(try await app.waitForExit(timeout: .seconds(20)) == .exited(0), "\(app.lastLines())")
        let output = app.output()
        #expect(output.hasPrefix("hello over tls\n"), "\(output)")
        #expect(server.requests(to: "GET /message").count == 1)
        let files = try #require(output.split(separator: "\n").first { $0.hasPrefix("files=") }).dropFirst(6).split(separator: " ")
        #expect(files.count == 2)
        // The bundle holds our authority, the authority file is ours alone.
        let authority = try String(contentsOfFile: String(files[1]), encoding: .utf8)
        #expect(authority == server.certificateAuthorityPEM)
        app.terminate()
        for file in files { #expect(!FileManager.default.fileExists(atPath: String(file)), "\(file) outlived the program") }
    }

    @Test(.enabled(if: hasCommand("python3"), "needs python3"))
    func pythonsUrllibTrustsItAndARelaunchGetsFreshFiles() async throws {
        let server = try server()
        let app = SUTApplication(executable: "python3")
        let script =
            #"import os, urllib.request; print(urllib.request.urlopen(os.environ["SUT_MOCK_SERVER_URL"] + "/message", timeout=10).read().decode()); print(os.environ["SSL_CERT_FILE"])"#
        try app.launch(arguments: ["-c", script], server: server)
        #expect(try await app.waitForExit(timeout: .seconds(20)) == .exited(0), "\(app.lastLines())")
        let first = app.output().split(separator: "\n").map(String.init)
        #expect(first.first == "hello over tls", "\(first)")
        try app.launch(arguments: ["-c", script], server: server)
        #expect(try await app.waitForExit(timeout: .seconds(20)) == .exited(0), "\(app.lastLines())")
        let second = app.output().split(separator: "\n").map(String.init)
        #expect(second.first == "hello over tls")
        // The first launch's files went when the second launched; the second's go at teardown.
        #expect(first.last != second.last)
        #expect(!FileManager.default.fileExists(atPath: first.last ?? ""))
        #expect(FileManager.default.fileExists(atPath: second.last ?? ""))
        app.terminate()
        #expect(!FileManager.default.fileExists(atPath: second.last ?? ""))
    }

    /// What a Swift program using URLSession gets on Linux: FoundationNetworking hands libcurl its own CA bundle
    /// path and reads no variable (`URLSessionCertificateAuthorityInfoFile` is honoured on Android only, and a
    /// delegate's server-trust challenge is unsupported), so the injected trust does not reach it. It must fail
    /// closed, never reach the server unverified: this test holds that, and tells when a toolchain changes it.
    @Test func urlSessionOnLinuxRefusesTheMintedAuthorityItCannotBeToldToTrust() async throws {
        // Lenient: the refused handshake is an unexpected request, which a strict server's test would fail on.
        let server = try MockServerBuilder().https().lenient().route("GET /message") { _, _ in .ok(text: "hello over tls") }.start()
        let app = SUTApplication(executable: myAppCLI)
        try app.launch(arguments: ["fetch"], server: server)
        _ = try await app.waitForExit(timeout: .seconds(20))
        #if os(Linux)
        #expect(app.output().contains("SSL certificate problem"), "\(app.lastLines())")
        #expect(server.requests.allSatisfy { $0.method == "TLS" }, "URLSession reached the server without trusting its authority")
        // The refused handshake is counted, with why: a strict run fails on it instead of passing on silence.
        #expect(
            server.summary.unexpected.first?.nearMiss.contains("the client refused the certificate") == true, "\(server.summary.unexpected)"
        )
        #endif
    }

    /// `intercept(_:)`: a program with its host written in it reaches the server through the proxy it is given, and
    /// a host not listed is refused and unexpected (the strict builder's test would fail on it).
    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aProgramWithAHardCodedHostReachesAnInterceptingServerThroughItsProxy() async throws {
        let server = try MockServerBuilder().intercept("api.example.com").lenient()
            .route("GET /message") { request, _ in .ok(text: "hello \(request.host) over \(request.scheme)") }.start()
        #expect(server.url.hasPrefix("http://127.0.0.1:"))
        #expect(server.proxyURLForInterception?.hasPrefix("http://127.0.0.1:") == true)
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(
            arguments: [
                "-c", #"curl -sS --fail https://api.example.com/message; echo; curl -sS https://example.net/ 2>/dev/null; echo "rc=$?""#,
            ],
            server: server)
        #expect(try await app.waitForExit(timeout: .seconds(20)) == .exited(0), "\(app.lastLines())")
        #expect(app.output() == "hello api.example.com over https\nrc=56\n", "\(app.output())")
        #expect(server.summary.unexpected.map { "\($0.method) \($0.url)" } == ["CONNECT example.net:443"])
    }

    @Test func aHostThatIsNotANameIsRefusedWhenTheServerStarts() throws {
        #expect(throws: (any Error).self) { try MockServerBuilder().intercept("https://api.example.com").start() }
        #expect(throws: (any Error).self) { try MockServerBuilder().https(hosts: ["a b"]).start() }
        #expect(throws: (any Error).self) { try MockServerBuilder().https(hosts: ["x\nDNS:evil.test"]).start() }
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aPlainServerInjectsNoTrust() async throws {
        let server = try MockServerBuilder().route("GET /message") { _, _ in .ok(text: "plain") }.start()
        #expect(server.certificateAuthorityPEM == nil)
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(
            arguments: ["-c", #"echo "ca=${SUT_MOCK_SERVER_CA:-none}"; curl -sS "$SUT_MOCK_SERVER_URL/message""#], server: server)
        #expect(try await app.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(app.output() == "ca=none\nplain")
    }
}

private func hasCommand(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}
