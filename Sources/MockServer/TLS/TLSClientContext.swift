import AutomationSupport

/// What a client's TLS sessions are made from: an OpenSSL client context (TLS 1.2 or newer, no renegotiation)
/// that verifies against the system's trust store plus any certificates given, or verifies nothing. Made once per
/// trust and kept (``shared(trustPEM:insecure:)``): loading the system bundle takes milliseconds, a session none.
final class TLSClientContext: @unchecked Sendable {
    let library: LibSSL
    let context: OpaquePointer

    static let verifyNone: Int32 = 0 // SSL_VERIFY_NONE
    static let verifyPeer: Int32 = 1 // SSL_VERIFY_PEER
    /// At most this many certificates in an extra trust (a whole CA bundle fits).
    static let trustLimit = 4096
    /// At most this many contexts kept; past it the cache starts again (each holds a trust store).
    static let cacheLimit = 32

    private struct Key: Hashable {
        let trustPEM: [UInt8]?
        let insecure: Bool
    }

    private static let cache = Locked<[Key: TLSClientContext]>([:])

    /// The context for this trust, made on the first call and the same object after. Made under the cache's lock,
    /// so threads connecting at once with a new trust wait for one build rather than each loading the bundle.
    static func shared(trustPEM: [UInt8]?, insecure: Bool) throws(TLSError) -> TLSClientContext {
        let library = try TLSServerContext.library()
        let key = Key(trustPEM: insecure ? nil : trustPEM, insecure: insecure)
        let result: Result<TLSClientContext, TLSError> = cache.withLock { contexts in
            if let context = contexts[key] { return .success(context) }
            do throws(TLSError) {
                let context = try TLSClientContext(library: library, trustPEM: key.trustPEM, insecure: insecure)
                if contexts.count >= cacheLimit { contexts.removeAll() }
                contexts[key] = context
                return .success(context)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(library: LibSSL, trustPEM: [UInt8]?, insecure: Bool) throws(TLSError) {
        guard let context = library.contextNew(library.clientMethod()) else {
            throw .failed("cannot create a TLS client context: \(library.errors())")
        }
        self.library = library
        self.context = context
        guard library.contextControl(context, TLSServerContext.controlSetMinimumVersion, TLSServerContext.tls12, nil) == 1 else {
            throw .failed("cannot require TLS 1.2 or newer: \(library.errors())")
        }
        _ = library.contextSetOptions(context, TLSServerContext.optionNoRenegotiation)
        if insecure {
            library.contextSetVerify(context, Self.verifyNone, nil)
            return
        }
        library.contextSetVerify(context, Self.verifyPeer, nil)
        // OpenSSL's default file and directory (SSL_CERT_FILE and SSL_CERT_DIR when set): the file is read now.
        guard library.contextSetDefaultVerifyPaths(context) == 1 else {
            throw .failed("cannot load the system's trusted certificates: \(library.errors())")
        }
        if let trustPEM { try addTrust(trustPEM) }
    }

    deinit { library.contextFree(context) }

    /// Adds every certificate of `pem` to the context's trust store; throws when one of them cannot be read.
    private func addTrust(_ pem: [UInt8]) throws(TLSError) {
        let certificates = try PEMReader(library: library, bytes: pem).certificates(limit: Self.trustLimit + 1)
        defer { for certificate in certificates { library.x509Free(certificate) } }
        // A certificate OpenSSL cannot read ends its reading: count what the text holds, so none is dropped unsaid.
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        let written = Self.occurrences(of: marker, in: pem)
        guard !certificates.isEmpty else { throw .failed("the extra trust holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
        guard certificates.count <= Self.trustLimit else {
            throw .failed("the extra trust holds more than \(Self.trustLimit) certificates")
        }
        guard certificates.count == written else {
            throw .failed("the extra trust holds \(written) PEM certificates, of which only the first \(certificates.count) could be read")
        }
        let store = library.contextCertificateStore(context)
        for certificate in certificates {
            // The store takes its own reference; a duplicate is refused by OpenSSL 1.1, which is no loss.
            _ = library.storeAddCertificate(store, certificate)
        }
        library.errorClear()
    }

    static func occurrences(of marker: [UInt8], in bytes: [UInt8]) -> Int {
        guard bytes.count >= marker.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - marker.count {
            if bytes[index] == marker[0] && bytes[index..<index + marker.count].elementsEqual(marker) {
                count += 1
                index += marker.count
            } else {
                index += 1
            }
        }
        return count
    }
}
