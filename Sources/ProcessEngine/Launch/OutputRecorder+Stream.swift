import AutomationSupport
import Dispatch

/// Something that reads a stream from its first byte as it arrives (``OutputRecorder/watch(_:from:timeout:matcher:)``).
package protocol OutputMatcher {
    /// Takes the next bytes; true once what it looks for was seen.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool
    /// The stream ended (no more bytes will come); true when what it looks for was seen at the end.
    mutating func end() -> Bool
}

/// How a watch of a stream ended.
package enum OutputWatch: Equatable {
    /// The matcher saw what it looks for.
    case matched
    /// The stream ended (the program closed it) without a match: every byte was seen.
    case ended
    /// The time ran out: every byte that had arrived was seen.
    case timedOut
    /// Bytes from this point on were kept nowhere: the message names the cap.
    case cut(String)
}

extension OutputRecorder {
    /// What ``read(_:from:limit:)`` found at an offset.
    package enum Read {
        case bytes([UInt8])
        /// Nothing more has arrived (yet).
        case caughtUp
        /// The bytes from here on were not kept: the message names the cap.
        case cut(String)
    }

    /// Up to `limit` bytes of the stream from byte `offset` (memory first, then the spool).
    package func read(_ stream: StandardStream, from offset: Int, limit: Int = 1 << 20) -> Read {
        state.withLock { state in
            let recorded = state[stream]
            if offset < recorded.captured.count {
                return .bytes(Array(recorded.captured[offset..<min(recorded.captured.count, offset + limit)]))
            }
            if let lost = recorded.lostFrom, offset >= lost {
                let kept =
                    recorded.spool == nil
                    ? "\(ByteSize.text(captureLimit)) kept in memory"
                    : "\(ByteSize.text(captureLimit)) in memory and \(ByteSize.text(spoolLimit)) on disk"
                return .cut(
                    "the program wrote more than \(ByteSize.text(lost)) on \(stream.rawValue) and steps read at most \(kept) of a stream")
            }
            guard let spool = recorded.spool, offset < captureLimit + spool.count else { return .caughtUp }
            guard let bytes = spool.read(at: offset - captureLimit, length: limit) else {
                return .cut("the output spooled past \(ByteSize.text(captureLimit)) on \(stream.rawValue) could not be read back")
            }
            return .bytes(bytes)
        }
    }

    /// Feeds `matcher` the stream from byte `offset` as it arrives (waking on every chunk, no polling floor) until
    /// it matches, the streams end, or `timeout` passes (zero: only what has arrived). `offset` ends after the
    /// last byte fed.
    package func watch(_ stream: StandardStream, from offset: inout Int, timeout: Duration, matcher: inout some OutputMatcher)
        -> OutputWatch
    {
        let changed = DispatchSemaphore(value: 0)
        let token = addObserver { changed.signal() }
        defer { removeObserver(token) }
        let end = ContinuousClock.now + timeout
        while true {
            let finished = isFinished // read before the bytes: when true, the bytes read next are the last
            reading: while true {
                switch read(stream, from: offset) {
                case .bytes(let bytes):
                    offset += bytes.count
                    if matcher.feed(bytes[...]) { return .matched }
                case .caughtUp: break reading
                case .cut(let why): return .cut(why)
                }
            }
            if finished { return matcher.end() ? .matched : .ended }
            let remaining = end - .now
            if remaining <= .zero { return .timedOut }
            _ = changed.wait(timeout: .now() + (remaining < .milliseconds(200) ? remaining : .milliseconds(200)).dispatchInterval)
        }
    }

    /// What ``firstOffset(of:on:from:)`` found.
    package enum Search: Equatable {
        case found(Int)
        /// Not in what has arrived so far.
        case notYet
        /// Not before the bytes that were kept nowhere: the message names the cap.
        case cut(String)
    }

    /// Where `needle` first occurs in the stream at or after byte `start`, reading the whole stream that has
    /// arrived (memory, then the spool) with memmem, not only the memory capture.
    package func firstOffset(of needle: [UInt8], on stream: StandardStream, from start: Int) -> Search {
        if needle.isEmpty { return .found(start) }
        var offset = start
        var carry: [UInt8] = [] // the last needle.count - 1 bytes before offset: a match may start there
        while true {
            switch read(stream, from: offset) {
            case .bytes(let bytes):
                let window = carry + bytes
                if let at = ByteSearch.firstRange(of: needle, in: window) { return .found(offset - carry.count + at) }
                carry = Array(window.suffix(needle.count - 1))
                offset += bytes.count
            case .caughtUp: return .notYet
            case .cut(let why): return .cut(why)
            }
        }
    }

    /// The whole stream as it has arrived (memory, then the spool), and why it stops short, if it does.
    package func whole(_ stream: StandardStream) -> (bytes: [UInt8], cut: String?) {
        var bytes = captured(stream)
        while true {
            switch read(stream, from: bytes.count) {
            case .bytes(let more): bytes += more
            case .caughtUp: return (bytes, nil)
            case .cut(let why): return (bytes, why)
            }
        }
    }

    /// True when the stream's bytes past ``captured(_:)`` exist (the capture is not the whole stream).
    package func isCaptureCut(_ stream: StandardStream) -> Bool { state.withLock { $0[stream].byteCount > $0[stream].captured.count } }
}

/// Byte counts for messages: `16 MiB`, `1 GiB`, `512 bytes`.
package enum ByteSize {
    package static func text(_ count: Int) -> String {
        if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }
}
