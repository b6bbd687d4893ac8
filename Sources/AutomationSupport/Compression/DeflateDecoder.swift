/// Decodes DEFLATE blocks (RFC 1951 §3.2): stored, fixed Huffman and dynamic Huffman, into a buffer that never
/// grows past ``limit`` bytes. Iterative, with every loop bounded by the input it consumes or the output it writes.
struct DeflateDecoder {
    var reader: BitReader
    /// Decoded bytes: the first ``written`` (for gzip, the members before this one too: the limit covers them all).
    /// Room beyond them is made ahead (doubling, never past the limit), so a byte is written without growing.
    private var buffer: [UInt8] = []
    private(set) var written = 0
    /// Where this stream's output starts in the buffer: its matches reach no further back (a gzip member's window is
    /// its own, RFC 1952 §2.2).
    private var streamStart = 0
    let limit: Int
    private var literals = HuffmanCode()
    private var distances = HuffmanCode()
    private var codeLengths = HuffmanCode()
    /// The code lengths a dynamic block's header gives, literal/length then distance (at most 286 + 30).
    private var lengths = [UInt8](repeating: 0, count: 320)

    init(_ input: [UInt8], at offset: Int, limit: Int) {
        reader = BitReader(input, at: offset)
        self.limit = max(0, limit)
    }

    /// Decodes blocks until the last one; then ``BitReader/byteOffset`` is the first byte after the stream.
    mutating func decodeStream() throws(Inflate.Error) {
        var last = false
        while !last {
            last = try reader.take(1) == 1
            switch try reader.take(2) {
            case 0: try copyStoredBlock()
            case 1: try decodeBlock(HuffmanCode.fixedLiterals, HuffmanCode.fixedDistances)
            case 2:
                try readDynamicCodes()
                try decodeBlock(literals, distances)
            default: throw corrupt("invalid block type 3")
            }
        }
        reader.alignToByte()
    }

    /// RFC 1951 §3.2.4: LEN, its one's complement NLEN, then LEN bytes as they are.
    private mutating func copyStoredBlock() throws(Inflate.Error) {
        reader.alignToByte()
        let length = try reader.take(16)
        let complement = try reader.take(16)
        guard length == ~complement & 0xFFFF else { throw corrupt("stored block length \(length) does not match its complement") }
        reader.alignToByte()
        guard length <= reader.input.count - reader.position else { throw .truncated }
        guard length <= limit - written else { throw .overLimit(limit) }
        makeRoom(length)
        buffer[written..<(written + length)] = reader.input[reader.position..<(reader.position + length)]
        written += length
        reader.skipBytes(length)
    }

    /// RFC 1951 §3.2.7: the counts, the code lengths' own code, then the literal/length and distance code lengths
    /// run-length encoded with it.
    private mutating func readDynamicCodes() throws(Inflate.Error) {
        let literalCount = try reader.take(5) + 257
        let distanceCount = try reader.take(5) + 1
        let codeLengthCount = try reader.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw corrupt("\(literalCount) literal/length or \(distanceCount) distance codes (at most 286 and 30)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(try reader.take(3)) }
        let codeLengthShape = codeLengths.rebuild(codeLengthLengths[...])
        guard codeLengthShape == .complete else { throw corrupt("code length code lengths are \(codeLengthShape)") }
        let total = literalCount + distanceCount
        var index = 0
        while index < total {
            let symbol = try decodeSymbol(codeLengths)
            if symbol < 16 {
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            var repeated: UInt8 = 0
            let times: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw corrupt("a code length repeat with no length before it") }
                repeated = lengths[index - 1]
                times = 3 + (try reader.take(2))
            case 17: times = 3 + (try reader.take(3))
            default: times = 11 + (try reader.take(7))
            }
            guard times <= total - index else { throw corrupt("code lengths repeated past the \(total) codes") }
            for offset in index..<(index + times) { lengths[offset] = repeated }
            index += times
        }
        guard lengths[256] != 0 else { throw corrupt("no code for end-of-block") }
        let literalShape = literals.rebuild(lengths[0..<literalCount])
        guard literals.isUsable(literalShape, emptyAllowed: false) else { throw corrupt("literal/length code lengths are \(literalShape)") }
        let distanceShape = distances.rebuild(lengths[literalCount..<total])
        guard distances.isUsable(distanceShape, emptyAllowed: true) else { throw corrupt("distance code lengths are \(distanceShape)") }
    }

