/// The limits that keep a slow or hostile client from stalling the server; each breach gets its status code.
public struct ServerLimits: Sendable, Hashable {
    /// Request line plus header fields, in bytes (431 beyond).
    public var maxHeaderBytes = 16 * 1024
    /// Request body, in bytes (413 beyond).
    public var maxBodyBytes = 16 * 1024 * 1024
    /// Time to receive a complete request head once it has started (408 after).
    public var headerTimeoutMs = 10_000
    /// Time to receive the body once the head is in (408 after).
    public var bodyTimeoutMs = 30_000
    /// An idle keep-alive connection is closed after this.
    public var idleTimeoutMs = 60_000
    /// The write deadline: how long the server waits, in all, for a client to take one answer's bytes (every piece of a
    /// streamed one); then the connection closes.
    public var sendTimeoutMs = 30_000
    /// Open connections at once; more are answered 503 and closed.
    public var maxConnections = 1024

    /// The documented defaults.
    public init() {}
}
