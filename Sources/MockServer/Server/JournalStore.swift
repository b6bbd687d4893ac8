import AutomationSupport

/// The server's record of what it received, behind a lock of its own: the ``Journal`` (bounded in entries,
/// body bytes and memory), the request count, and the unexpected requests. Unexpected requests are kept
/// apart from the journal so none is lost when the journal drops old entries (strictness must not depend on
/// the journal's size); the first ``unexpectedDescribed`` are described.
///
/// The admin API's resets (`DELETE /__admin/requests`, `POST /__admin/reset`) clear what the admin API shows
/// (``entries``) and nothing else: the run's journal (``snapshot``, what `--journal` writes and scenario steps
/// read) and its request count keep every request the run received, so the program under test cannot erase
/// the evidence its run is judged on.
package final class JournalStore: @unchecked Sendable {
    /// Unexpected requests described in the summary; the others are counted.
    package static let unexpectedDescribed = 1_000

    private let lock = Lock()
    private var journal: Journal
    private var sequence = 0
    /// The last request cleared from the admin API's view by a reset (entries after it are shown).
    private var clearedThrough = 0
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
    /// - Parameters:
    ///   - programMapping: `stub` is a mapping the program under test added through the admin API.
    ///   - refused: the server refused the request before any stub or endpoint saw it (``JournalEntry/refused``).
    package func record(
        _ request: HTTPRequest, stub: Stub?, response: MockResponse, nearMiss: String?, programMapping: Bool = false,
        refused: Bool = false
    ) -> JournalEntry {
        let receivedAtMs = MonotonicClock.milliseconds() - startedAtMs
        return lock.withLock {
            sequence += 1
            var entry = JournalEntry(
                sequence: sequence, receivedAtMs: receivedAtMs, request: request, stubID: stub?.id, stubName: stub?.name,
                status: response.status, fault: response.fault?.rawValue, nearMiss: nearMiss)
            entry.notAnswered = stub != nil && response.unanswered != nil
            entry.programMapping = programMapping
            entry.refused = refused
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

    /// The run's journal now (a copy: later requests do not change it), resets through the admin API included.
    package var snapshot: Journal { lock.withLock { journal } }

    /// The entries the admin API shows now, in arrival order: those received since its last reset.
    package var entries: [JournalEntry] {
        lock.withLock {
            let floor = clearedThrough
            return journal.ordered.filter { $0.sequence > floor }
        }
    }

    /// What the journal dropped of the requests the admin API shows (those received since its last reset): how many,
    /// of how many received, and whether an unexpected one was among them. A search over the rest is no answer about
    /// them (r10a C6: a request the program made was counted 0 once 32 MiB of later uploads had pushed it out).
    package func droppedFromAdminView() -> (dropped: Int, received: Int, unexpected: Bool) {
        lock.withLock {
            let dropped = journal.firstSequence.map { max(0, $0 - 1 - clearedThrough) } ?? 0
            return (dropped, sequence - clearedThrough, journal.lastDroppedUnexpected > clearedThrough)
        }
    }

    /// Journal bounds, for messages: `10000 entries and 32 MiB`.
    package var boundsText: String {
        let (limit, bytes) = lock.withLock { (journal.limit, journal.byteBudget) }
        return "\(limit) entries and \(bytes >> 20) MiB of bodies and headers"
    }

    /// Requests received in all, the unexpected ones (described, and their total), and entries dropped.
    package func totals() -> (requests: Int, unexpected: [ServerSummary.UnexpectedRequest], unexpectedTotal: Int, dropped: Int) {
        lock.withLock { (sequence, unexpected, unexpectedTotal, journal.dropped) }
    }

    /// Empties the admin API's view of the journal (`DELETE /__admin/requests`, `POST /__admin/reset`); the run's
    /// journal keeps every entry, and requests go on being numbered from where they were (ids stay unique).
    package func removeAll() {
        lock.withLock { clearedThrough = sequence }
    }

    /// A header's value as the JSON renderings show it: `[redacted]` for a secret header unless secrets are kept.
    package func shownValue(of header: (name: String, value: String)) -> String {
        Journal.shownValue(of: header, secrets: keepsSecrets)
    }
}
