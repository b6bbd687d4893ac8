import Foundation
import Testing

@testable import MockServer

/// HTTPS with real clients (curl, Python's ssl, openssl s_client), each verifying the minted certificate.
@Suite(.enabled(if: tlsAvailable, "needs libssl.so.3 or libssl.so.1.1"))
struct TLSServerTests {
    @Test func mintingACertificateAuthorityAndLeafTakesMilliseconds() throws {
        _ = try TLSServerContext.minted() // the library's first load is not minting
        let start = Date()
        for _ in 0..<10 { _ = try TLSServerContext.minted(hosts: ["api.test"]) }
        let eachMs = Date().timeIntervalSince(start) * 100
        print("minting a CA and a leaf (EC P-256) and a server context: \(String(format: "%.2f", eachMs)) ms each")
        #expect(eachMs < 100)
    }

    @Test(.enabled(if: hasCommand("curl"))) func curlVerifiesTheMintedCertificateOverTLS12And13WithKeepAlive() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        for version in ["--tlsv1.2 --tls-max 1.2", "--tlsv1.3"] {
            let result = try server.shell(
                #"curl -sS --cacert "$CA" "# + version + #" -w ' %{ssl_verify_result} %{num_connects}' "$URL/hello" "$URL/hello""#)
            #expect(result.status == 0, "\(result.stderr)")
            // Both requests on one connection (keep-alive): the second reports no new connect.
            #expect(result.stdout == "hello over tls 0 1hello over tls 0 0", "\(version)")
        }
        let byName = try server.shell(#"curl -sS --cacert "$CA" "https://localhost:$PORT/hello""#)
        #expect(byName.stdout == "hello over tls", "\(byName.stderr)")
        #expect(server.server.journal.count == 5)
    }

    @Test(.enabled(if: hasCommand("curl"))) func largeAnswersAndUploadsCrossTheTLSLayerWhole() throws {
        let server = try TLSTestServer(tlsStubs)
        defer { server.stop() }
        let big = try server.shell(#"curl -sS --cacert "$CA" "$URL/big" | wc -c"#)
        #expect(big.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1048576", "\(big.stderr)")
        let upload = try server.shell(
            #"head -c 3000000 /dev/zero | curl -sS --cacert "$CA" --data-binary @- -H 'Content-Type: application/octet-stream' "$URL/upload""#
        )
        #expect(upload.stdout == "stored", "\(upload.stderr)")
        let chunked = try server.shell(
            #"head -c 200000 /dev/zero | curl -sS --cacert "$CA" -H 'Transfer-Encoding: chunked' --data-binary @- "$URL/upload""#)
        #expect(chunked.stdout == "stored", "\(chunked.stderr)")
    }

    @Test(.enabled(if: hasCommand("python3"))) func pythonVerifiesItStrictly() throws {
        let server = try TLSTestServer(tlsStubs, hosts: ["api.test"])
        defer { server.stop() }
        // VERIFY_X509_STRICT is Python 3.13's default: key usage, key identifiers and basic constraints must be right.
        let script = """
            import ssl, sys, urllib.request
            context = ssl.create_default_context(cafile=sys.argv[2])
            context.verify_flags |= ssl.VERIFY_X509_STRICT
            with urllib.request.urlopen(sys.argv[1] + "/hello", context=context, timeout=10) as answer:
                print(answer.read().decode(), answer.status)
            """
        let result = try run("python3", ["-c", script, server.url, server.authorityFile])
        #expect(result.stdout == "hello over tls 200\n", "\(result.stderr)")
    }

    @Test(.enabled(if: hasCommand("openssl"))) func opensslSeesTLS12And13AndTheNamesAndRefusesOtherNames() throws {
        let server = try TLSTestServer(tlsStubs, hosts: ["api.test", "*.wild.test", "10.1.2.3"])
        defer { server.stop() }
        for (flag, name) in [("-tls1_2", "TLSv1.2"), ("-tls1_3", "TLSv1.3")] {
            let result = try server.shell(
                "openssl s_client -connect 127.0.0.1:$PORT \(flag) -CAfile \"$CA\" -verify_return_error -verify_hostname api.test </dev/null 2>&1"
            )
            #expect(result.stdout.contains("Protocol  : \(name)") || result.stdout.contains(", \(name),"), "\(result.stdout)")
            #expect(result.stdout.contains("Verify return code: 0 (ok)"), "\(result.stdout)")
        }
        let wrongName = try server.shell(
            "openssl s_client -connect 127.0.0.1:$PORT -CAfile \"$CA\" -verify_return_error -verify_hostname other.test </dev/null 2>&1")
        #expect(wrongName.stdout.contains("Verify return code: 62"), "\(wrongName.stdout)")
        let leaf = try server.shell(
            "openssl s_client -connect 127.0.0.1:$PORT -CAfile \"$CA\" </dev/null 2>/dev/null | openssl x509 -noout -text")
        for expected in [
            "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.test, DNS:*.wild.test, IP Address:10.1.2.3",
            "TLS Web Server Authentication", "CA:FALSE", "ASN1 OID: prime256v1", "ecdsa-with-SHA256",
        ] {
            #expect(leaf.stdout.contains(expected), "\(expected) in \(leaf.stdout)")
        }
        let authority = try server.shell("openssl x509 -in \"$CA\" -noout -text")
        #expect(authority.stdout.contains("CA:TRUE") && authority.stdout.contains("Certificate Sign"), "\(authority.stdout)")
    }

    @Test(.enabled(if: hasCommand("openssl") && hasCommand("curl"))) func theUsersOwnCertificateAndKeyAreServedAndBadOnesRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-tls-own-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try run(
            "sh",
            [
                "-c",
                """
                cd '\(directory.path)' && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 1 \
                  -subj /CN=own.test -addext subjectAltName=DNS:own.test,IP:127.0.0.1 2>/dev/null && \
                openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out other.pem 2>/dev/null && \
                openssl pkey -in key.pem -aes256 -passout pass:secret -out encrypted.pem
                """,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }
        let context = try TLSServerContext.loaded(certificatePEM: try file("cert.pem"), keyPEM: try file("key.pem"))
        #expect(context.authorityPEM == nil)
        let server = try TLSTestServer(tlsStubs, context: context)
        defer { server.stop() }
        let result = try run("curl", ["-sS", "--cacert", directory.appendingPathComponent("cert.pem").path, server.url + "/hello"])
        #expect(result.stdout == "hello over tls", "\(result.stderr)")

        for (key, reason) in [
            ("other.pem", "does not belong"), ("encrypted.pem", "encrypted"), ("cert.pem", "no unencrypted PEM private key"),
        ] {
            #expect {
                _ = try TLSServerContext.loaded(certificatePEM: try file("cert.pem"), keyPEM: try file(key))
            } throws: { "\($0)".contains(reason) }
        }
        #expect { _ = try TLSServerContext.loaded(certificatePEM: try file("key.pem"), keyPEM: try file("key.pem")) } throws: {
            "\($0)".contains("no PEM certificate")
        }
    }

    @Test func withoutLibsslTheErrorIsOneLineNamingThePackageToInstall() {
        // The message a machine without libssl.so.3 and .so.1.1 prints (not simulated by hiding the library:
        // no honest switch does that; the loading itself is what every other test here runs).
        let message = "\(TLSError.unavailable("no libssl.so.3 or libssl.so.1.1 found"))"
        #expect(!message.contains("\n"))
        #expect(message.contains("install the libssl3 package") && message.contains("plain HTTP works without it"), "\(message)")
        #expect(TLSServerContext.libraryName == "libssl.so.3" || TLSServerContext.libraryName == "libssl.so.1.1")
    }

    @Test func hostNamesThatCouldInjectAnotherNameAreRefused() {
        for good in ["api.test", "*.api.test", "10.0.0.1", "::1", "fe80::1", "a-b.c1"] {
            #expect(CertificateAuthority.hostProblem(good) == nil, "\(good)")
        }
        for bad in [
            "", "a,IP:1.2.3.4", "evil\n.test", "a b", "-a.test", "a..test", "*", "a.*.test", "x@y", String(repeating: "a", count: 254),
        ] {
            #expect(CertificateAuthority.hostProblem(bad) != nil, "\(bad)")
        }
        #expect(throws: TLSError.self) { _ = try TLSServerContext.minted(hosts: ["a,DNS:evil.test"]) }
    }
}
