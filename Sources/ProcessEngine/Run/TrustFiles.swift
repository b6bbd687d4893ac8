import AutomationSupport
package import MockServer

/// The files that make a program trust the run's certificate authority with no step of its own: ours alone, and
/// a bundle of the system's authorities plus ours (so the program still reaches real hosts), in a directory of
/// their own (mode 0700, made with mkdtemp: a fresh name, no link followed), each file mode 0600, removed when
/// the run ends. Only certificates are written: the keys never leave the process.
package struct TrustFiles: Sendable {
    /// The private directory holding both files.
    package let directory: String
    /// The system's authorities plus ours (PEM).
    package let bundle: String
    /// Ours alone (PEM).
    package let authority: String

    /// Where the system's authorities are, first found wins (Debian and Ubuntu, Fedora and RHEL, Alpine and BSDs).
    static let systemBundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]
    /// The variables OpenSSL, Python (ssl, requests, pip), curl and git read a bundle from.
    package static let bundleVariables = ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PIP_CERT"]
    /// The variables that name our authority alone (Node.js adds it to its own; programs read ours by name).
    package static let authorityVariables = ["NODE_EXTRA_CA_CERTS", authorityVariable]
    /// The variable that names our authority for the program's own code (and `${SUT_MOCK_SERVER_CA}` in steps).
    package static let authorityVariable = "SUT_MOCK_SERVER_CA"

    /// The program's trust variables.
    package var environment: [String: String] {
        var result: [String: String] = [:]
        for name in Self.bundleVariables { result[name] = bundle }
        for name in Self.authorityVariables { result[name] = authority }
        return result
    }

    /// The trust files for `server`, when it speaks HTTPS with an authority minted for it; nil for plain HTTP or a
    /// certificate of the user's (nothing to write). The one way a run, a scenario and a Swift test's launch make
    /// their program trust the server: each launch that starts a server calls this, and removes what it wrote.
    package static func write(for server: MockServer, callerEnvironment: [String: String]) -> Result<TrustFiles?, UsageError> {
        guard let authority = server.tls?.authorityPEM else { return .success(nil) }
        return write(authorityPEM: authority, callerEnvironment: callerEnvironment).map { $0 }
    }

    /// Writes both files for `authorityPEM` under the caller's TMPDIR. The base of the bundle is the caller's
    /// `SSL_CERT_FILE` when it names a readable file (a CI machine's own authorities stay trusted), else the system's.
    package static func write(authorityPEM: String, callerEnvironment: [String: String]) -> Result<TrustFiles, UsageError> {
        let temporary = callerEnvironment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        guard let directory = PrivateDirectory.make(in: temporary, prefix: "sut-https-") else {
            return .failure(UsageError("--https: cannot make a private directory in \(temporary) for the certificate authority"))
        }
        var base: [UInt8] = []
        let inherited = callerEnvironment["SSL_CERT_FILE"].map { [$0] } ?? []
        for path in inherited + systemBundles where FileSystem.isRegularFile(path) {
            if let bytes = FileSystem.read(path) {
                base = bytes
                break
            }
        }
        if !base.isEmpty && base.last != 0x0A { base.append(0x0A) }
        let files = TrustFiles(directory: directory, bundle: directory + "/bundle.pem", authority: directory + "/ca.pem")
        do {
            let root = try RootedDirectory(directory)
            try root.write(Array(authorityPEM.utf8), to: "ca.pem", mode: 0o600, replacing: false)
            try root.write(base + Array(authorityPEM.utf8), to: "bundle.pem", mode: 0o600, replacing: false)
        } catch {
            files.remove()
            return .failure(UsageError("--https: cannot write the certificate authority to \(directory): \(error)"))
        }
        return .success(files)
    }

    /// Removes the directory and both files (links removed, never followed).
    package func remove() { PrivateDirectory.remove(directory, prefix: "sut-https-") }
}
