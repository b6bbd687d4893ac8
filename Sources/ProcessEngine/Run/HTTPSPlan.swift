import AutomationSupport
package import MockServer

/// How a mock server speaks HTTPS (`--https`): a certificate minted for the run, valid for localhost, 127.0.0.1,
/// ::1 and ``hosts``; or the user's own certificate and key (PEM, read when the plan was built).
package struct HTTPSPlan: Sendable, Hashable {
    /// Extra names the minted certificate is valid for (`--https-host`).
    package var hosts: [String] = []
    /// The user's certificate (then any chain certificates) and unencrypted key, PEM (`--https-cert FILE`,
    /// `--https-key FILE`); both nil: mint one.
    package var certificate: NamedPEM?
    package var key: NamedPEM?

    /// A PEM file's bytes and how the user named it, for messages.
    package struct NamedPEM: Sendable, Hashable {
        package var bytes: [UInt8]
        package var name: String
        package init(bytes: [UInt8], name: String) {
            self.bytes = bytes
            self.name = name
        }
    }

    /// Hosts the program reaches through the mock server's proxy listener (`--intercept`), answered with a
    /// certificate minted for them; empty: no proxy.
    package var intercept: [String] = []
    /// The server's own port speaks TLS (`--https`); false when only interception asked for TLS (the server's
    /// port stays plain HTTP, the tunnels speak TLS).
    package var listensWithTLS = true

    package init(hosts: [String] = [], intercept: [String] = [], listensWithTLS: Bool = true) {
        self.hosts = hosts
        self.intercept = intercept
        self.listensWithTLS = listensWithTLS
    }

    /// A plan that adds `hosts` to interception: `base` (nil: the server's port stays plain HTTP) with them.
    package static func intercepting(_ hosts: [String], base: HTTPSPlan?) -> HTTPSPlan {
        var plan = base ?? HTTPSPlan(listensWithTLS: false)
        for host in hosts where !plan.intercept.contains(host.lowercased()) { plan.intercept.append(host.lowercased()) }
        return plan
    }

    /// Why the user's certificate and key do not load (not PEM, not a pair, an encrypted key), or nil: checked when
    /// the plan is built, so bad content is exit 3 as any bad input file is. Nil too when no libssl is found: that
    /// is said when the server starts (exit 125).
    package var contentProblem: String? {
        guard let certificate, let key else { return nil }
        do {
            _ = try TLSServerContext.loaded(certificatePEM: certificate.bytes, keyPEM: key.bytes)
            return nil
        } catch TLSError.unavailable {
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The TLS context this plan asks for, or the one line saying why there is none (no libssl: the package to
    /// install; a certificate or key that does not load: which and why).
    package func context() -> Result<TLSServerContext, UsageError> {
        if let (host, problem) = intercept.lazy.compactMap({ host in Interception.hostProblem(host).map { (host, $0) } }).first {
            return .failure(UsageError("--intercept \(String(host.prefix(80)).escapingControlCharacters()): \(problem)"))
        }
        do {
            if let certificate, let key {
                return .success(try TLSServerContext.loaded(certificatePEM: certificate.bytes, keyPEM: key.bytes))
            }
            return .success(try TLSServerContext.minted(hosts: hosts + intercept.filter { !hosts.contains($0) }))
        } catch TLSError.unavailable(let reason) {
            return .failure(UsageError("\(option): \(TLSError.unavailable(reason))"))
        } catch {
            let source = certificate.map { " (\($0.name))" } ?? ""
            return .failure(UsageError("\(option): cannot serve HTTPS\(source): \(error)"))
        }
    }

    /// The option that asked for TLS, for messages.
    package var option: String { listensWithTLS ? "--https" : "--intercept" }
}
