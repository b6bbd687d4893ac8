import AutomationSupport

/// OpenSSL's functions the TLS layer calls, resolved at run time from the system's `libssl` and `libcrypto`
/// (3.x, then 1.1): no header and no package at build time. Each field's type is the C declaration, written
/// here; the two versions agree on every one of them (macros of either, such as `SSL_CTX_set_min_proto_version`,
/// are reached through the functions they expand to).
struct LibSSL: @unchecked Sendable {
    typealias Object = OpaquePointer
    /// `pem_password_cb`: asked for a key's passphrase.
    typealias PasswordCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    /// `SSL_verify_cb`: never set here (OpenSSL's own verification decides).
    typealias VerifyCallback = @convention(c) (Int32, Object?) -> Int32

    /// The library names tried, in order, and the Debian package that provides the first.
    static let candidates = [("libssl.so.3", "libcrypto.so.3"), ("libssl.so.1.1", "libcrypto.so.1.1")]
    static let debianPackage = "libssl3"

    /// `libssl.so.3` or `libssl.so.1.1`.
    let name: String

    // libssl
    let serverMethod: @convention(c) () -> Object?
    let contextNew: @convention(c) (Object?) -> Object?
    let contextFree: @convention(c) (Object?) -> Void
    let contextControl: @convention(c) (Object?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let contextSetOptions: @convention(c) (Object?, UInt64) -> UInt64
    let contextUseCertificate: @convention(c) (Object?, Object?) -> Int32
    let contextUsePrivateKey: @convention(c) (Object?, Object?) -> Int32
    let contextCheckPrivateKey: @convention(c) (Object?) -> Int32
    let sslNew: @convention(c) (Object?) -> Object?
    let sslFree: @convention(c) (Object?) -> Void
    let sslSetBIO: @convention(c) (Object?, Object?, Object?) -> Void
    let sslSetAcceptState: @convention(c) (Object?) -> Void
    let sslHandshake: @convention(c) (Object?) -> Int32
    let sslRead: @convention(c) (Object?, UnsafeMutableRawPointer?, Int32) -> Int32
    let sslWrite: @convention(c) (Object?, UnsafeRawPointer?, Int32) -> Int32
    let sslGetError: @convention(c) (Object?, Int32) -> Int32
    let sslShutdown: @convention(c) (Object?) -> Int32
    let sslVersion: @convention(c) (Object?) -> UnsafePointer<CChar>?

    // libssl: the client side (TLSConnection+Client, TLSClientContext)
    let clientMethod: @convention(c) () -> Object?
    let contextSetVerify: @convention(c) (Object?, Int32, VerifyCallback?) -> Void
    let contextSetDefaultVerifyPaths: @convention(c) (Object?) -> Int32
    let contextCertificateStore: @convention(c) (Object?) -> Object?
    let sslSetConnectState: @convention(c) (Object?) -> Void
    let sslControl: @convention(c) (Object?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let sslSetHost: @convention(c) (Object?, UnsafePointer<CChar>?) -> Int32
    let sslParameters: @convention(c) (Object?) -> Object?
    let sslVerifyResult: @convention(c) (Object?) -> Int

    // libcrypto: memory BIOs and errors
    let memoryMethod: @convention(c) () -> Object?
    let bioNew: @convention(c) (Object?) -> Object?
    let bioNewMemoryBuffer: @convention(c) (UnsafeRawPointer?, Int32) -> Object?
    let bioFree: @convention(c) (Object?) -> Int32
    let bioRead: @convention(c) (Object?, UnsafeMutableRawPointer?, Int32) -> Int32
    let bioWrite: @convention(c) (Object?, UnsafeRawPointer?, Int32) -> Int32
    let bioPending: @convention(c) (Object?) -> Int
    let errorGet: @convention(c) () -> UInt
    let errorClear: @convention(c) () -> Void
    let errorString: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void

    // libcrypto: verification
    let parametersSetIP: @convention(c) (Object?, UnsafePointer<CChar>?) -> Int32
    let parametersSetHostFlags: @convention(c) (Object?, UInt32) -> Void
    let verifyErrorString: @convention(c) (Int) -> UnsafePointer<CChar>?
    let storeAddCertificate: @convention(c) (Object?, Object?) -> Int32

    // libcrypto: keys, certificates, PEM
    let ecKeyNewByCurve: @convention(c) (Int32) -> Object?
    let ecKeyGenerate: @convention(c) (Object?) -> Int32
    let ecKeyFree: @convention(c) (Object?) -> Void
    let keyNew: @convention(c) () -> Object?
    let keyAssign: @convention(c) (Object?, Int32, UnsafeMutableRawPointer?) -> Int32
    let keyFree: @convention(c) (Object?) -> Void
    let sha256: @convention(c) () -> Object?
    let x509New: @convention(c) () -> Object?
    let x509Free: @convention(c) (Object?) -> Void
    let x509SetVersion: @convention(c) (Object?, Int) -> Int32
    let x509SerialNumber: @convention(c) (Object?) -> Object?
    let integerSet: @convention(c) (Object?, Int) -> Int32
    let x509NotBefore: @convention(c) (Object?) -> Object?
    let x509NotAfter: @convention(c) (Object?) -> Object?
    let timeAdjust: @convention(c) (Object?, Int) -> Object?
    let x509SetPublicKey: @convention(c) (Object?, Object?) -> Int32
    let x509SubjectName: @convention(c) (Object?) -> Object?
    let x509SetIssuerName: @convention(c) (Object?, Object?) -> Int32
    let nameAddEntry: @convention(c) (Object?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt8>?, Int32, Int32, Int32) -> Int32
    let extensionContextSet: @convention(c) (UnsafeMutableRawPointer?, Object?, Object?, Object?, Object?, Int32) -> Void
    let extensionFromText: @convention(c) (Object?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Object?
    let x509AddExtension: @convention(c) (Object?, Object?, Int32) -> Int32
    let extensionFree: @convention(c) (Object?) -> Void
    let x509Sign: @convention(c) (Object?, Object?, Object?) -> Int32
    let pemWriteCertificate: @convention(c) (Object?, Object?) -> Int32
    let pemReadCertificate: @convention(c) (Object?, UnsafeMutablePointer<Object?>?, PasswordCallback?, UnsafeMutableRawPointer?) -> Object?
    let pemReadPrivateKey: @convention(c) (Object?, UnsafeMutablePointer<Object?>?, PasswordCallback?, UnsafeMutableRawPointer?) -> Object?

    /// The system's OpenSSL, loaded once per process; or why there is none.
    static let shared: Result<LibSSL, TLSError> = load()

    /// Why this process cannot load OpenSSL at all: it is one static executable (``SharedLibrary/inStaticExecutable``).
    static let staticExecutableReason =
        "this sut-launch is one static executable, which cannot load libssl safely; sut-launch-foundation, installed beside it (scripts/build-release.sh builds it with a dynamic C library), serves HTTPS"

    private static func load() -> Result<LibSSL, TLSError> {
        if SharedLibrary.inStaticExecutable { return .failure(.unavailable(staticExecutableReason)) }
        for (ssl, crypto) in candidates {
            // libssl needs its own libcrypto: open the pair, never a mix of versions.
            guard let crypto = SharedLibrary.open(firstOf: [crypto]), let ssl = SharedLibrary.open(firstOf: [ssl]) else { continue }
            do {
                return .success(try LibSSL(ssl: ssl, crypto: crypto))
            } catch {
                return .failure(error)
            }
        }
        return .failure(.unavailable("no libssl.so.3 or libssl.so.1.1 found"))
    }
}
