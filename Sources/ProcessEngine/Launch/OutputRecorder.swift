import AutomationSupport
import Dispatch

/// Which output stream of the program.
public enum StandardStream: String, Sendable, Hashable, CaseIterable {
    case stdout, stderr
}

/// What a program printed: byte counts, the last bytes of each stream, and (optionally) everything, up to a cap.
///
/// Safe to read from any thread while the program runs.
package final class OutputRecorder: Sendable {
    struct Stream {
        var byteCount = 0
        var tail: [UInt8] = []
        var captured: [UInt8] = []
        /// When the captured bytes arrived: chunk ends (offsets into `captured`) with their monotonic time.
        var arrivals: [(end: Int, atMs: Double)] = []
        /// The bytes past `captured`, on disk (from stream offset ``captureLimit``), when a spool directory was given.
        var spool: SpoolFile?
        /// The stream offset from which bytes were kept nowhere (the spool's limit reached, or it failed); nil: all kept.
        var lostFrom: Int?
    }
    /// Arrivals kept per stream; beyond, every second one is dropped (a byte then carries the time of a
    /// later chunk: "arrived by then").
    static let arrivalLimit = 65_536
    // Plain fields, not dictionaries keyed by stream: a launch pays for every generic type it instantiates
    // first (~20 µs each in the static binary), and this state is made once per launch.
    struct State {
        package var stdout = Stream()
        var stderr = Stream()
        var truncated = false
        var finished = false
        var observers: [(token: Int, observer: @Sendable () -> Void)] = []
        var nextObserver = 0

        subscript(stream: StandardStream) -> Stream {
            get { stream == .stdout ? stdout : stderr }
            set { if stream == .stdout { stdout = newValue } else { stderr = newValue } }
        }
    }

    let state = Locked(State())
    /// How many bytes of each stream ``tail(_:)`` keeps.
    package let tailLimit: Int
    /// How many bytes of each stream ``captured(_:)`` keeps (0: capture nothing but the tail).
    package let captureLimit: Int
    /// Where bytes past ``captureLimit`` go (an unlinked file per stream), so steps read the whole stream; nil: nowhere.
    let spoolDirectory: String?
    /// How many bytes of each stream the spool keeps; past it, readers are told the stream was cut (``read(_:from:limit:)``).
    package let spoolLimit: Int

    /// A recorder keeping `tailLimit` bytes of each stream's end and `captureLimit` bytes of its start.
    package convenience init(tailLimit: Int = 64 * 1024, captureLimit: Int = 0) {
        self.init(tailLimit: tailLimit, captureLimit: captureLimit, spoolDirectory: nil)
    }

    /// A recorder that also keeps up to `spoolLimit` bytes past `captureLimit` of each stream in `spoolDirectory`.
    package init(tailLimit: Int = 64 * 1024, captureLimit: Int, spoolDirectory: String?, spoolLimit: Int = 1 << 30) {
        self.tailLimit = tailLimit
        self.captureLimit = captureLimit
        self.spoolDirectory = spoolDirectory
        self.spoolLimit = spoolLimit
    }

    func record(_ bytes: UnsafeBufferPointer<UInt8>, from stream: StandardStream) {
        let now = captureLimit > 0 ? MonotonicClock.milliseconds() : 0
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            let tailLimit = tailLimit
            let captureLimit = captureLimit
            func update(_ recorded: inout Stream) -> Bool {
                recorded.byteCount += bytes.count
                recorded.tail.append(contentsOf: bytes)
                if recorded.tail.count > tailLimit { recorded.tail.removeFirst(recorded.tail.count - tailLimit) }
                guard captureLimit > 0 else { return false }
                let room = captureLimit - recorded.captured.count
                if room > 0 { recorded.captured.append(contentsOf: bytes.prefix(room)) }
                // Times for every byte, spooled ones too (waitFor orders output past the memory capture).
                recorded.arrivals.append((recorded.byteCount, now))
                if recorded.arrivals.count > Self.arrivalLimit {
                    recorded.arrivals = recorded.arrivals.indices.filter { $0 % 2 == 1 || $0 == recorded.arrivals.count - 1 }.map {
                        recorded.arrivals[$0]
                    }
                }
                if room < bytes.count { spill(UnsafeBufferPointer(rebasing: bytes[max(room, 0)...]), into: &recorded) }
                return room < bytes.count
            }
            if stream == .stdout ? update(&state.stdout) : update(&state.stderr) { state.truncated = true }
            return state.observers.map(\.observer)
        }
        observers.forEach { $0() }
    }

    /// Keeps bytes past the capture in the spool, up to ``spoolLimit``; marks where keeping stopped.
    private func spill(_ bytes: UnsafeBufferPointer<UInt8>, into recorded: inout Stream) {
        guard recorded.lostFrom == nil else { return }
        let start = recorded.byteCount - bytes.count // the stream offset of bytes[0]
        if recorded.spool == nil, let directory = spoolDirectory { recorded.spool = SpoolFile(in: directory) }
        guard let spool = recorded.spool else {
            recorded.lostFrom = start
            return
        }
        let fits = min(bytes.count, max(0, spoolLimit - spool.count))
        if !spool.append(UnsafeBufferPointer(rebasing: bytes[..<fits])) {
            recorded.lostFrom = captureLimit + spool.count
            return
        }
        if fits < bytes.count { recorded.lostFrom = start + fits }
    }

    func markFinished() {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            state.finished = true
            return state.observers.map(\.observer)
        }
        observers.forEach { $0() }
    }

    /// Bytes the stream carried so far.
    package func byteCount(_ stream: StandardStream) -> Int { state.withLock { $0[stream].byteCount } }

    /// The last ``tailLimit`` bytes of the stream.
    package func tail(_ stream: StandardStream) -> [UInt8] { state.withLock { $0[stream].tail } }

    /// Everything captured from the stream (up to ``captureLimit``).
    package func captured(_ stream: StandardStream) -> [UInt8] { state.withLock { $0[stream].captured } }

    /// When the byte at `offset` of the stream arrived (monotonic milliseconds, AutomationSupport's
    /// MonotonicClock); nil beyond what has arrived.
    package func arrival(ofByteAt offset: Int, on stream: StandardStream) -> Double? {
        state.withLock { state in
            let arrivals = state[stream].arrivals
            var low = 0
            var high = arrivals.count
            while low < high {
                let middle = (low + high) / 2
                if arrivals[middle].end > offset { high = middle } else { low = middle + 1 }
            }
            return low < arrivals.count ? arrivals[low].atMs : nil
        }
    }

    /// True once both streams reached end of file (or the launcher stopped reading them).
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// The last `count` lines of the stream, as text (invalid UTF-8 repaired).
    package func lastLines(_ stream: StandardStream, count: Int) -> [String] {
        let text = String(decoding: tail(stream), as: UTF8.self)
        return text.outputLines().suffix(count).map(String.init)
    }

    /// The last `count` lines of both streams under headings, for failure messages:
    /// `--- last 2 lines of stdout ---` then the lines, then the same for stderr.
    package func tailReport(lines count: Int) -> String {
        var text = ""
        for stream in StandardStream.allCases {
            let tail = lastLines(stream, count: count)
            text += "--- last \(tail.count) line\(tail.count == 1 ? "" : "s") of \(stream.rawValue) ---\n" + tail.map { $0 + "\n" }.joined()
        }
        return text
    }

    /// Blocks until `match` finds something in what the stream captured so far, the streams end, or `timeout`
    /// passes; wakes on every chunk (no polling floor). Returns the match, or nil (then ``isFinished`` tells why).
    package func wait<Match>(on stream: StandardStream, timeout: Duration, _ match: (String) -> Match?) -> Match? {
        let text = { String(decoding: self.captured(stream), as: UTF8.self) }
        if let found = match(text()) { return found }
        let changed = DispatchSemaphore(value: 0)
        let token = addObserver { changed.signal() }
        defer { removeObserver(token) }
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end && !isFinished {
            if let found = match(text()) { return found }
            let remaining = end - .now
            _ = changed.wait(timeout: .now() + (remaining < .milliseconds(200) ? remaining : .milliseconds(200)).dispatchInterval)
        }
        return match(text())
    }

    /// Calls `observer` after every chunk and at the end; returns a token for ``removeObserver(_:)``.
    package func addObserver(_ observer: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.nextObserver += 1
            state.observers.append((state.nextObserver, observer))
            return state.nextObserver
        }
    }

    package func removeObserver(_ token: Int) { state.withLock { $0.observers.removeAll { $0.token == token } } }
}
