import AutomationSupport

/// What the server forwarded to real backends: each exchange (what recordings and snapshots are made of), bounded in
/// count and bytes, the forwards that failed (failures of the run), and the recording in progress.
final class ProxyLog: @unchecked Sendable {
    /// One request forwarded and the backend's answer.
    struct Exchange: Sendable {
        /// Its place among every exchange forwarded (from 1).
        let sequence: Int
        let request: HTTPRequest
        let answer: UpstreamAnswer
    }

    /// A recording: where unmatched requests go, what to make of them, and from which exchange on.
    struct Recording: Sendable {
        var rule: ProxyRule
        var spec: RecordSpec
        /// The first exchange that belongs to it.
        var since: Int
    }

    /// `NeverStarted`, `Recording` or `Stopped`, as WireMock's `/__admin/recordings/status` says.
    enum Status: String, Sendable {
        case neverStarted = "NeverStarted"
        case recording = "Recording"
        case stopped = "Stopped"
    }

    static let maxExchanges = 100_000
    static let maxBytes = 512 * 1024 * 1024
    /// Failures described; the others are counted.
    static let described = 100

    /// Deadlines and sizes of each forward (with `--record-insecure` or extra trust when the command line says so).
    let limits: UpstreamClient.Limits
    /// Where requests no stub matched go (`--proxy-unmatched`); a recording's target comes first.
    let unmatched: ProxyRule?
    /// This server's `Via` token: loops back to it are answered 508, never forwarded again.
    let loop = ProxyLoop()

    private let lock = Lock()
    private var exchanges: [Exchange] = []
    private var sequence = 0
    private var bytes = 0
    private var failures: [String] = []
    private var failureTotal = 0
    private var recording: Recording?
    private var everRecorded = false

    init(limits: UpstreamClient.Limits, unmatched: ProxyRule?) {
        self.limits = limits
        self.unmatched = unmatched
    }

    /// Keeps an exchange; the oldest go when the bounds are passed (a recording that lost some says so when stopped).
    func add(_ request: HTTPRequest, _ answer: UpstreamAnswer) {
        lock.withLock {
            sequence += 1
            exchanges.append(Exchange(sequence: sequence, request: request, answer: answer))
            bytes += Self.size(request, answer)
            var dropCount = 0
            while exchanges.count - dropCount > Self.maxExchanges || (bytes > Self.maxBytes && exchanges.count - dropCount > 1) {
                bytes -= Self.size(exchanges[dropCount].request, exchanges[dropCount].answer)
                dropCount += 1
            }
            if dropCount > 0 { exchanges.removeFirst(dropCount) }
        }
    }

    private static func size(_ request: HTTPRequest, _ answer: UpstreamAnswer) -> Int {
        request.body.count + answer.body.count + request.target.utf8.count + 512
    }

    /// Records a forward that got no answer: a failure of the run, named in its summary.
    func failed(_ line: String) {
        lock.withLock {
            failureTotal += 1
            if failures.count < Self.described { failures.append(line) }
        }
    }

    /// One line per failure, then how many more.
    var report: [String] {
        lock.withLock {
            failures + (failureTotal > failures.count ? ["\(failureTotal - failures.count) more forwards to a backend failed"] : [])
        }
    }

    /// Where a request no stub matched goes: the recording's target, else `--proxy-unmatched`'s; nil: nowhere (404).
    var fallback: ProxyRule? { lock.withLock { recording?.rule ?? unmatched } }

    var status: Status { lock.withLock { recording != nil ? .recording : everRecorded ? .stopped : .neverStarted } }

    /// Starts a recording; false when one is already running.
    func start(_ rule: ProxyRule, spec: RecordSpec) -> Bool {
        lock.withLock {
            guard recording == nil else { return false }
            recording = Recording(rule: rule, spec: spec, since: sequence + 1)
            everRecorded = true
            return true
        }
    }

    /// Ends the recording: its spec and exchanges, and how many of them were dropped to stay within the bounds; nil
    /// when none was running.
    func stop() -> (spec: RecordSpec, exchanges: [Exchange], lost: Int)? {
        lock.withLock {
            guard let current = recording else { return nil }
            recording = nil
            let kept = exchanges.filter { $0.sequence >= current.since }
            let lost = (sequence - current.since + 1) - kept.count
            return (current.spec, kept, lost)
        }
    }

    /// Every exchange kept (a snapshot's input).
    var all: [Exchange] { lock.withLock { exchanges } }
}
