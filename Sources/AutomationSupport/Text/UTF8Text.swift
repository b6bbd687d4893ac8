extension String {
    /// The text of `bytes` when they are UTF-8, nil when they are not: what `String(validating:as:)` answers, with
    /// ASCII (nearly every header value, query and path) made without that initializer's generic path, which cost
    /// about 1,000 instructions a call in the mock server's request parsing (callgrind).
    package init?<Bytes: Collection>(validUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        let ascii: String?? = bytes.withContiguousStorageIfAvailable { buffer in
            var seen: UInt8 = 0
            for byte in buffer { seen |= byte }
            return seen < 0x80 ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if let ascii, let ascii {
            self = ascii
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
