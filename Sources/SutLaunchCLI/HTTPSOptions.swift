import AutomationSupport
import MockServer
import ProcessEngine

/// `--https`, `--https-host`, `--https-cert` and `--https-key`, as `run` and `serve` take them: checked together
/// when parsed (no file read), then read into an ``HTTPSPlan`` when the plan is built.
package struct HTTPSOptions: Sendable {
    package var enabled = false
    package var hosts: [String] = []
    package var certificate: RunOptions.NamedFile?
    package var key: RunOptions.NamedFile?
    /// `--intercept HOST`: hosts the program reaches through the mock server as its proxy.
    package var intercept: [String] = []
    /// Where the first `--intercept` stood, for messages.
    var interceptOrigin: String?
    /// Where each option stood, for messages: the first `--https-host`, `--https-cert` and `--https-key`.
    var hostOrigin: String?

    package init() {}

    /// The spec lines both commands list (their enums name these cases).
    static let httpsSpec = OptionSpec(
        "--https",
        help: "the mock server speaks HTTPS (TLS 1.2/1.3) with a CA minted for the run, trusted by the program (SSL_CERT_FILE...)")
    static let hostSpec = OptionSpec(
        "--https-host", value: "NAME",
        help: "another name or IP address the minted certificate is valid for (besides localhost, 127.0.0.1, ::1); repeatable")
    static let certificateSpec = OptionSpec(
        "--https-cert", value: "FILE", help: "serve this PEM certificate (then its chain) instead of a minted one; needs --https-key")
    static let keySpec = OptionSpec("--https-key", value: "FILE", help: "the unencrypted PEM private key of --https-cert")
    static let interceptSpec = OptionSpec(
        "--intercept", value: "HOST",
        help: "answer requests to HOST (a name, *.name or an address) here: the program gets HTTPS_PROXY/HTTP_PROXY; repeatable")

    /// `--intercept HOST`: a name the minted certificate can hold; never a port or a URL.
    mutating func addIntercepted(_ value: String, spelling: String, index: Int) throws(UsageError) {
        if let problem = Interception.hostProblem(value) {
            throw UsageError(.invalidPattern(spelling, value: String(value.prefix(80)), problem: problem))
        }
        if interceptOrigin == nil { interceptOrigin = "\(spelling) \(value) (argument \(index))" }
        guard intercept.count < TLSServerContext.hostLimit else {
            throw UsageError(
                .invalidPattern(spelling, value: String(value.prefix(80)), problem: "at most \(TLSServerContext.hostLimit) hosts"))
        }
        if !intercept.contains(value.lowercased()) { intercept.append(value.lowercased()) }
    }

    /// `--https-host NAME`: a DNS name (`*.` may lead) or an IP address, nothing that could add a name of its own.
    mutating func addHost(_ value: String, spelling: String, index: Int) throws(UsageError) {
        if let problem = TLSServerContext.hostProblem(value) {
            throw UsageError(.invalidPattern(spelling, value: String(value.prefix(80)), problem: problem))
        }
        if hostOrigin == nil { hostOrigin = "\(spelling) \(value) (argument \(index))" }
        guard hosts.count < TLSServerContext.hostLimit else {
            throw UsageError(
                .invalidPattern(spelling, value: String(value.prefix(80)), problem: "at most \(TLSServerContext.hostLimit) names"))
        }
        hosts.append(value)
    }

    /// The options' combinations: each needs `--https`, a certificate needs its key (and the reverse), and names
    /// for a minted certificate mean nothing beside the user's own.
    func check() throws(UsageError) {
        let given = [(hostOrigin, "--https-host"), (certificate?.spelling, "--https-cert"), (key?.spelling, "--https-key")]
        if !enabled, let (_, name) = given.first(where: { $0.0 != nil }) { throw UsageError(.httpsOptionNeedsHTTPS(name)) }
        if (certificate == nil) != (key == nil) {
            throw UsageError(
                certificate == nil
                    ? .httpsPair(given: "--https-key", missing: "--https-cert") : .httpsPair(given: "--https-cert", missing: "--https-key"))
        }
        if certificate != nil, let hostOrigin { throw UsageError(.httpsHostWithOwnCertificate(hostOrigin)) }
        if certificate != nil, let interceptOrigin { throw UsageError(.interceptWithOwnCertificate(interceptOrigin)) }
    }

    /// True when the mock server needs TLS: `--https`, or hosts to intercept.
    var needsTLS: Bool { enabled || !intercept.isEmpty }

    /// The plan, reading the certificate and key when given; nil without `--https` or `--intercept`. A minted certificate is valid
    /// for the server's own address too (`--host 127.0.0.2`): the URL the program gets names it.
    /// - Throws: ``UsageError`` (exit 2) for a file that cannot be read, ``InputError`` (exit 3) for a certificate
    ///   or key that does not load.
    func plan(serverHost: String, readFile: (String) throws -> String) throws -> HTTPSPlan? {
        if let own = intercept.first(where: { Interception.normalized($0) == Interception.normalized(serverHost) }) {
            throw UsageError(
                .invalidPattern(
                    "--intercept", value: own,
                    problem: "it is the mock server's own address (--host): clients reach it directly, never by the proxy"))
        }
        guard enabled else { return intercept.isEmpty ? nil : HTTPSPlan.intercepting(intercept, base: nil) }
        let own = TLSServerContext.hostProblem(serverHost) == nil && !hosts.contains(serverHost) ? [serverHost] : []
        var plan = HTTPSPlan(hosts: hosts + own, intercept: intercept)
        if let certificate, let key {
            plan.certificate = try Self.read(certificate, readFile)
            plan.key = try Self.read(key, readFile)
            for (file, read) in [(certificate, plan.certificate), (key, plan.key)] {
                if let bytes = read?.bytes, let stray = PEMLayout.strayLine(in: bytes) {
                    throw InputError(file: file.path, line: stray.line, "\(file.spelling): \(PEMLayout.refusal(stray))")
                }
            }
            if let problem = plan.contentProblem {
                throw InputError(file: certificate.path, "\(certificate.spelling) with \(key.spelling) \(key.path): \(problem)")
            }
        }
        return plan
    }

    private static func read(_ file: RunOptions.NamedFile, _ readFile: (String) throws -> String) throws(UsageError) -> HTTPSPlan.NamedPEM {
        do {
            return HTTPSPlan.NamedPEM(bytes: Array(try readFile(file.path).utf8), name: "\(file.spelling) \(file.path)")
        } catch {
            throw UsageError(.cannotRead(file.spelling, path: file.path, reason: RunCommand.describe(error)))
        }
    }
}
