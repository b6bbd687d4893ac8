import AutomationSupport

/// What HTTPS serves with: an OpenSSL server context (TLS 1.2 and 1.3, the certificate and its key), shared by
/// every connection of a server. Made once, from a certificate minted for the run (``minted(hosts:)``) or the
/// user's own PEM files (``loaded(certificatePEM:keyPEM:)``).
package final class TLSServerContext: @unchecked Sendable {
    let library: LibSSL
    let context: OpaquePointer
    /// The certificate authority a client must trust, PEM, when the certificate was minted here; nil for the
    /// user's own certificate (their CA is theirs to install).
    package let authorityPEM: String?

    // OpenSSL's constants for the calls below, the same in 1.1 and 3.x.
    static let controlSetMinimumVersion: Int32 = 123 // SSL_CTRL_SET_MIN_PROTO_VERSION
    static let controlAddChainCertificate: Int32 = 14 // SSL_CTRL_EXTRA_CHAIN_CERT
    static let controlMode: Int32 = 33 // SSL_CTRL_MODE
    static let controlSessionCacheSize: Int32 = 42 // SSL_CTRL_SET_SESS_CACHE_SIZE
    static let tls12: Int = 0x0303 // TLS1_2_VERSION
    static let modeReleaseBuffers: Int = 0x10 // SSL_MODE_RELEASE_BUFFERS: an idle connection holds no record buffers
    static let optionNoRenegotiation: UInt64 = 0x4000_0000 // SSL_OP_NO_RENEGOTIATION: no client-driven CPU loop

    /// Makes the context from a certificate, its key and the chain sent after it. Takes ownership of all three
    /// (freed here, or held by the context).
    init(library: LibSSL, certificate: OpaquePointer, key: OpaquePointer, chain: [OpaquePointer], authorityPEM: String?) throws(TLSError) {
        defer {
            library.x509Free(certificate)
            library.keyFree(key)
        }
        guard let context = library.contextNew(library.serverMethod()) else {
            for extra in chain { library.x509Free(extra) }
            throw .failed("cannot create a TLS context: \(library.errors())")
        }
        self.library = library
        self.context = context
        self.authorityPEM = authorityPEM
        // The context owns each chain certificate it accepts; after a refusal the rest are freed here.
        var chainAdded = true
        for extra in chain {
            if chainAdded && library.contextControl(context, Self.controlAddChainCertificate, 0, UnsafeMutableRawPointer(extra)) == 1 {
                continue
            }
            chainAdded = false
            library.x509Free(extra)
        }
        guard chainAdded,
            library.contextControl(context, Self.controlSetMinimumVersion, Self.tls12, nil) == 1,
            library.contextUseCertificate(context, certificate) == 1,
            library.contextUsePrivateKey(context, key) == 1
        else { throw .failed("cannot set up TLS with this certificate and key: \(library.errors())") }
        guard library.contextCheckPrivateKey(context) == 1 else {
            throw .failed("the private key does not belong to the certificate: \(library.errors())")
        }
        _ = library.contextControl(context, Self.controlMode, Self.modeReleaseBuffers, nil)
        _ = library.contextControl(context, Self.controlSessionCacheSize, 1024, nil)
        _ = library.contextSetOptions(context, Self.optionNoRenegotiation)
    }

    deinit { library.contextFree(context) }

    /// Throws why HTTPS cannot be served here (``TLSError/unavailable(_:)``: no usable libssl); loads it once.
    package static func checkAvailability() throws(TLSError) { _ = try library() }

    /// The OpenSSL library name loaded (`libssl.so.3`), or nil when none is usable.
    package static var libraryName: String? { try? library().name }

    static func library() throws(TLSError) -> LibSSL { try LibSSL.shared.get() }

    /// True when this process can never serve HTTPS because it is one static executable: the command line hands
    /// an `--https` run to `sut-launch-foundation` (a dynamic C library) instead.
    package static var needsDynamicExecutable: Bool { SharedLibrary.inStaticExecutable }

    /// Why `host` cannot be a name of a minted certificate (a DNS name, `*.` then a DNS name, or an IP address), or nil.
    package static func hostProblem(_ host: String) -> String? { CertificateAuthority.hostProblem(host) }
    /// At most this many names besides the defaults.
    package static var hostLimit: Int { CertificateAuthority.hostLimit }

    /// A context serving a leaf certificate minted now for `hosts` (plus localhost, 127.0.0.1 and ::1), signed by
    /// a certificate authority minted with it; ``authorityPEM`` is that authority.
    package static func minted(hosts: [String] = []) throws(TLSError) -> TLSServerContext {
        let library = try library()
        let minted = try CertificateAuthority(library: library).mint(hosts: hosts)
        return try TLSServerContext(
            library: library, certificate: minted.leaf, key: minted.key, chain: [], authorityPEM: minted.authorityPEM)
    }

    /// A context serving the user's certificate (PEM: the certificate, then any chain certificates) and its key
    /// (PEM, unencrypted: an encrypted key is refused, never prompted for).
    package static func loaded(certificatePEM: [UInt8], keyPEM: [UInt8]) throws(TLSError) -> TLSServerContext {
        for (what, bytes) in [("certificate", certificatePEM), ("key", keyPEM)] {
            if let stray = PEMLayout.strayLine(in: bytes) {
                throw .failed("the \(what) file, line \(stray.line): \(PEMLayout.refusal(stray))")
            }
        }
        let library = try library()
        var certificates = try PEMReader(library: library, bytes: certificatePEM).certificates(limit: PEMReader.chainLimit + 1)
        guard !certificates.isEmpty else { throw .failed("no PEM certificate (-----BEGIN CERTIFICATE-----) found") }
        // A block OpenSSL cannot read ends its reading, and a chain past the limit was cut: either way the chain served
        // would silently lack certificates the file holds, and a client needing them fails its handshake.
        let written = TLSClientContext.occurrences(of: Array("-----BEGIN CERTIFICATE-----".utf8), in: certificatePEM)
        if certificates.count > PEMReader.chainLimit || certificates.count < written {
            for certificate in certificates { library.x509Free(certificate) }
            throw .failed(
                certificates.count > PEMReader.chainLimit
                    ? "the file holds more than \(PEMReader.chainLimit) certificates (the certificate, then its chain); give at most \(PEMReader.chainLimit)"
                    : "the file holds \(written) PEM certificates, of which only the first \(certificates.count) could be read: certificate \(certificates.count + 1) is not a valid PEM certificate; fix or remove it"
            )
        }
        guard let key = try PEMReader(library: library, bytes: keyPEM).privateKey() else {
            for certificate in certificates { library.x509Free(certificate) }
            throw .failed("no unencrypted PEM private key found (an encrypted key is not supported: decrypt it first)")
        }
        let leaf = certificates.removeFirst()
        return try TLSServerContext(library: library, certificate: leaf, key: key, chain: certificates, authorityPEM: nil)
    }
}

