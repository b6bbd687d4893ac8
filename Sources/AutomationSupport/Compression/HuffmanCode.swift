/// A canonical Huffman code (RFC 1951 §3.2.2) built from its code lengths, ready to decode: codes of up to
/// ``fastBits`` bits are read with one look-up in ``table``; longer ones a bit at a time from ``counts`` and
/// ``symbols`` (rare by construction: a code that long stands for a symbol seen less than once in 2^fastBits).
/// Rebuilt in place for each block, so a stream of many small blocks allocates nothing per block.
struct HuffmanCode {
    /// Bits looked up at once; RFC 1951 codes are at most 15 bits.
    static let fastBits = 10
    static let maxBits = 15

    /// What the lengths make: a code that is complete (every bit pattern decodes), one that leaves patterns unused,
    /// or one that is over-subscribed (more codes of some length than there is room for: not a prefix code).
    enum Shape: String, Equatable, CustomStringConvertible {
        case complete
        case incomplete
        case overSubscribed = "over-subscribed"

        var description: String { rawValue }
    }

    /// Indexed by the next input bits (first bit lowest) under ``tableMask``: `symbol << 4 | length`, or 0 when the
    /// code there is longer than the table is wide, or unused.
    private(set) var table = [UInt16](repeating: 0, count: 1 << fastBits)
    /// The bits of input that index ``table``: 2^n - 1, n at most ``fastBits``.
    private(set) var tableMask = 0
    /// How many codes have each length, 0...15 (`counts[0]` unused).
    private(set) var counts = [Int16](repeating: 0, count: maxBits + 1)
    /// The symbols in code order: by length, then by symbol value.
    private(set) var symbols = [UInt16](repeating: 0, count: 288)
    /// The number of symbols with a code (a length other than 0).
    private(set) var used = 0
    /// The longest code's length (0 when no symbol has one): a pattern that is no code after this many bits is none.
    private(set) var maxLength = 0

    /// Builds the code from one length (0...15, 0: no code) per symbol; returns its shape. The caller decides which
    /// shapes its stream allows; a code is usable whatever it returns, an unused pattern decoding to no symbol.
    mutating func rebuild(_ lengths: ArraySlice<UInt8>) -> Shape {
        precondition(lengths.count <= symbols.count)
        counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            for length in lengths {
                precondition(length <= Self.maxBits) // callers read lengths of 3 bits, or below 16
                counts[Int(length)] &+= 1 // at most 288
            }
            counts[0] = 0
        }
        used = 0
        var left = 1
        maxLength = 0
        for length in 1...Self.maxBits {
            left = left << 1 - Int(counts[length])
            used += Int(counts[length])
            if counts[length] != 0 { maxLength = length }
            if left < 0 { return .overSubscribed }
        }
        // Where each length's symbols start in `symbols`.
        var offsets = [Int](repeating: 0, count: Self.maxBits + 2)
        for length in 1...Self.maxBits { offsets[length + 1] = offsets[length] + Int(counts[length]) }
        for (symbol, length) in zip(0..., lengths) where length != 0 {
            symbols[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }
        fillTable()
        return left == 0 ? .complete : .incomplete
    }

    /// Writes each code of up to ``tableMask``'s bits into every table slot whose low bits are that code, first bit
    /// lowest (the stream packs a code's first bit into the lowest free bit of a byte). The table is as wide as the
    /// longest code, up to ``fastBits``: a code of short codes (the code lengths' own) fills 2^7 slots, not 2^10.
    private mutating func fillTable() {
        let bits = min(maxLength, Self.fastBits)
        tableMask = 1 << bits - 1
        var code = 0
        var index = 0
        table.withUnsafeMutableBufferPointer { table in
            table.update(repeating: 0)
            for length in stride(from: 1, through: bits, by: 1) {
                for _ in 0..<Int(counts[length]) {
                    var reversed = 0
                    for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                    let entry = symbols[index] << 4 | UInt16(length)
                    var slot = reversed
                    while slot <= tableMask { // (tableMask < table.count: every slot written is in the table)
                        table[slot] = entry
                        slot += 1 << length
                    }
                    code += 1
                    index += 1
                }
                code <<= 1
            }
        }
    }

    /// True when `shape` is allowed for a literal/length or distance code: complete; or incomplete with exactly one
    /// code of one bit (RFC 1951 §3.2.7 for one distance code; zlib accepts it for both); or, for a distance code,
    /// no code at all (a block of literals only).
    func isUsable(_ shape: Shape, emptyAllowed: Bool) -> Bool {
        switch shape {
        case .complete: true
        case .incomplete: (used == 1 && counts[1] == 1) || (used == 0 && emptyAllowed)
        case .overSubscribed: false
        }
    }

    /// The fixed codes of RFC 1951 §3.2.6: literals/lengths 0-143 in 8 bits, 144-255 in 9, 256-279 in 7, 280-287
    /// in 8; distances 0-29 in 5 bits (30 and 31 have codes too, and are refused when met).
    static let fixedLiterals: HuffmanCode = {
        var code = HuffmanCode()
        let lengths = (0..<288).map { (symbol: Int) -> UInt8 in symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
        _ = code.rebuild(lengths[...])
        return code
    }()
    static let fixedDistances: HuffmanCode = {
        var code = HuffmanCode()
        _ = code.rebuild([UInt8](repeating: 5, count: 32)[...])
        return code
    }()
}
