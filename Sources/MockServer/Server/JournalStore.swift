import AutomationSupport

/// The server's record of what it received, behind a lock of its own: the ``Journal`` (bounded in entries,
/// body bytes and memory), the request count, and the unexpected requests. Unexpected requests are kept
/// apart from the journal so none is lost when the journal drops old entries (strictness must not depend on
/// the journal's size); the first ``unexpectedDescribed`` are described.
package final class JournalStore: @unchecked Sendable {
    /// Unexpected requests described in the summary; the others are counted.
    package static let unexpectedDescribed = 1_000

    private let lock = Lock()
    private var journal: Journal
    private var sequence = 0
    private var unexpected: [ServerSummary.UnexpectedRequest] = []
    private var unexpectedTotal = 0
    /// When the server started, in MonotonicClock milliseconds (entries' `receivedAtMs` count from it).
    package let startedAtMs = MonotonicClock.milliseconds()
    /// Keep `Authorization`, `Cookie` and `Proxy-Authorization` values in JSON renderings (else `[redacted]`).
    package let keepsSecrets: Bool
    /// Webhooks sent after answers: in flight, and those that failed.
    let webhooks = WebhookLog()

    package init(limit: Int, keepsSecrets: Bool) {
        journal = Journal(limit: limit)
        self.keepsSecrets = keepsSecrets
    }

    /// Records an answered request: its entry (numbered in arrival order), with `nearMiss` for an
    /// unexpected one.
    package func record(_ request: HTTPRequest, stub: Stub?, response: MockResponse, nearMiss: String?) -> JournalEntry {
        let receivedAtMs = MonotonicClock.milliseconds() - startedAtMs
        return lock.withLock {
            sequence += 1
            let entry = JournalEntry(
                sequence: sequence, receivedAtMs: receivedAtMs, request: request, stubID: stub?.id, stubName: stub?.name,
                status: response.status, fault: response.fault?.rawValue, nearMiss: nearMiss)
            if let nearMiss {
                unexpectedTotal += 1
                if unexpected.count < Self.unexpectedDescribed {
                    unexpected.append(ServerSummary.UnexpectedRequest(method: request.method, url: request.target, nearMiss: nearMiss))
                }
            }
            journal.append(entry)
            return entry
        }
    }

    /// The journal now (a copy: later requests do not change it).
    package var snapshot: Journal { lock.withLock { journal } }

    /// The entries now, in arrival order.
    package var entries: [JournalEntry] { lock.withLock { journal.ordered } }

    /// Requests received in all, the unexpected ones (described, and their total), and entries dropped.
    package func totals() -> (requests: Int, unexpected: [ServerSummary.UnexpectedRequest], unexpectedTotal: Int, dropped: Int) {
        lock.withLock { (sequence, unexpected, unexpectedTotal, journal.dropped) }
    }

    /// Empties the journal; requests go on being numbered from where they were (`DELETE /__admin/requests`).
    package func removeAll() {
        lock.withLock { journal.removeAll() }
    }

    /// Empties the journal and numbers requests from 1 again (`POST /__admin/reset`); unexpected requests
    /// already counted stay counted.
    package func reset() {
        lock.withLock {
            journal.removeAll()
            sequence = 0
        }
    }

    /// A header's value as the JSON renderings show it: `[redacted]` for a secret header unless secrets are kept.
    package func shownValue(of header: (name: String, value: String)) -> String {
        Journal.shownValue(of: header, secrets: keepsSecrets)
    }
}
