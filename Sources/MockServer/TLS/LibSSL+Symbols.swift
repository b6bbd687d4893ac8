import AutomationSupport

extension LibSSL {
    /// Resolves every function from the pair; throws naming the first one missing.
    init(ssl: SharedLibrary, crypto: SharedLibrary) throws(TLSError) {
        func s<T>(_ symbol: String) throws(TLSError) -> T { try Self.resolve(symbol, in: ssl) }
        func c<T>(_ symbol: String) throws(TLSError) -> T { try Self.resolve(symbol, in: crypto) }
        name = ssl.name
        serverMethod = try s("TLS_server_method")
        contextNew = try s("SSL_CTX_new")
        contextFree = try s("SSL_CTX_free")
        contextControl = try s("SSL_CTX_ctrl")
        contextSetOptions = try s("SSL_CTX_set_options")
        contextUseCertificate = try s("SSL_CTX_use_certificate")
        contextUsePrivateKey = try s("SSL_CTX_use_PrivateKey")
        contextCheckPrivateKey = try s("SSL_CTX_check_private_key")
        sslNew = try s("SSL_new")
        sslFree = try s("SSL_free")
        sslSetBIO = try s("SSL_set_bio")
        sslSetAcceptState = try s("SSL_set_accept_state")
        sslHandshake = try s("SSL_do_handshake")
        sslRead = try s("SSL_read")
        sslWrite = try s("SSL_write")
        sslGetError = try s("SSL_get_error")
        sslShutdown = try s("SSL_shutdown")
        sslVersion = try s("SSL_get_version")
        clientMethod = try s("TLS_client_method")
        contextSetVerify = try s("SSL_CTX_set_verify")
        contextSetDefaultVerifyPaths = try s("SSL_CTX_set_default_verify_paths")
        contextCertificateStore = try s("SSL_CTX_get_cert_store")
        sslSetConnectState = try s("SSL_set_connect_state")
        sslControl = try s("SSL_ctrl")
        sslSetHost = try s("SSL_set1_host")
        sslParameters = try s("SSL_get0_param")
        sslVerifyResult = try s("SSL_get_verify_result")

        memoryMethod = try c("BIO_s_mem")
        bioNew = try c("BIO_new")
        bioNewMemoryBuffer = try c("BIO_new_mem_buf")
        bioFree = try c("BIO_free")
        bioRead = try c("BIO_read")
        bioWrite = try c("BIO_write")
        bioPending = try c("BIO_ctrl_pending")
        errorGet = try c("ERR_get_error")
        errorClear = try c("ERR_clear_error")
        errorString = try c("ERR_error_string_n")
        parametersSetIP = try c("X509_VERIFY_PARAM_set1_ip_asc")
        parametersSetHostFlags = try c("X509_VERIFY_PARAM_set_hostflags")
        verifyErrorString = try c("X509_verify_cert_error_string")
        storeAddCertificate = try c("X509_STORE_add_cert")

        ecKeyNewByCurve = try c("EC_KEY_new_by_curve_name")
        ecKeyGenerate = try c("EC_KEY_generate_key")
        ecKeyFree = try c("EC_KEY_free")
        keyNew = try c("EVP_PKEY_new")
        keyAssign = try c("EVP_PKEY_assign")
        keyFree = try c("EVP_PKEY_free")
        sha256 = try c("EVP_sha256")
        x509New = try c("X509_new")
        x509Free = try c("X509_free")
        x509SetVersion = try c("X509_set_version")
        x509SerialNumber = try c("X509_get_serialNumber")
        integerSet = try c("ASN1_INTEGER_set")
        x509NotBefore = try c("X509_getm_notBefore")
        x509NotAfter = try c("X509_getm_notAfter")
        timeAdjust = try c("X509_gmtime_adj")
        x509SetPublicKey = try c("X509_set_pubkey")
        x509SubjectName = try c("X509_get_subject_name")
        x509SetIssuerName = try c("X509_set_issuer_name")
        nameAddEntry = try c("X509_NAME_add_entry_by_txt")
        extensionContextSet = try c("X509V3_set_ctx")
        extensionFromText = try c("X509V3_EXT_nconf")
        x509AddExtension = try c("X509_add_ext")
        extensionFree = try c("X509_EXTENSION_free")
        x509Sign = try c("X509_sign")
        pemWriteCertificate = try c("PEM_write_bio_X509")
        pemReadCertificate = try c("PEM_read_bio_X509")
        pemReadPrivateKey = try c("PEM_read_bio_PrivateKey")
    }

    private static func resolve<T>(_ symbol: String, in library: SharedLibrary) throws(TLSError) -> T {
        guard let function = library.function(symbol, as: T.self) else { throw .unavailable("\(library.name) lacks \(symbol)") }
        return function
    }

    /// OpenSSL's error queue of this thread as one line (and cleared), for a message.
    func errors() -> String {
        var lines: [String] = []
        while lines.count < 4 {
            let code = errorGet()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            errorString(code, &text, text.count)
            lines.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        errorClear()
        return lines.isEmpty ? "no detail from OpenSSL" : lines.joined(separator: "; ")
    }

    /// Everything a memory BIO holds, read out (PEM text written into it).
    func drain(_ bio: Object?) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bioPending(bio) > 0 {
            let count = chunk.withUnsafeMutableBytes { bioRead(bio, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<Int(count)])
        }
        return bytes
    }
}

/// Why HTTPS cannot be served or a backend reached over TLS: no usable OpenSSL on this machine, or a step of setting
/// it up or a handshake failed.
package enum TLSError: Error, Sendable, CustomStringConvertible {
    /// libssl is missing or lacks a function: `--https` cannot work here, plain HTTP still does.
    case unavailable(String)
    /// A certificate, key or context could not be made or loaded, or a client handshake failed (one line: why).
    case failed(String)

    package var description: String {
        switch self {
        case .unavailable(let reason) where reason == LibSSL.staticExecutableReason:
            "HTTPS cannot be served by this process: \(reason) (pass --https, or run sut-launch-foundation); plain HTTP works here"
        case .unavailable(let reason):
            "HTTPS needs OpenSSL's libssl (libssl.so.3 or libssl.so.1.1), which cannot be used here (\(reason)): "
                + "install the \(LibSSL.debianPackage) package (apt-get install \(LibSSL.debianPackage)); plain HTTP works without it"
        case .failed(let reason): reason
        }
    }
}
