/// Where a file people write stops being UTF-8. Decoding it anyway would turn each bad byte into U+FFFD, and
/// a step would then compare text the author never wrote: such a file is refused by the place of its first bad byte.
package enum UTF8Position {
    /// The 1-based line and byte column of the first byte that is not part of valid UTF-8, or nil when all is.
    package static func firstInvalid(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
        // The standard library's validation is fast; the walk below only runs to place a byte it refused.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var line = 1
        var lineStart = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = offset + 1
                }
                offset += encoded.count
            case .emptyInput: return nil
            case .error: return (line, offset - lineStart + 1)
            }
        }
    }

    /// `path:line:column: not UTF-8 (…)`, or nil when `bytes` are UTF-8.
    package static func problem(_ path: String, _ bytes: [UInt8], what: String) -> String? {
        guard let place = firstInvalid(bytes) else { return nil }
        return "\(path):\(place.line):\(place.column): the \(what) is not UTF-8 (a byte there is not part of a UTF-8 character); "
            + "save it as UTF-8"
    }
}
