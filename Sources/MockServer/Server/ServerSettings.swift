import AutomationSupport

/// How the server was set up and what is hooked onto it, behind a lock of its own: the options and address
/// it was made with, the port it listens on, WireMock's global `fixedDelay`, and the callbacks (each request,
/// each unexpected request, the admin API's shutdown).
package final class ServerSettings: @unchecked Sendable {
    /// Admin API, journal and templating settings (fixed at creation).
    package let options: MockServer.Options
    /// The address the server listens on (the admin API also answers a `Host` naming it).
    package let host: String
    /// Who may have requests forwarded to a real backend (``ForwardingPolicy``).
    let forwarding: ForwardingPolicy

    private let lock = Lock()
    private var port: UInt16 = 0
    private var globalDelayMs = 0
    private var observer: (@Sendable (JournalEntry) -> Void)?
    private var unexpectedObserver: (@Sendable (HTTPRequest) -> Void)?
    private var shutdownHandler: (@Sendable () -> Void)?

    package init(host: String, options: MockServer.Options) {
        self.host = host
        self.options = options
        self.forwarding = ForwardingPolicy(serverHost: host, options: options)
    }

    /// The port it listens on, once started (an `Origin` must name it); 0 before.
    package var listeningPort: UInt16 {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }

    /// WireMock's global `fixedDelay` (`POST /__admin/settings`), added to every stub's answer.
    package var fixedDelayMs: Int {
        get { lock.withLock { globalDelayMs } }
        set { lock.withLock { globalDelayMs = newValue } }
    }

    /// What one answer needs: the global delay and the observer of answered requests.
    package func forAnswer() -> (fixedDelayMs: Int, observer: (@Sendable (JournalEntry) -> Void)?) {
        lock.withLock { (globalDelayMs, observer) }
    }

    /// Called after each request is answered.
    package var onRequest: (@Sendable (JournalEntry) -> Void)? {
        get { lock.withLock { observer } }
        set { lock.withLock { observer = newValue } }
    }

    /// Called for every request no stub matched.
    package var onUnexpected: (@Sendable (HTTPRequest) -> Void)? {
        get { lock.withLock { unexpectedObserver } }
        set { lock.withLock { unexpectedObserver = newValue } }
    }

    /// What `POST /__admin/shutdown` does once its answer is out.
    package var onShutdown: (@Sendable () -> Void)? {
        get { lock.withLock { shutdownHandler } }
        set { lock.withLock { shutdownHandler = newValue } }
    }
}
