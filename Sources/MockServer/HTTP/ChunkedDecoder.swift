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
    /// Bytes of chunk-size lines (extensions included) so far, and where the trailer section has got to.
    private var metadataBytes = 0
    private var trailerStart: Int?

    /// One chunk-size line, extensions included (400 beyond).
    static let maxChunkLineBytes = 1024
    /// All chunk-size lines of one body together (400 beyond): 1-byte chunks with 1 KiB extensions
    /// must not turn a small body into hundreds of megabytes held in memory.
    static let maxChunkMetadataBytes = 1024 * 1024
    /// The trailer section (431 beyond).
    static let maxTrailerBytes = 16 * 1024

    package init(limit: Int) { self.limit = limit }

    /// Decodes from `bytes` (the whole buffer since the head ended; call again with more appended).
    /// - Throws: 400 for bad syntax, 413 when the body passes the limit.
    package mutating func decode(_ bytes: ArraySlice<UInt8>) throws(RequestHead.Error) -> Step {
        while true {
            let start = bytes.startIndex + offset
            if let trailerStart { return try trailers(bytes, from: trailerStart) }
            guard let lineEnd = Self.findLineEnd(bytes, from: start) else {
                if bytes.endIndex - start > Self.maxChunkLineBytes {
                    throw RequestHead.Error(400, "chunk size line longer than \(Self.maxChunkLineBytes) bytes")
                }
                return .needMore
            }
            let lineLength = lineEnd.next - start
            if lineLength > Self.maxChunkLineBytes {
                throw RequestHead.Error(400, "chunk size line longer than \(Self.maxChunkLineBytes) bytes")
            }
            // Counted once, when the line is consumed (a chunk whose data is still arriving is read again).
            if metadataBytes + lineLength > Self.maxChunkMetadataBytes {
                throw RequestHead.Error(400, "chunk size lines (with extensions) longer than \(Self.maxChunkMetadataBytes) bytes in all")
            }
            var sizeText = bytes[start..<lineEnd.contentEnd]
            if let semicolon = sizeText.firstIndex(of: UInt8(ascii: ";")) { sizeText = sizeText[..<semicolon] } // chunk extensions
            while let last = sizeText.last, last == 0x20 || last == 0x09 { sizeText = sizeText.dropLast() }
            // Hex digits only: Int(_:radix:) would also take a sign, and a negative size must not reach the ranges below.
            guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(Self.isHexDigit),
                let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16)
            else {
                throw RequestHead.Error(400, "invalid chunk size \"\(String(decoding: sizeText.prefix(20), as: UTF8.self))\"")
            }
            if size == 0 {
                metadataBytes += lineLength
                trailerStart = lineEnd.next - bytes.startIndex
                offset = trailerStart!
                continue
            }
            guard body.count + size <= limit else { throw RequestHead.Error(413, "request body larger than \(limit) bytes") }
            let dataStart = lineEnd.next
            guard bytes.endIndex - dataStart >= size + 2 else { return .needMore }
            body.append(contentsOf: bytes[dataStart..<(dataStart + size)])
            metadataBytes += lineLength
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

    /// Trailer fields until an empty line, each line scanned once however the bytes arrive, within
    /// ``maxTrailerBytes``.
    private mutating func trailers(_ bytes: ArraySlice<UInt8>, from trailerStart: Int) throws(RequestHead.Error) -> Step {
        var cursor = bytes.startIndex + offset
        while true {
            guard let trailerEnd = Self.findLineEnd(bytes, from: cursor) else {
                if bytes.endIndex - (bytes.startIndex + trailerStart) > Self.maxTrailerBytes {
                    throw RequestHead.Error(431, "trailer fields larger than \(Self.maxTrailerBytes) bytes")
                }
                offset = cursor - bytes.startIndex
                return .needMore
            }
            if trailerEnd.next - (bytes.startIndex + trailerStart) > Self.maxTrailerBytes {
                throw RequestHead.Error(431, "trailer fields larger than \(Self.maxTrailerBytes) bytes")
            }
            if trailerEnd.contentEnd == cursor { return .done(consumed: trailerEnd.next - bytes.startIndex) }
            cursor = trailerEnd.next
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
