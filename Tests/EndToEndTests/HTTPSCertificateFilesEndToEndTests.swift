import Foundation
import Testing

/// What `--https-cert` and `--https-key` files may hold besides their PEM blocks.
@Suite struct HTTPSCertificateFilesEndToEndTests {
    /// A self-signed P-256 certificate for own.test written to `cert.pem` and its key to `key.pem` in `directory`,
    /// with their text.
    static func ownCertificate(in directory: URL) throws -> (certificate: String, key: String) {
        _ = try CLI.output(
            of: [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=own.test",
            ], in: directory)
        return (
            try String(contentsOf: directory.appendingPathComponent("cert.pem"), encoding: .utf8),
            try String(contentsOf: directory.appendingPathComponent("key.pem"), encoding: .utf8)
        )
    }

    /// r9d: text outside the PEM blocks was skipped in silence (OpenSSL skips it), and with it what it was meant to be
    /// (a damaged BEGIN line, a base64 line that lost its block). It is refused naming the file and line, for a run and
    /// `serve`; the annotations OpenSSL's tools write (`openssl pkcs12` output, comments) still load.
    @Test(.enabled(if: CLI.hasCommand("openssl"))) func textOutsideThePEMBlocksIsRefusedByLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, keyText) = try Self.ownCertificate(in: directory)
        let key = directory.appendingPathComponent("key.pem").path
        let lines = certificate.split(separator: "\n").count
        let stub = try CLI.write(#"{"routes": [{"path": "/", "status": 200}]}"#, "s.json", in: directory)
        for (name, text, line) in [
            ("garbage.pem", certificate + "garbage\n" + certificate, lines + 1),
            (
                "damaged.pem", certificate + certificate.replacingOccurrences(of: "BEGIN CERTIFICATE-----", with: "BEGIN CERTIFICATE----"),
                lines + 1
            ),
            ("trailing.pem", certificate + "MIIBbTCCAROgAwIBAgIULZ5OOr1fsOEe6pe\n", lines + 1),
        ] {
            let file = try CLI.write(text, name, in: directory)
            for arguments in [
                ["--https", "--https-cert", file, "--https-key", key, "-p", "0", "--stub", stub, "true"],
                ["serve", "--https", "--https-cert", file, "--https-key", key, "-p", "0"],
            ] {
                let result = try CLI.run(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("\(name):\(line): --https-cert: text outside a PEM block"), "\(result.stderr)")
            }
        }
        let strayKey = try CLI.write("stray\n" + keyText, "stray-key.pem", in: directory)
        let cert = directory.appendingPathComponent("cert.pem").path
        let refused = try CLI.run(["--https", "--https-cert", cert, "--https-key", strayKey, "-p", "0", "--stub", stub, "true"])
        #expect(
            refused.status == 3 && refused.stderr.contains("stray-key.pem:1: --https-key: text outside a PEM block"), "\(refused.stderr)")
        // What `openssl pkcs12 -nodes` writes (Bag Attributes, subject=, issuer=, Key Attributes) and comments load.
        let annotated =
            "# the server's chain\nBag Attributes\n    localKeyID: 01 02\nsubject=CN = own.test\nissuer=CN = own.test\n" + certificate
            + "\nBag Attributes\n    friendlyName: x\n" + certificate
        let annotatedKey = "Bag Attributes\n    localKeyID: 01 02\nKey Attributes: <No Attributes>\n" + keyText
        let accepted = try CLI.run([
            "--https", "--https-cert", try CLI.write(annotated, "annotated.pem", in: directory), "--https-key",
            try CLI.write(annotatedKey, "annotated-key.pem", in: directory), "-p", "0", "--stub", stub, "true",
        ])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}
