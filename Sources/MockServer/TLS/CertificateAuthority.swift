import AutomationSupport

/// Mints, in memory, a certificate authority and a leaf certificate it signs, for one run (EC P-256 keys,
/// SHA-256 signatures). Nothing is written: the leaf's key never leaves the process, and the authority's key is
/// freed once the leaf is signed, so no later certificate can be made with it.
struct CertificateAuthority {
    let library: LibSSL

    /// What a run serves and what its clients trust.
    struct Minted {
        /// The leaf certificate and its key (owned by the caller).
        let leaf: OpaquePointer
        let key: OpaquePointer
        /// The authority's certificate, PEM.
        let authorityPEM: String
    }

    /// Names every leaf carries, before the user's `--https-host` names.
    static let defaultHosts = ["localhost", "127.0.0.1", "::1"]
    /// The leaf is valid from a minute ago (a client's clock a little behind) for this many seconds (three days).
    static let validitySeconds = 3 * 24 * 3600
    /// At most this many `--https-host` names.
    static let hostLimit = 100

    static let curveP256: Int32 = 415 // NID_X9_62_prime256v1
    static let keyTypeEC: Int32 = 408 // EVP_PKEY_EC
    static let asciiText: Int32 = 0x1001 // MBSTRING_ASC

    /// Why `host` cannot be a name of the leaf (a DNS name, `*.` and a DNS name, or an IPv4/IPv6 address), or nil.
    /// Only these characters pass, so no name can add a field to the subjectAltName OpenSSL parses from text.
    package static func hostProblem(_ host: String) -> String? {
        let bytes = Array(host.utf8)
        if bytes.isEmpty { return "a host name has 1 to 253 characters; this one is empty" }
        if bytes.count > 253 { return "a host name has 1 to 253 characters; this one has \(bytes.count)" }
        // Named, never read as another name: a certificate holds `example.com`, and the URL would say `example.com.`.
        if host.hasSuffix("."), !host.contains(":") {
            return
                "'\(host.prefix(60))' ends with '.': write it without the final dot (\(host.dropLast().prefix(60))), as certificates name it"
        }
        if host.contains(".."), !host.contains(":") { return "'\(host.prefix(60))' has an empty label ('..')" }
        if host.hasPrefix("."), !host.contains(":") { return "'\(host.prefix(60))' starts with '.', an empty label" }
        let refusal = "'\(host.prefix(60))' is not a DNS name or an IP address (letters, digits, '-' and '.' only; '*.' may lead)"
        if host.contains(":") {
            return Socket.isIPv6Address(host) ? nil : "'\(host.prefix(60))' is not an IPv6 address (written without brackets)"
        }
        let name = host.hasPrefix("*.") ? host.dropFirst(2) : Substring(host)
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if host.hasPrefix("*."), labels.count < 2 {
            return
                "'\(host.prefix(60))': a wildcard stands for one label of a name of two or more (*.example.com); clients refuse *.\(name.prefix(60))"
        }
        // All digits is an IPv4 address, and then exactly one: four numbers 0-255 without leading zeros (OpenSSL
        // refused 127.1 and 1234 only when minting, and read 01.02.03.04 as 1.2.3.4). A name's last label is never
        // all digits.
        let numeric = { (label: Substring) in !label.isEmpty && label.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        if labels.last.map(numeric) == true {
            let quad =
                !host.hasPrefix("*.") && labels.count == 4
                && labels.allSatisfy { numeric($0) && $0.count <= 3 && ($0 == "0" || !$0.hasPrefix("0")) && Int($0)! <= 255 }
            return quad ? nil : "'\(host.prefix(60))' is not an IPv4 address (four numbers 0 to 255, no leading zeros) or a DNS name"
        }
        for label in labels {
            let valid =
                !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
            if !valid { return refusal }
        }
        return nil
    }

    /// Mints the authority and a leaf for the default names plus `hosts` (checked with ``hostProblem(_:)``).
    func mint(hosts: [String]) throws(TLSError) -> Minted {
        // The user's names, and the server's own address when it is not a default one.
        if hosts.count > 2 * Self.hostLimit + 1 {
            throw .failed("at most \(Self.hostLimit) HTTPS host names and \(Self.hostLimit) intercepted hosts")
        }
        if let problem = hosts.lazy.compactMap(Self.hostProblem).first { throw .failed(problem) }
        var names: [String] = []
        for host in Self.defaultHosts + hosts where !names.contains(host.lowercased()) { names.append(host.lowercased()) }
        let alternativeNames = names.map { Self.isAddress($0) ? "IP:" + $0 : "DNS:" + $0 }.joined(separator: ",")

        let authorityKey = try newKey()
        defer { library.keyFree(authorityKey) }
        let tag = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let authority = try certificate(
            commonName: "sut-launch mock server CA \(tag)", publicKey: authorityKey, issuer: nil, signingKey: authorityKey,
            extensions: [
                ("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
            ])
        defer { library.x509Free(authority) }
        let key = try newKey()
        do {
            let leaf = try certificate(
                commonName: names[0], publicKey: key, issuer: authority, signingKey: authorityKey,
                extensions: [
                    ("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
                    ("extendedKeyUsage", "serverAuth"), ("subjectAltName", alternativeNames),
                    ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
                ])
            return Minted(leaf: leaf, key: key, authorityPEM: try pem(authority))
        } catch {
            library.keyFree(key)
            throw error
        }
    }

    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.utf8.allSatisfy { $0 == 0x2E || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// A fresh P-256 key pair.
    private func newKey() throws(TLSError) -> OpaquePointer {
        guard let ecKey = library.ecKeyNewByCurve(Self.curveP256) else { throw .failed("cannot make a P-256 key: \(library.errors())") }
        guard library.ecKeyGenerate(ecKey) == 1, let key = library.keyNew() else {
            library.ecKeyFree(ecKey)
            throw .failed("cannot make a P-256 key: \(library.errors())")
        }
        guard library.keyAssign(key, Self.keyTypeEC, UnsafeMutableRawPointer(ecKey)) == 1 else { // the key owns ecKey now
            library.ecKeyFree(ecKey)
            library.keyFree(key)
            throw .failed("cannot make a P-256 key: \(library.errors())")
        }
        return key
    }

    /// An X.509 v3 certificate for `publicKey`, signed by `signingKey` as `issuer` (itself when nil).
    private func certificate(
        commonName: String, publicKey: OpaquePointer, issuer: OpaquePointer?, signingKey: OpaquePointer,
        extensions: [(String, String)]
    ) throws(TLSError) -> OpaquePointer {
        guard let certificate = library.x509New() else { throw .failed("cannot make a certificate: \(library.errors())") }
        let subject = library.x509SubjectName(certificate)
        var made =
            library.x509SetVersion(certificate, 2) == 1
            && library.integerSet(library.x509SerialNumber(certificate), Int.random(in: 1...Int.max)) == 1
            && library.timeAdjust(library.x509NotBefore(certificate), -60) != nil
            && library.timeAdjust(library.x509NotAfter(certificate), Self.validitySeconds) != nil
            && library.x509SetPublicKey(certificate, publicKey) == 1
            && addName("O", "sut-launch", to: subject) && addName("CN", commonName, to: subject)
            && library.x509SetIssuerName(certificate, issuer.map { library.x509SubjectName($0) } ?? subject) == 1
        // X509V3_CTX is opaque here: zeroed room larger than any version's struct (nine pointers in 3.x).
        let extensionContext = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
        defer { extensionContext.deallocate() }
        extensionContext.initializeMemory(as: UInt8.self, repeating: 0, count: 512)
        library.extensionContextSet(extensionContext, issuer ?? certificate, certificate, nil, nil, 0)
        for (name, value) in extensions where made {
            guard let created = library.extensionFromText(nil, extensionContext, name, value) else {
                made = false
                break
            }
            made = library.x509AddExtension(certificate, created, -1) == 1
            library.extensionFree(created)
        }
        guard made, library.x509Sign(certificate, signingKey, library.sha256()) > 0 else {
            library.x509Free(certificate)
            throw .failed("cannot make a certificate for \(commonName): \(library.errors())")
        }
        return certificate
    }

    private func addName(_ field: String, _ value: String, to name: OpaquePointer?) -> Bool {
        let bytes = Array(value.utf8.prefix(64))
        return library.nameAddEntry(name, field, Self.asciiText, bytes, Int32(bytes.count), -1, 0) == 1
    }

    private func pem(_ certificate: OpaquePointer) throws(TLSError) -> String {
        guard let bio = library.bioNew(library.memoryMethod()) else { throw .failed("cannot write PEM: \(library.errors())") }
        defer { _ = library.bioFree(bio) }
        guard library.pemWriteCertificate(bio, certificate) == 1 else { throw .failed("cannot write PEM: \(library.errors())") }
        return String(decoding: library.drain(bio), as: UTF8.self)
    }
}
