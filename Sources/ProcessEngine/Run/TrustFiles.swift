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
    /// What `NODE_EXTRA_CA_CERTS` names: ours alone, or the caller's extra authorities plus ours.
    package var nodeExtra: String

    /// The descriptor holding the directory's lock while the run lives (the next run's sweep leaves a held one alone);
    /// shared by copies and closed once, however many times ``remove()`` is called (a descriptor closed twice could
    /// be another file's by then).
    private let lock: Locked<Int32>

    init(directory: String, bundle: String, authority: String, lock: Int32 = -1) {
        self.lock = Locked(lock)
        self.directory = directory
        self.bundle = bundle
        self.authority = authority
        self.nodeExtra = authority
    }

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
        result["NODE_EXTRA_CA_CERTS"] = nodeExtra
        return result
    }

    /// The trust files for `server`, when it speaks HTTPS with an authority minted for it; nil for plain HTTP or a
    /// certificate of the user's (nothing to write). The one way a run, a scenario and a Swift test's launch make
    /// their program trust the server: each launch that starts a server calls this, and removes what it wrote.
    package static func write(for server: MockServer, callerEnvironment: [String: String]) -> Result<TrustFiles?, UsageError> {
        guard let authority = server.authorityPEM else { return .success(nil) }
        return write(authorityPEM: authority, callerEnvironment: callerEnvironment, option: server.tls == nil ? "--intercept" : "--https")
            .map { $0 }
    }

    /// The authorities the program trusted before: the system's (first found), then every other file the caller's
    /// bundle variables name (a CI machine's own authorities, a corporate proxy's), each once, in that order.
    static func inheritedAuthorities(_ callerEnvironment: [String: String]) -> [UInt8] {
        var paths: [String] = systemBundles.first(where: FileSystem.isRegularFile).map { [$0] } ?? []
        for name in bundleVariables {
            guard let path = callerEnvironment[name], !path.isEmpty, FileSystem.isRegularFile(path) else { continue }
            let real = FileSystem.realPath(path) ?? path
            if !paths.contains(where: { (FileSystem.realPath($0) ?? $0) == real }) { paths.append(path) }
        }
        var result: [UInt8] = []
        for path in paths {
            guard let bytes = FileSystem.read(path), !bytes.isEmpty else { continue }
            result += bytes
            if result.last != 0x0A { result.append(0x0A) }
        }
        return result
    }

    /// Writes the files for `authorityPEM` under the caller's TMPDIR: ours alone; the bundle, the inherited
    /// authorities plus ours (``inheritedAuthorities(_:)``: the program still reaches every host it reached
    /// before); and, when the caller had `NODE_EXTRA_CA_CERTS`, that file plus ours for Node.js.
    /// - Parameter option: what asked for the authority (`--https`, `--intercept`), for messages.
    package static func write(authorityPEM: String, callerEnvironment: [String: String], option: String = "--https") -> Result<
        TrustFiles, UsageError
    > {
        let temporary = FileSystem.temporaryDirectory(callerEnvironment)
        guard let (directory, lock) = PrivateDirectory.makeSweeping(in: temporary, prefix: "sut-https-", files: fileNames) else {
            let reason = Errno.current.description.lowercased()
            return .failure(
                UsageError(
                    "\(option): cannot make a private directory in \(temporary.escapingControlCharacters()) for the certificate authority: \(reason) (set TMPDIR to a writable directory)"
                ))
        }
        let ours = Array(authorityPEM.utf8)
        var nodeBase = callerEnvironment["NODE_EXTRA_CA_CERTS"].flatMap { FileSystem.isRegularFile($0) ? FileSystem.read($0) : nil } ?? []
        if !nodeBase.isEmpty && nodeBase.last != 0x0A { nodeBase.append(0x0A) }
        var files = TrustFiles(directory: directory, bundle: directory + "/bundle.pem", authority: directory + "/ca.pem", lock: lock)
        if !nodeBase.isEmpty { files.nodeExtra = directory + "/node-extra.pem" }
        do {
            let root = try RootedDirectory(directory)
            try root.write(ours, to: "ca.pem", mode: 0o600, replacing: false)
            try root.write(inheritedAuthorities(callerEnvironment) + ours, to: "bundle.pem", mode: 0o600, replacing: false)
            if !nodeBase.isEmpty { try root.write(nodeBase + ours, to: "node-extra.pem", mode: 0o600, replacing: false) }
        } catch {
            files.remove()
            return .failure(
                UsageError("\(option): cannot write the certificate authority to \(directory.escapingControlCharacters()): \(error)"))
        }
        return .success(files)
    }

    /// Removes the directory and both files (links removed, never followed).
    package func remove() {
        PrivateDirectory.remove(directory, prefix: "sut-https-", files: Self.fileNames)
        let held = lock.withLock { held in
            defer { held = -1 }
            return held
        }
        if held >= 0 { PrivateDirectory.release(held) }
    }

    /// The names written in the directory.
    static let fileNames = ["ca.pem", "bundle.pem", "node-extra.pem"]
}
