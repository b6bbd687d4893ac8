/// Writes DEFLATE bits by hand (RFC 1951 §3.1.1: numbers first bit lowest, Huffman codes first bit highest), so
/// tests can make streams no compressor writes: bad code lengths, distances too far back, reserved values.
struct DeflateWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// A number in `count` bits, first bit lowest (header fields, extra bits).
    mutating func bits(_ value: Int, _ count: Int) {
        for bit in 0..<count { put(value >> bit & 1) }
    }

    /// A Huffman code of `length` bits, first bit highest.
    mutating func code(_ value: Int, _ length: Int) {
        for bit in (0..<length).reversed() { put(value >> bit & 1) }
    }

    private mutating func put(_ bit: Int) {
        if bitCount % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(bit) << (bitCount % 8)
        bitCount += 1
    }

    /// The canonical codes of RFC 1951 §3.2.2 for these lengths (0: no code): what a decoder must read them as.
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }

    /// The order code length code lengths are sent in (RFC 1951 §3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A dynamic block's header (last block): its counts, the code length code (`codeLengthLengths`, one per symbol
    /// 0-18, all 19 sent), then `runs` in that code: a symbol 0-18 with the value of its extra bits.
    mutating func dynamicHeader(literalCount: Int, distanceCount: Int, codeLengthLengths: [Int], runs: [(symbol: Int, extra: Int)]) {
        bits(1, 1)
        bits(2, 2)
        bits(literalCount - 257, 5)
        bits(distanceCount - 1, 5)
        bits(19 - 4, 4)
        for symbol in Self.codeLengthOrder { bits(codeLengthLengths[symbol], 3) }
        let codes = Self.canonicalCodes(codeLengthLengths)
        for (symbol, extra) in runs {
            code(codes[symbol], codeLengthLengths[symbol])
            switch symbol {
            case 16: bits(extra, 2)
            case 17: bits(extra, 3)
            case 18: bits(extra, 7)
            default: break
            }
        }
    }

    /// A dynamic block's header giving these literal/length and distance code lengths, each sent as itself in a
    /// 4-bit code length code (all 16 lengths have one: complete).
    mutating func dynamicHeader(literalLengths: [Int], distanceLengths: [Int]) {
        dynamicHeader(
            literalCount: literalLengths.count, distanceCount: distanceLengths.count,
            codeLengthLengths: [Int](repeating: 4, count: 16) + [0, 0, 0],
            runs: (literalLengths + distanceLengths).map { ($0, 0) })
    }
}
