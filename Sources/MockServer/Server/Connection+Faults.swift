extension Connection {
    /// Misbehaves as `fault` says, instead of answering (the connection ends after it).
    func perform(_ fault: MockResponse.Fault) {
        switch fault {
        case .connectionReset:
            socket.resetOnClose() // the server closes the socket when serve() returns
        case .emptyResponse:
            break
        case .malformedChunk:
            socket.send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum\r\nzz\r\n".utf8))
        case .randomDataThenClose:
            var garbage = [UInt8](repeating: 0, count: 512)
            for index in garbage.indices { garbage[index] = UInt8.random(in: 0...255) }
            socket.send(garbage)
        }
    }
}
