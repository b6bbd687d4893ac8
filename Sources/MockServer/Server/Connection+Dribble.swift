import AutomationSupport

extension Connection {
    /// Sends a serialized answer with what follows its head in `dribble.chunks` pieces spread over
    /// `dribble.totalMs` (WireMock's `chunkedDribbleDelay`): as WireMock 2.35, a pause of `totalMs / pieces` before
    /// every piece, the first too (the head goes with it), so the answer takes the whole duration (r12 R12-3: the first
    /// piece went at once, and a one-piece body had no delay at all). False when the client went away or the server stopped.
    func sendDribbled(_ bytes: [UInt8], _ dribble: Dribble) -> Bool {
        let headEnd = ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: bytes).map { $0 + 4 } ?? bytes.count
        let rest = bytes.count - headEnd
        guard rest > 0 else { return socket.send(bytes) }
        let pieces = min(dribble.chunks, rest)
        let pause = dribble.totalMs / pieces
        var start = 0
        for piece in 0..<pieces {
            let end = piece == pieces - 1 ? bytes.count : headEnd + rest * (piece + 1) / pieces
            MonotonicClock.sleep(milliseconds: pause)
            if isStopped() { return false }
            guard socket.send(Array(bytes[start..<end])) else { return false }
            start = end
        }
        return true
    }
}
