/// Decompresses what HTTP bodies are compressed with: DEFLATE (RFC 1951) raw, in its zlib wrapper (RFC 1950) or in
/// gzip (RFC 1952). Bounded: decoding stops with ``Error/overLimit(_:)`` as soon as the output would pass `limit`
/// bytes, so a decompression bomb costs at most `limit` bytes of memory and time linear in them; nothing recurses,
/// and every loop advances through the input or the output.
///
///     let body = try Inflate.gunzip(compressed, limit: 16 << 20)
///
/// Checksums are checked (CRC-32 and ISIZE for gzip, Adler-32 for zlib), and bytes after the stream are refused
/// (except gzip's zero padding), so a body is decoded whole or not at all.
package enum Inflate {
    /// Why the bytes did not decode.
    package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The input ended before the stream did.
        case truncated
        /// Not a valid stream: why, and about where (the byte of the input being read).
        case corrupt(String, offset: Int)
        /// The output would be larger than the limit, which this names.
        case overLimit(Int)

        package var description: String {
            switch self {
            case .truncated: "the compressed data ends too soon"
            case .corrupt(let reason, let offset): "corrupt compressed data at byte \(offset): \(reason)"
            case .overLimit(let limit): "the decompressed data is larger than \(limit) bytes"
            }
        }
    }

    /// The bytes of a gzip file (RFC 1952): one member, or several concatenated (decoded one after the other, as
    /// gunzip does); zero bytes after the last member are padding.
    /// - Throws: ``Error``: a bad header, flags or checksum, the input ending early, other bytes after the last
    ///   member, or output over `limit`.
    package static func gunzip(_ bytes: [UInt8], limit: Int) throws(Error) -> [UInt8] {
        var decoder = DeflateDecoder(bytes, at: 0, limit: limit)
        var offset = 0
        repeat {
            let memberStart = decoder.written
            let headerEnd = try gzipHeaderEnd(bytes, at: offset)
            decoder.restart(at: headerEnd)
            try decoder.decodeStream()
            let trailer = decoder.reader.byteOffset
            guard bytes.count - trailer >= 8 else { throw .truncated }
            let crc = littleEndian(bytes, at: trailer)
            let size = littleEndian(bytes, at: trailer + 4)
            let member = decoder.decoded(from: memberStart)
            guard crc == Checksums.crc32(member) else { throw .corrupt("CRC-32 does not match the data", offset: trailer) }
            guard size == UInt32(truncatingIfNeeded: member.count) else {
                throw .corrupt("ISIZE \(size) is not the data's size \(member.count)", offset: trailer + 4)
            }
            offset = trailer + 8
        } while bytes[offset...].contains { $0 != 0 }
        return decoder.takeOutput()
    }

    /// The bytes of a zlib stream (RFC 1950): its two-byte header, DEFLATE data, then the Adler-32 of the output.
    /// - Throws: ``Error``: a bad header, a preset dictionary, a bad checksum, the input ending early or bytes
    ///   after the stream, or output over `limit`.
    package static func zlib(_ bytes: [UInt8], limit: Int) throws(Error) -> [UInt8] {
        guard bytes.count >= 2 else { throw .truncated }
        if let problem = zlibHeaderProblem(bytes[0], bytes[1]) { throw .corrupt(problem, offset: 0) }
        var decoder = DeflateDecoder(bytes, at: 2, limit: limit)
        try decoder.decodeStream()
        let trailer = decoder.reader.byteOffset
        guard bytes.count - trailer >= 4 else { throw .truncated }
        let adler =
            UInt32(bytes[trailer]) << 24 | UInt32(bytes[trailer + 1]) << 16 | UInt32(bytes[trailer + 2]) << 8 | UInt32(bytes[trailer + 3])
        guard adler == Checksums.adler32(decoder.decoded(from: 0)) else {
            throw .corrupt("Adler-32 does not match the data", offset: trailer)
        }
        try refuseTrailingBytes(bytes, after: trailer + 4)
        return decoder.takeOutput()
    }

    /// Raw DEFLATE data (RFC 1951), with no wrapper.
    /// - Throws: ``Error``: invalid data, the input ending early or bytes after the stream, or output over `limit`.
    package static func raw(_ bytes: [UInt8], limit: Int) throws(Error) -> [UInt8] {
        var decoder = DeflateDecoder(bytes, at: 0, limit: limit)
        try decoder.decodeStream()
        try refuseTrailingBytes(bytes, after: decoder.reader.byteOffset)
        return decoder.takeOutput()
    }

    /// A body sent with `Content-Encoding: deflate`: zlib-wrapped as RFC 9110 §8.4.1.2 says, or raw DEFLATE as some
    /// clients send it. Bytes that open with a valid zlib header are read as zlib, and as raw DEFLATE only if that
    /// fails (raw data can open with what looks like a zlib header); others are read as raw DEFLATE.
    /// - Throws: ``Error``: ``Error/overLimit(_:)`` when a reading that did not fail otherwise passed the limit, else
    ///   the zlib reading's error.
    package static func deflateContent(_ bytes: [UInt8], limit: Int) throws(Error) -> [UInt8] {
        guard bytes.count >= 2, zlibHeaderProblem(bytes[0], bytes[1]) == nil else { return try raw(bytes, limit: limit) }
        let zlibError: Error
        do throws(Error) {
            return try zlib(bytes, limit: limit)
        } catch {
            zlibError = error
        }
        do throws(Error) {
            return try raw(bytes, limit: limit)
        } catch .overLimit(let limit) {
            throw .overLimit(limit)
        } catch {
            throw zlibError
        }
    }

    /// Why two bytes are not a zlib header we can read (RFC 1950 §2.2), or nil.
    static func zlibHeaderProblem(_ cmf: UInt8, _ flags: UInt8) -> String? {
        if cmf & 0x0F != 8 { return "compression method \(cmf & 0x0F) is not DEFLATE (8)" }
        if cmf >> 4 > 7 { return "window size 2^\(Int(cmf >> 4) + 8) is larger than 32 KiB" }
        if (UInt16(cmf) << 8 | UInt16(flags)) % 31 != 0 { return "header check bits are wrong" }
        if flags & 0x20 != 0 { return "a preset dictionary is needed" }
        return nil
    }

    /// Where the DEFLATE data of the gzip member at `offset` starts, past its header (RFC 1952 §2.3): the magic
    /// bytes, method 8, no reserved flag, then the optional extra field, name, comment and header CRC (checked).
    private static func gzipHeaderEnd(_ bytes: [UInt8], at offset: Int) throws(Error) -> Int {
        for (index, magic) in zip(offset..<min(offset + 2, bytes.count), [0x1F, 0x8B] as [UInt8]) where bytes[index] != magic {
            throw .corrupt("not gzip data (no 1F 8B)", offset: offset)
        }
        guard bytes.count - offset >= 10 else { throw .truncated }
        guard bytes[offset + 2] == 8 else {
            throw .corrupt("compression method \(bytes[offset + 2]) is not DEFLATE (8)", offset: offset + 2)
        }
        let flags = bytes[offset + 3]
        guard flags & 0xE0 == 0 else { throw .corrupt("reserved header flags are set", offset: offset + 3) }
        var end = offset + 10
        if flags & 0x04 != 0 { // FEXTRA: a two-byte length, then that many bytes
            guard bytes.count - end >= 2 else { throw .truncated }
            let length = Int(bytes[end]) | Int(bytes[end + 1]) << 8
            guard bytes.count - end - 2 >= length else { throw .truncated }
            end += 2 + length
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 { // FNAME, FCOMMENT: zero-terminated
            guard let zero = bytes[end...].firstIndex(of: 0) else { throw .truncated }
            end = zero + 1
        }
        if flags & 0x02 != 0 { // FHCRC: the low 16 bits of the CRC-32 of the header so far
            guard bytes.count - end >= 2 else { throw .truncated }
            let stored = UInt32(bytes[end]) | UInt32(bytes[end + 1]) << 8
            guard stored == Checksums.crc32(bytes[offset..<end]) & 0xFFFF else { throw .corrupt("header CRC does not match", offset: end) }
            end += 2
        }
        return end
    }

    private static func refuseTrailingBytes(_ bytes: [UInt8], after end: Int) throws(Error) {
        guard end == bytes.count else { throw .corrupt("\(bytes.count - end) bytes after the end of the stream", offset: end) }
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
