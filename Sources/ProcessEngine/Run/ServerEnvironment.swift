import AutomationHost
package import MockServer

/// What a running mock server adds to its program's environment: the variables that make the program trust its
/// authority (``TrustFiles``), and with interception the proxy variables naming its proxy listener; the hosts
/// intercepted are never left in the proxy exclusions (``LaunchPlan/proxyExclusions(lower:upper:serverURL:intercepted:)``).
package struct ServerEnvironment: Sendable {
    package var variables: [String: String] = [:]
    /// The hosts the server's proxy listener answers for.
    package var intercepted: [String] = []

    /// The proxy variables curl, Python, Go, Node.js libraries and git read, in both spellings.
    package static let proxyVariables = ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"]
    /// The variable naming the proxy listener for the program's own code (and `${SUT_MOCK_PROXY_URL}` in steps).
    package static let proxyURLVariable = "SUT_MOCK_PROXY_URL"

    /// Nothing: no server, or a plain one.
    package static let none = ServerEnvironment()

    /// The control channel's URL for a server at `baseURL`: the same for plain HTTP; for HTTPS the same host and
    /// port spoken to in plain HTTP, which the server answers for the control channel only and from peers
    /// on this machine only: the Host library speaks no TLS (r6a-12: it sent plain HTTP to the `https://` URL, and nothing arrived).
    package static func controlURL(_ baseURL: String) -> String {
        baseURL.hasPrefix("https://") ? "http://" + baseURL.dropFirst("https://".count) : baseURL
    }

    package init() {}

    /// The variables of `server` and its trust files (either may be nil).
    package init(server: MockServer?, trust: TrustFiles?) {
        variables = trust?.environment ?? [:]
        if let server, server.baseURL.hasPrefix("https://") {
            variables[WireFormat.controlURLVariable] = Self.controlURL(server.baseURL)
        }
        guard let server, let proxy = server.proxyURL else { return }
        for name in Self.proxyVariables { variables[name] = proxy }
        variables[Self.proxyURLVariable] = proxy
        intercepted = server.interceptedHosts
    }
}
