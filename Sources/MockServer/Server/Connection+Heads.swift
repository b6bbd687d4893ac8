extension Connection {
    /// Finds the end of a request head ("\r\n\r\n", or a lenient "\n\n").
    static func findHeadEnd(_ buffer: [UInt8], from start: Int) -> (end: Int, terminator: Int)? {
        guard buffer.count - start >= 2 else { return nil }
        var index = max(start, 0)
        let count = buffer.count
        while index < count - 1 {
            if buffer[index] == 0x0A {
                if buffer[index + 1] == 0x0A { return (index + 1, 1) }
                if index + 2 < count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    return (index + 1, 2)
                }
            }
            index += 1
        }
        return nil
    }
}
