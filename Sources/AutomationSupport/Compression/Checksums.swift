/// The two checksums the compressed formats carry: CRC-32 (gzip, RFC 1952 §8) and Adler-32 (zlib, RFC 1950 §9).
package enum Checksums {
    /// The CRC-32 of `bytes` (ISO 3309, polynomial 0xEDB88320 reflected), continued from `crc` (0 to start).
    /// Eight bytes a step through eight tables ("slicing-by-8"), then byte by byte.
    package static func crc32(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        var index = bytes.startIndex
        let table = crcTables
        while bytes.endIndex - index >= 8 {
            let low =
                value
                ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
            value =
                table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)] ^ table[5 * 256 + Int(low >> 16 & 0xFF)]
                ^ table[4 * 256 + Int(low >> 24)] ^ table[3 * 256 + Int(bytes[index + 4])] ^ table[2 * 256 + Int(bytes[index + 5])]
                ^ table[256 + Int(bytes[index + 6])] ^ table[Int(bytes[index + 7])]
            index += 8
        }
        for byte in bytes[index...] { value = table[Int(UInt8(truncatingIfNeeded: value) ^ byte)] ^ (value >> 8) }
        return ~value
    }

    /// The Adler-32 of `bytes`, continued from `adler` (1 to start).
    package static func adler32(_ bytes: ArraySlice<UInt8>, continuing adler: UInt32 = 1) -> UInt32 {
        var a = adler & 0xFFFF
        var b = adler >> 16
        var index = bytes.startIndex
        while index < bytes.endIndex {
            // 5552 bytes is the most that can be summed before b could overflow 32 bits (RFC 1950 §9, zlib's NMAX).
            let end = min(bytes.endIndex, index + 5552)
            for byte in bytes[index..<end] {
                a &+= UInt32(byte)
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            index = end
        }
        return b << 16 | a
    }

    /// Table k (entries k*256 ..< k*256+256) gives the CRC of a byte followed by k zero bytes; table 0 is the
    /// classic one.
    private static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for entry in 0..<256 {
            var value = UInt32(entry)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[entry] = value
        }
        for entry in 0..<256 {
            for table in 1..<8 {
                let previous = tables[(table - 1) * 256 + entry]
                tables[table * 256 + entry] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