/// Reads PEM objects from bytes in memory through a memory BIO (never a file OpenSSL opens itself, so the
/// size read is ours to bound).
struct PEMReader {
    let library: LibSSL
    let bytes: [UInt8]
    /// At most this many certificates in a chain file.
    static let chainLimit = 16

    /// Never asked for a passphrase: OpenSSL's default would prompt on the terminal.
    static let refusePassword: LibSSL.PasswordCallback = { _, _, _, _ in 0 }

    /// The certificates in order, at most `limit`.
    func certificates(limit: Int = chainLimit) throws(TLSError) -> [OpaquePointer] {
        try withBIO { bio in
            var found: [OpaquePointer] = []
            while found.count < limit, let certificate = library.pemReadCertificate(bio, nil, Self.refusePassword, nil) {
                found.append(certificate)
            }
            library.errorClear() // the read past the last certificate
            return found
        }
    }

    func privateKey() throws(TLSError) -> OpaquePointer? {
        try withBIO { bio in
            let key = library.pemReadPrivateKey(bio, nil, Self.refusePassword, nil)
            library.errorClear()
            return key
        }
    }

    private func withBIO<R>(_ body: (OpaquePointer) -> R) throws(TLSError) -> R {
        guard bytes.count < Int(Int32.max) else { throw .failed("the PEM file is too large") }
        let result: R? = bytes.withUnsafeBytes { raw in
            guard let bio = library.bioNewMemoryBuffer(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { _ = library.bioFree(bio) }
            return body(bio)
        }
        guard let result else { throw .failed("cannot read PEM: \(library.errors())") }
        return result
    }
}
