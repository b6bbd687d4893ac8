import Foundation
import Testing

/// `--https` as a user runs it: the program under test reaches the mock server over TLS with its own client and
/// no flag of its own (the trust is in its environment), and nothing of the run's authority outlives it.
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it, and libssl3)"))
struct HTTPSEndToEndTests {
    static let routes = #"{ "routes": [ { "method": "GET", "path": "/hello", "body": "hello over https" } ] }"#

    @Test func curlAsTheProgramTrustsTheServerThroughItsEnvironmentAndTheFilesGoAtTheEnd() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let journal = directory.appendingPathComponent("journal.json").path
        let script = """
            curl -sS --fail "$SUT_MOCK_SERVER_URL/hello" && echo
            echo "url=$SUT_MOCK_SERVER_URL"
            echo "same=$([ "$SSL_CERT_FILE" = "$CURL_CA_BUNDLE" ] && [ "$SSL_CERT_FILE" = "$REQUESTS_CA_BUNDLE" ] && [ "$SSL_CERT_FILE" = "$GIT_SSL_CAINFO" ] && [ "$SSL_CERT_FILE" = "$PIP_CERT" ] && [ "$(dirname "$NODE_EXTRA_CA_CERTS")" = "$(dirname "$SUT_MOCK_SERVER_CA")" ] && echo yes)"
            echo "modes=$(stat -c %a "$(dirname "$SSL_CERT_FILE")" "$SSL_CERT_FILE" "$SUT_MOCK_SERVER_CA" | tr '\\n' ' ')"
            echo "ours-last=$(tail -n 1 "$SSL_CERT_FILE")"
            echo "system=$(grep -c 'BEGIN CERTIFICATE' "$SSL_CERT_FILE")"
            echo "files=$SSL_CERT_FILE"
            """
        let result = try CLI.run(["--https", "-p", "0", "--journal", journal, "--stub", stubs, "sh", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "hello over https", "\(result.stdout) \(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("url=https://127.0.0.1:") })
        #expect(lines.contains("same=yes"))
        #expect(lines.contains("modes=700 600 600 "))
        #expect(lines.contains("ours-last=-----END CERTIFICATE-----"))
        // The bundle holds the system's authorities too, so the program still reaches real hosts.
        let systemCount =
            (try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8))
            .map { $0.components(separatedBy: "BEGIN CERTIFICATE").count - 1 } ?? 0
        #expect(lines.contains("system=\(systemCount + 1)"))
        let files = try #require(lines.first { $0.hasPrefix("files=") }).dropFirst("files=".count)
        #expect(!FileManager.default.fileExists(atPath: String(files)), "the trust files outlived the run")
        #expect(!FileManager.default.fileExists(atPath: (String(files) as NSString).deletingLastPathComponent))
        // The journal is the same over TLS.
        let recorded = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(recorded.contains("\"/hello\""))
    }

