import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// The client side of TLS (the recorder's upstream connections) against real servers: our own HTTPS server and
/// Python's `ssl` with a self-signed certificate. Every success is paired with the refusal it must not become.
@Suite(.enabled(if: tlsAvailable, "needs libssl.so.3 or libssl.so.1.1"))
struct TLSClientTests {
    @Test func ourServerIsVerifiedWithItsAuthorityAndRefusedWithoutIt() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let authority = server.authorityPEM
        let connection = try tlsConnect(port: server.port, trust: authority)
        #expect(["TLSv1.2", "TLSv1.3"].contains(connection.protocolVersion))
        let answer = connection.get("/hello")
        #expect(!connection.endedWithoutCloseNotify) // our server ends with close_notify
        connection.close()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\nhello over tls"), "\(answer)")
        let refusal = tlsRefusal(port: server.port)
        #expect(refusal == "certificate verify failed for localhost: unable to get local issuer certificate")
        // Verification by IP address: the leaf names 127.0.0.1, not 10.1.2.3.
        #expect(tlsRefusal(port: server.port, serverName: "127.0.0.1", trust: authority) == nil)
        #expect(tlsRefusal(port: server.port, serverName: "[127.0.0.1]", trust: authority) == nil)
        #expect(
            tlsRefusal(port: server.port, serverName: "10.1.2.3", trust: authority)
                == "certificate verify failed for 10.1.2.3: IP address mismatch")
    }

    @Test func aNameTheCertificateDoesNotCarryIsRefusedNamingTheMismatch() throws {
        let server = try TLSTestServer(tlsStubs, hosts: ["*.wild.test"])
        defer { server.stop() }
        let authority = server.authorityPEM
        #expect(
            tlsRefusal(port: server.port, serverName: "other.example", trust: authority)
                == "certificate verify failed for other.example: hostname mismatch")
        #expect(tlsRefusal(port: server.port, serverName: "LOCALHOST.", trust: authority) == nil)
        #expect(tlsRefusal(port: server.port, serverName: "a.wild.test", trust: authority) == nil)
        // A wildcard covers one label, never two nor the bare name.
        #expect(tlsRefusal(port: server.port, serverName: "a.b.wild.test", trust: authority)?.hasSuffix("hostname mismatch") == true)
        #expect(tlsRefusal(port: server.port, serverName: "wild.test", trust: authority)?.hasSuffix("hostname mismatch") == true)
        // insecure skips the check, and only then.
        #expect(tlsRefusal(port: server.port, serverName: "other.example", insecure: true) == nil)
    }

    @Test func namesThatAreNotHostNamesAreRefusedBeforeAnyByteIsSent() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let authority = server.authorityPEM
        for name in [
            "", "localhost\0.evil.example", "127.0.0.1\0", "a b", "a\r\nb", "../x", ".localhost", "a..b", "bücher.example",
            String(repeating: "a", count: 254),
        ] {
            let refusal = tlsRefusal(port: server.port, serverName: name, trust: authority)
            #expect(refusal?.contains("is not a host name") == true, "\(name.debugDescription): \(refusal ?? "accepted")")
            #expect(refusal?.contains("\n") == false && refusal?.contains("\0") == false)
        }
        #expect(server.server.journal.count == 0)
    }

    @Test func anExtraTrustThatIsNotWhollyReadableIsRefusedByName() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let authority = server.authorityPEM
        #expect(tlsRefusal(port: server.port, trust: "") == "the extra trust holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        let broken = "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"
        #expect(
            tlsRefusal(port: server.port, trust: authority + broken)
                == "the extra trust holds 2 PEM certificates, of which only the first 1 could be read")
        // Text around the certificates (a bundle's comments) is fine.
        #expect(tlsRefusal(port: server.port, trust: "# our CA\n" + authority + "\n# end\n") == nil)
    }

    @Test func theClientContextIsMadeOncePerTrustSoTheSystemBundleIsReadOnce() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let authority = server.authorityPEM
        let start = MonotonicClock.milliseconds()
        let first = try TLSClientContext.shared(trustPEM: Array(authority.utf8), insecure: false)
        let built = MonotonicClock.milliseconds()
        for _ in 0..<20 { try tlsConnect(port: server.port, trust: authority).close() }
        let connected = MonotonicClock.milliseconds()
        let again = try TLSClientContext.shared(trustPEM: Array(authority.utf8), insecure: false)
        #expect(first === again)
        #expect(first !== (try TLSClientContext.shared(trustPEM: nil, insecure: false)))
        print("client context with the system bundle: \(built - start) ms; a connect with it cached: \(Double(connected - built) / 20) ms")
    }

    @Test func eightThreadsConnectAtOnceEachGettingItsOwnAnswer() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let authority = server.authorityPEM
        let answers = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for _ in 0..<5 {
                    do {
                        let connection = try tlsConnect(port: server.port, trust: authority)
                        let answer = connection.get("/hello")
                        connection.close()
                        answers.withLock { $0.append(answer) }
                    } catch {
                        answers.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(answers.current.count == 40)
        #expect(answers.current.allSatisfy { $0.hasSuffix("hello over tls") }, "\(Set(answers.current))")
    }

    @Test(.enabled(if: PythonTLSServer.available, "needs python3 and openssl"))
    func aSelfSignedPythonServerIsRefusedUnlessTrustedOrInsecureAndGetsSNI() throws {
        let server = try PythonTLSServer()
        defer { server.stop() }
        let refusal = tlsRefusal(port: server.port)
        #expect(refusal?.hasPrefix("certificate verify failed for localhost: self") == true, "\(refusal ?? "accepted")")
        #expect(refusal?.hasSuffix("signed certificate") == true, "\(refusal ?? "accepted")")
        let insecure = try tlsConnect(port: server.port, insecure: true)
        #expect(insecure.get("/").hasSuffix("sni=localhost"))
        #expect(insecure.endedWithoutCloseNotify) // Python's close() sends no close_notify: a truncation is seen
        insecure.close()
        let trusted = try tlsConnect(port: server.port, trust: server.certificatePEM)
        #expect(trusted.get("/").hasSuffix("sni=localhost"))
        trusted.close()
        // No SNI for an address (RFC 6066 §3), yet the address is verified.
        let byAddress = try tlsConnect(port: server.port, serverName: "127.0.0.1", trust: server.certificatePEM)
        #expect(byAddress.get("/").hasSuffix("sni=None"))
        byAddress.close()
        #expect(
            tlsRefusal(port: server.port, serverName: "other.example", trust: server.certificatePEM)
                == "certificate verify failed for other.example: hostname mismatch")
    }

    @Test(
        .enabled(
            if: PythonTLSServer.servesTLS10, "this machine's Python cannot serve TLS 1.0 (its OpenSSL refuses it at any security level)"))
    func aServerSpeakingOnlyTLS10IsRefused() throws {
        let server = try PythonTLSServer(mode: "tls10")
        defer { server.stop() }
        let refusal = tlsRefusal(port: server.port, insecure: true)
        #expect(refusal?.hasPrefix("TLS handshake with localhost failed: ") == true, "\(refusal ?? "accepted")")
        #expect(refusal?.contains("protocol version") == true || refusal?.contains("unsupported protocol") == true, "\(refusal ?? "")")
    }
}
