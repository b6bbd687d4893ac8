import Foundation
import Testing

/// The names an HTTPS mock server answers for and the trust it asks of its client (M8, M9), with real TLS clients.
@Suite(.enabled(if: CLI.hasCommand("openssl") && CLI.hasCommand("curl"), "needs openssl and curl (apt-get install openssl curl)"))
struct HTTPSNamesEndToEndTests {
    /// M9: a client that refused a certificate given with `--https-cert` was told to read SSL_CERT_FILE, "the run's
    /// trust variables", which the run does not set for a certificate of the user's; now the hint names its issuer.
    @Test func theTrustHintForTheUsersOwnCertificateIsTrue() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(HTTPSEndToEndTests.routes, "routes.json", in: directory)
        _ = try CLI.output(
            of: [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=own.test", "-addext", "subjectAltName=IP:127.0.0.1",
            ], in: directory)
        let result = try CLI.run([
            "--https", "--https-cert", directory.appendingPathComponent("cert.pem").path,
            "--https-key", directory.appendingPathComponent("key.pem").path, "-p", "0", "--stub", stubs,
            "sh", "-c", #"curl -sS -o /dev/null "$SUT_MOCK_SERVER_URL/hello"; exit 0"#,
        ])
        #expect(result.stderr.contains("the client refused the certificate given with --https-cert"), "\(result.stderr)")
        #expect(result.stderr.contains("make the program trust its issuer"), "\(result.stderr)")
        #expect(!result.stderr.contains("the run's other trust variables"), "\(result.stderr)")
    }

    /// M8: `--https-host example.com.` (a final dot), `a..b`, `.a` and a 254-character name are refused naming what is
    /// wrong (they were "not a DNS name", letters and dots though they are); the name without its dot serves a real
    /// client that verifies it.
    @Test func aHostNameWithAnEmptyLabelIsRefusedByNameAndTheNameWithoutItServes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(HTTPSEndToEndTests.routes, "routes.json", in: directory)
        let long = [String](repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".") + "a"
        let refused = [
            ("example.com.", "'example.com.' ends with '.': write it without the final dot (example.com)"),
            ("a..b", "'a..b' has an empty label"), (".a", "'.a' starts with '.'"),
            (long, "a host name has 1 to 253 characters; this one has 256"),
        ]
        for (name, message) in refused {
            let options = ["--https", "-p", "0", "--https-host", name]
            for arguments in [options + ["--stub", stubs, "true"], ["serve"] + options + [stubs]] {
                let result = try CLI.run(arguments)
                #expect(result.status == 2 && result.stderr.contains(message), "\(name): \(result.stderr)")
            }
        }
        let served = try CLI.run([
            "--https", "-p", "0", "--https-host", "api.test", "--stub", stubs, "sh", "-c",
            #"port=${SUT_MOCK_SERVER_URL##*:}; curl -sS --cacert "$SUT_MOCK_SERVER_CA" --resolve "api.test:$port:127.0.0.1" "https://api.test:$port/hello""#,
        ])
        #expect(served.status == 0 && served.stdout == "hello over https", "\(served.stdout)\(served.stderr)")
    }
}