    /// RFC 1951 §3.2.5: literals, and lengths with a distance back into what is decoded, up to end-of-block.
    private mutating func decodeBlock(_ literals: HuffmanCode, _ distances: HuffmanCode) throws(Inflate.Error) {
        while true {
            let symbol = try decodeSymbol(literals)
            if symbol < 256 {
                guard written < limit else { throw .overLimit(limit) }
                makeRoom(1)
                buffer[written] = UInt8(truncatingIfNeeded: symbol)
                written += 1
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw corrupt("invalid length symbol \(symbol)") }
            let length = Int(Self.lengthBase[lengthIndex]) + (try reader.take(Int(Self.lengthExtraBits[lengthIndex])))
            let distanceSymbol = try decodeSymbol(distances)
            guard distanceSymbol < 30 else { throw corrupt("invalid distance symbol \(distanceSymbol)") }
            let distance = Int(Self.distanceBase[distanceSymbol]) + (try reader.take(Int(Self.distanceExtraBits[distanceSymbol])))
            guard distance <= written - streamStart else {
                throw corrupt("distance \(distance) too far back (\(written - streamStart) bytes decoded)")
            }
            guard length <= limit - written else { throw .overLimit(limit) }
            copyMatch(distance: distance, length: length)
        }
    }

    /// Appends `length` bytes copied from `distance` back (within this stream's output), through a pointer whose range is checked
    /// once. A copy longer than its distance repeats what it copies (a run), so a byte at a time, forward, is always
    /// right; a long one goes in pieces of at most `distance` bytes, each read from bytes already written.
    @inline(__always)
    private mutating func copyMatch(distance: Int, length: Int) {
        makeRoom(length)
        let from = written - distance
        buffer.withUnsafeMutableBufferPointer { buffer in
            precondition(from >= 0 && distance > 0 && length > 0 && from + distance + length <= buffer.count)
            guard let source = buffer.baseAddress.map({ $0 + from }) else { return }
            let target = source + distance
            if length <= 32 || distance < 16 {
                for offset in 0..<length { target[offset] = source[offset] }
                return
            }
            var copied = 0
            while copied < length {
                let piece = min(distance, length - copied)
                (target + copied).update(from: source + copied, count: piece)
                copied += piece
            }
        }
        written += length
    }

    /// Makes room for `count` more bytes (the caller checked that they stay within the limit).
    @inline(__always)
    private mutating func makeRoom(_ count: Int) {
        guard buffer.count - written < count else { return }
        let size = min(limit, max(written + count, buffer.count * 2, 32_768))
        buffer.reserveCapacity(size) // exactly: the buffer never holds room past the limit
        buffer += [UInt8](repeating: 0, count: size - buffer.count)
    }

    /// The bytes decoded from the `start`th on.
    func decoded(from start: Int) -> ArraySlice<UInt8> { buffer[start..<written] }

    /// The next symbol of `code`: one look-up for a code as long as its table is wide, else bit by bit.
    @inline(__always)
    private mutating func decodeSymbol(_ code: HuffmanCode) throws(Inflate.Error) -> Int {
        if reader.count < HuffmanCode.maxBits { reader.refill() }
        let entry = Int(code.table[Int(truncatingIfNeeded: reader.bits) & code.tableMask])
        let length = entry & 15
        if length != 0 && length <= reader.count {
            reader.drop(length)
            return entry >> 4
        }
        return try decodeSlowly(code)
    }

    /// A code longer than the table, or an unused one: canonical decoding one bit at a time (codes of each length
    /// are consecutive numbers, the shorter before the longer).
    private mutating func decodeSlowly(_ code: HuffmanCode) throws(Inflate.Error) -> Int {
        var value = 0
        var first = 0
        var index = 0
        for length in stride(from: 1, through: code.maxLength, by: 1) {
            value |= try reader.take(1)
            let count = Int(code.counts[length])
            if value - first < count { return Int(code.symbols[index + value - first]) }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw corrupt("a bit pattern that is no code")
    }

    private func corrupt(_ reason: String) -> Inflate.Error { .corrupt(reason, offset: reader.currentByte) }

    /// Starts the next stream at `offset`, keeping the output (the next member of a gzip file).
    mutating func restart(at offset: Int) {
        reader.restart(at: offset)
        streamStart = written
    }

    /// Hands the decoded bytes over, leaving the decoder empty.
    mutating func takeOutput() -> [UInt8] {
        buffer.removeSubrange(written...)
        defer {
            buffer = []
            written = 0
        }
        return buffer
    }

    // RFC 1951 §3.2.5 and §3.2.7.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}
