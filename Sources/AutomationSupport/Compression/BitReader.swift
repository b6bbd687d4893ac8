/// Reads a DEFLATE stream's bits (RFC 1951 §3.1.1: first bit lowest in each byte) from a byte array, up to 64 at a
/// time buffered. Reading past the input's end throws ``Inflate/Error/truncated``; nothing is read beyond it.
struct BitReader {
    let input: [UInt8]
    /// The next byte to load into ``bits``.
    private(set) var position: Int
    /// Loaded bits not yet taken, the next one lowest.
    private(set) var bits: UInt64 = 0
    /// How many of ``bits`` are loaded.
    private(set) var count = 0

    init(_ input: [UInt8], at position: Int) {
        self.input = input
        self.position = position
    }

    /// The index of the first byte not (even partly) taken: where a stream's trailer starts once its last block is
    /// read and its padding dropped.
    var byteOffset: Int { position - count / 8 }

    /// The index of the byte the next bit is in (of the input's last byte when every bit is taken): where an error is.
    var currentByte: Int { max(0, min(input.count - 1, position - (count + 7) / 8)) }

    /// Loads whole bytes until 57 or more bits are loaded, or the input ends.
    @inline(__always)
    mutating func refill() {
        while count <= 56 && position < input.count {
            bits |= UInt64(input[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// Takes `n` bits (0...32) as a number, first bit lowest.
    @inline(__always)
    mutating func take(_ n: Int) throws(Inflate.Error) -> Int {
        if count < n {
            refill()
            if count < n { throw .truncated }
        }
        let value = Int(truncatingIfNeeded: bits & ((1 << UInt64(n)) &- 1))
        drop(n)
        return value
    }

    /// Drops `n` loaded bits (n <= count).
    @inline(__always)
    mutating func drop(_ n: Int) {
        bits >>= UInt64(n)
        count -= n
    }

    /// Drops the bits up to the next byte boundary and gives back the whole bytes loaded but not taken, so that
    /// ``position`` is the next byte of the stream (a stored block's length, a trailer).
    mutating func alignToByte() {
        position = byteOffset
        bits = 0
        count = 0
    }

    /// Skips `n` bytes after ``alignToByte()``, which the caller read from ``input`` itself.
    mutating func skipBytes(_ n: Int) {
        precondition(count == 0 && n <= input.count - position)
        position += n
    }

    /// Starts reading again at byte `offset` (the next member of a gzip file).
    mutating func restart(at offset: Int) {
        position = offset
        bits = 0
        count = 0
    }
}