    @Test(.enabled(if: CLI.hasCommand("python3"))) func pythonsUrllibAndRequestsTrustItWithNoSetting() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let script = """
            import os, ssl, urllib.request
            url = os.environ["SUT_MOCK_SERVER_URL"] + "/hello"
            # urllib's default context reads SSL_CERT_FILE through OpenSSL's default paths.
            print(urllib.request.urlopen(url, timeout=10).read().decode())
            try:
                import requests
            except ImportError:
                print("hello over https")
            else:
                print(requests.get(url, timeout=10).text)
            """
        let result = try CLI.run(["--https", "-p", "0", "--stub", stubs, "python3", "-c", script])
        #expect(result.stdout == "hello over https\nhello over https\n", "\(result.stderr)")
        #expect(result.status == 0)
    }

    @Test func theProgramGetsTheHTTPSURLInItsAutomationFlags() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let result = try CLI.run(["--https", "-p", "0", "--stub", stubs, "--automation", "user=alice", CLI.argvDump])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(#"\"mockServerURL\":\"https:\/\/127.0.0.1:"#)
                || result.stdout.contains(#"mockServerURL\":\"https://127.0.0.1:"#), "\(result.stdout)")
        #expect(
            result.stdout.contains(#""SUT_MOCK_SERVER_URL":"https://127.0.0.1:"#)
                || result.stdout.contains(#""SUT_MOCK_SERVER_URL":"https:\/\/127.0.0.1:"#))
    }

    @Test func serveHTTPSPrintsItsURLAndAuthorityAnswersTLSAndRefusesPlainHTTP() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        var authority = ""
        let result = try CLI.run(["serve", "--https", "--port", "0", "--https-host", "api.test", stubs]) { process, outURL in
            let errURL = outURL.deletingLastPathComponent().appendingPathComponent("stderr")
            let deadline = Date().addingTimeInterval(20)
            var url = ""
            while Date() < deadline {
                let out = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
                let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
                if let line = err.split(separator: "\n").first(where: { $0.contains("certificate authority: ") }), out.hasSuffix("\n") {
                    url = String(out.split(separator: "\n")[0])
                    authority = String(line.split(separator: " ")[3])
                    break
                }
                usleep(50_000)
            }
            #expect(url.hasPrefix("https://127.0.0.1:"))
            let port = url.split(separator: ":").last.map(String.init) ?? ""
            let verified = try CLI.output(of: ["curl", "-sS", "--cacert", authority, url + "/hello"])
            #expect(verified == "hello over https")
            let byName = try CLI.output(of: [
                "curl", "-sS", "--cacert", authority, "--resolve", "api.test:\(port):127.0.0.1", "https://api.test:\(port)/hello",
            ])
            #expect(byName == "hello over https")
            let plain = try CLI.output(of: ["curl", "-sS", "http://127.0.0.1:\(port)/hello"])
            #expect(plain == "plain HTTP sent to an HTTPS port: use https:// for this server\n")
            process.terminate()
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!authority.isEmpty && !FileManager.default.fileExists(atPath: authority), "serve left \(authority) behind")
    }

    @Test(.enabled(if: CLI.hasCommand("openssl"))) func theUsersOwnCertificateIsServedAndNothingIsWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        _ = try CLI.output(
            of: [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=own.test", "-addext", "subjectAltName=IP:127.0.0.1",
            ], in: directory)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let result = try CLI.run(
            [
                "--https", "--https-cert", certificate, "--https-key", directory.appendingPathComponent("key.pem").path, "-p", "0",
                "--stub", stubs, "-e", "TMPDIR=\(temporary.path)", "sh", "-c",
                #"curl -sS --cacert "$0" "$SUT_MOCK_SERVER_URL/hello"; echo " ca=${SUT_MOCK_SERVER_CA:-none}""#, certificate,
            ], environment: CLI.localEnvironment.merging(["TMPDIR": temporary.path]) { _, new in new })
        #expect(result.stdout == "hello over https ca=none\n", "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test func badCertificatesAndHostsAreOneLineErrorsBeforeAnythingRuns() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let junk = try CLI.write("not a certificate", "junk.pem", in: directory)
        let marker = directory.appendingPathComponent("ran").path
        let launched = ["--stub", stubs, "touch", marker]
        // Content that does not load is a bad input file (exit 3, naming it), as a bad stub file is.
        let bad = try CLI.run(["--https", "--https-cert", junk, "--https-key", junk, "-p", "0"] + launched)
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("junk.pem") && bad.stderr.contains("no PEM certificate"), "\(bad.stderr)")
        let served = try CLI.run(["serve", "--https", "--https-cert", junk, "--https-key", junk, "-p", "0", stubs])
        #expect(served.status == 3, "\(served.stderr)")
        let host = try CLI.run(["--https", "--https-host", "a,DNS:evil.test", "-p", "0"] + launched)
        #expect(host.status == 2)
        #expect(host.stderr.split(separator: "\n").count == 1, "\(host.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// R9D-3: a chain block that does not parse ended OpenSSL's reading, and it and every certificate after it were
    /// dropped in silence (the client needing the intermediate failed its handshake); a 17th certificate was cut the
    /// same way. Both are exit 3 naming the file, for a run and for `serve`, before anything launches.
    @Test(.enabled(if: CLI.hasCommand("openssl"))) func aChainThatDoesNotReadWholeIsRefusedByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try HTTPSCertificateFilesEndToEndTests.ownCertificate(in: directory).certificate
        let broken = "-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END CERTIFICATE-----\n"
        let key = directory.appendingPathComponent("key.pem").path
        let marker = directory.appendingPathComponent("ran").path
        let stub = try CLI.write(#"{"routes": [{"path": "/", "status": 200}]}"#, "s.json", in: directory)
        for (name, text, said) in [
            ("chain.pem", certificate + broken + certificate, "holds 3 PEM certificates, of which only the first 1 could be read"),
            ("long.pem", String(repeating: certificate, count: 17), "more than 16 certificates"),
        ] {
            let file = try CLI.write(text, name, in: directory)
            for arguments in [
                ["--https", "--https-cert", file, "--https-key", key, "-p", "0", "--stub", stub, "touch", marker],
                ["serve", "--https", "--https-cert", file, "--https-key", key, "-p", "0"],
            ] {
                let result = try CLI.run(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(name) && result.stderr.contains(said), "\(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Hostile review (second round): `--https-host` values OpenSSL refused only when minting (127.1, 1234,
    /// 999.1.1.1, 1:2) were exit 125 naming localhost; 01.02.03.04 was read as 1.2.3.4. They are usage errors now,
    /// naming the value; so is a 101st name.
    @Test func hostValuesThatAreNotOneAddressOrNameAreUsageErrors() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        for host in ["127.1", "1.2.3", "1234", "999.1.1.1", "1.2.3.4.5", "01.02.03.04", "1:2", ":::", "1::2::3", "a.1", "*.1.2.3.4", ""] {
            let result = try CLI.run(["--https", "--https-host", host, "-p", "0", "--stub", stubs, "true"])
            #expect(result.status == 2 && result.stderr.contains("--https-host '\(host)'"), "\(host): \(result.status) \(result.stderr)")
        }
        for host in ["10.0.0.1", "::1", "fe80::1", "api.example.com", "*.example.com", "xn--bcher-kva.example"] {
            let result = try CLI.run(["--https", "--https-host", host, "-p", "0", "--stub", stubs, "true"])
            #expect(result.status == 0, "\(host): \(result.stderr)")
        }
        let many = (1...101).flatMap { ["--https-host", "h\($0).example.com"] }
        let result = try CLI.run(["--https"] + many + ["-p", "0", "--stub", stubs, "true"])
        #expect(result.status == 2 && result.stderr.contains("at most 100"), "\(result.stderr)")
    }

    /// Hostile review (second round): with `--host 127.0.0.2` the URL the program got named an address the minted
    /// certificate did not cover (curl: exit 60). The server's own address is one of its names now.
    @Test func theServersOwnAddressIsOneOfTheCertificatesNames() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let result = try CLI.run([
            "--https", "--host", "127.0.0.2", "-p", "0", "--stub", stubs, "sh", "-c", #"curl -sS "$SUT_MOCK_SERVER_URL/hello""#,
        ])
        #expect(result.status == 0 && result.stdout == "hello over https", "\(result.stdout) \(result.stderr)")
    }

    /// Hostile review (second round): plain HTTP sent to the HTTPS port was answered 400 and counted nowhere, so a
    /// strict run exited 0 with "0 requests". It is an unexpected request now, in the journal with its reason.
    @Test func plainHTTPToTheHTTPSPortIsAnUnexpectedRequest() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{ "routes": [ { "method": "GET", "path": "/hello", "body": "hi" } ], "unexpected": "fail" }"#, "strict.json", in: directory)
        let journal = directory.appendingPathComponent("journal.json").path
        let result = try CLI.run([
            "--https", "-p", "0", "--stub", stubs, "--journal", journal, "sh", "-c",
            #"curl -sS "http://${SUT_MOCK_SERVER_URL#https://}/anything""#,
        ])
        #expect(result.status == 4 && result.stderr.contains("unexpected request GET /anything"), "\(result.status) \(result.stderr)")
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text.contains(#""url":"/anything""#) && text.contains("plain HTTP sent to an HTTPS port"), "\(text)")
    }

    /// Hostile review (second round): the caller's own trust was replaced: a CURL_CA_BUNDLE or REQUESTS_CA_BUNDLE
    /// authority (a CI machine's, a corporate proxy's) was lost, and NODE_EXTRA_CA_CERTS named ours alone. The
    /// bundle keeps every file the caller's variables name, once; Node gets the caller's file plus ours.
    @Test(.enabled(if: CLI.hasCommand("openssl"))) func theCallersOwnAuthoritiesStayTrusted() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        // Real self-signed certificates (curl refuses a bundle that does not parse), each with a comment to find.
        func pem(_ marker: String) throws -> String {
            let path = directory.appendingPathComponent(marker + ".pem").path
            _ = try CLI.output(of: [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path + ".key",
                "-out", path, "-subj", "/CN=\(marker)", "-days", "2",
            ])
            try ("# " + marker + "\n" + String(contentsOfFile: path, encoding: .utf8)).write(
                toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let curl = try pem("CURLMARKER")
        let requests = try pem("REQUESTSMARKER")
        let node = try pem("NODEMARKER")
        var environment = CLI.localEnvironment
        for name in ["SSL_CERT_FILE", "GIT_SSL_CAINFO", "PIP_CERT"] { environment.removeValue(forKey: name) }
        environment.merge(["CURL_CA_BUNDLE": curl, "REQUESTS_CA_BUNDLE": requests, "NODE_EXTRA_CA_CERTS": node]) { $1 }
        let script = #"""
            echo "bundle=$(grep -c -e CURLMARKER -e REQUESTSMARKER "$SSL_CERT_FILE") same=$([ "$CURL_CA_BUNDLE" = "$SSL_CERT_FILE" ] && echo yes)"
            echo "node=$(grep -c NODEMARKER "$NODE_EXTRA_CA_CERTS") $(grep -c 'BEGIN CERTIFICATE' "$NODE_EXTRA_CA_CERTS") ours=$(grep -c 'BEGIN CERTIFICATE' "$SUT_MOCK_SERVER_CA")"
            curl -sS "$SUT_MOCK_SERVER_URL/hello"
            """#
        let result = try CLI.run(["--https", "-p", "0", "--stub", stubs, "sh", "-c", script], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "bundle=2 same=yes\nnode=1 2 ours=1\nhello over https", "\(result.stdout)")
    }

    /// Hostile review (second round): `serve --https` printed its files' paths with a line break from TMPDIR raw,
    /// so the next line looked like one of sut-launch's own.
    @Test func serveEscapesThePathsItPrints() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.routes, "routes.json", in: directory)
        let hostile = directory.appendingPathComponent("t\nsut-launch: forged").path
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        let result = try CLI.run(
            ["serve", "--https", "--port", "0", stubs], environment: CLI.localEnvironment.merging(["TMPDIR": hostile]) { $1 }
        ) { process, outURL in
            let errURL = outURL.deletingLastPathComponent().appendingPathComponent("stderr")
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !((try? String(contentsOf: errURL, encoding: .utf8)) ?? "").contains("with the system's") {
                usleep(50_000)
            }
            process.terminate()
        }
        #expect(result.stderr.contains("t\\nsut-launch: forged"), "\(result.stderr)")
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("sut-launch: forged") }, "\(result.stderr)")
    }
}
