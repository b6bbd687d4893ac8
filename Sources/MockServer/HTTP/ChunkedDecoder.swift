/// Decodes a chunked request body incrementally (RFC 9112 §7.1).
package struct ChunkedDecoder {
    package enum Step: Equatable {
        /// More bytes are needed.
        case needMore
        /// The body is complete; `consumed` bytes of the input belonged to it (trailers included).
        case done(consumed: Int)
    }

    package private(set) var body: [UInt8] = []
    private var offset = 0
    private let limit: Int

    package init(limit: Int) { self.limit = limit }

    /// Decodes from `bytes` (the whole buffer since the head ended; call again with more appended).
    /// - Throws: 400 for bad syntax, 413 when the body passes the limit.
    package mutating func decode(_ bytes: ArraySlice<UInt8>) throws(RequestHead.Error) -> Step {
        while true {
            let start = bytes.startIndex + offset
            guard let lineEnd = Self.findLineEnd(bytes, from: start) else {
                if bytes.endIndex - start > 1024 { throw RequestHead.Error(400, "chunk size line too long") }
                return .needMore
            }
            var sizeText = bytes[start..<lineEnd.contentEnd]
            if let semicolon = sizeText.firstIndex(of: UInt8(ascii: ";")) { sizeText = sizeText[..<semicolon] } // chunk extensions
            while let last = sizeText.last, last == 0x20 || last == 0x09 { sizeText = sizeText.dropLast() }
            // Hex digits only: Int(_:radix:) would also take a sign, and a negative size must not reach the ranges below.
            guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(Self.isHexDigit),
                  let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16) else {
                throw RequestHead.Error(400, "invalid chunk size \"\(String(decoding: sizeText.prefix(20), as: UTF8.self))\"")
            }
            if size == 0 {
                // Trailer fields until an empty line.
                var cursor = lineEnd.next
                while true {
                    guard let trailerEnd = Self.findLineEnd(bytes, from: cursor) else { return .needMore }
                    if trailerEnd.contentEnd == cursor { return .done(consumed: trailerEnd.next - bytes.startIndex) }
                    cursor = trailerEnd.next
                }
            }
            guard body.count + size <= limit else { throw RequestHead.Error(413, "request body larger than \(limit) bytes") }
            let dataStart = lineEnd.next
            guard bytes.endIndex - dataStart >= size + 2 else { return .needMore }
            body.append(contentsOf: bytes[dataStart..<(dataStart + size)])
            let afterData = dataStart + size
            if bytes[afterData] == 0x0D && bytes[afterData + 1] == 0x0A {
                offset = afterData + 2 - bytes.startIndex
            } else if bytes[afterData] == 0x0A {
                offset = afterData + 1 - bytes.startIndex
            } else {
                throw RequestHead.Error(400, "chunk data not followed by CRLF")
            }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func findLineEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> (contentEnd: Int, next: Int)? {
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                let contentEnd = index > start && bytes[index - 1] == 0x0D ? index - 1 : index
                return (contentEnd, index + 1)
            }
            index += 1
        }
        return nil
    }
}
