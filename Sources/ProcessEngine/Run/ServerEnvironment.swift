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

    package init() {}

    /// The variables of `server` and its trust files (either may be nil).
    package init(server: MockServer?, trust: TrustFiles?) {
        variables = trust?.environment ?? [:]
        // Always the server's own channel (``MockServer/controlURL``): plain HTTP also under HTTPS (r6a-12: the Host
        // library sent plain HTTP to the `https://` URL, and nothing arrived), and named, so a program left from an
        // earlier run whose port this server was given takes none of this run's messages.
        if let server { variables[WireFormat.controlURLVariable] = server.controlURL }
        guard let server, let proxy = server.proxyURL else { return }
        for name in Self.proxyVariables { variables[name] = proxy }
        variables[Self.proxyURLVariable] = proxy
        intercepted = server.interceptedHosts
    }
}
