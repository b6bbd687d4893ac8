import AutomationSupport

extension Connection {
    /// Sends a serialized answer with what follows its head in `dribble.chunks` pieces spread over
    /// `dribble.totalMs` (WireMock's `chunkedDribbleDelay`); false when the client went away or the server stopped.
    func sendDribbled(_ bytes: [UInt8], _ dribble: Dribble) -> Bool {
        let headEnd = ByteSearch.firstRange(of: Array("\r\n\r\n".utf8), in: bytes).map { $0 + 4 } ?? bytes.count
        guard socket.send(Array(bytes[..<headEnd])) else { return false }
        let rest = bytes.count - headEnd
        guard rest > 0 else { return true }
        let pieces = min(dribble.chunks, rest)
        let pause = dribble.totalMs / pieces
        var start = headEnd
        for piece in 0..<pieces {
            let end = piece == pieces - 1 ? bytes.count : headEnd + rest * (piece + 1) / pieces
            if piece > 0 {
                MonotonicClock.sleep(milliseconds: pause)
                if isStopped() { return false }
            }
            guard socket.send(Array(bytes[start..<end])) else { return false }
            start = end
        }
        return true
    }
}
