import Testing

@testable import AutomationSupport

/// Streams no compressor writes, made bit by bit: each is refused with its reason (or, where RFC 1951 and zlib
/// allow it, decoded), never a trap, a hang or output past the limit.
@Suite struct InflateHostileTests {
    /// Literal/length code lengths: `lengths[symbol]`, the rest 0, 258 of them (HLIT 1).
    static func literals(_ lengths: [Int: Int], count: Int = 258) -> [Int] { (0..<count).map { lengths[$0] ?? 0 } }

    static func reason(_ bytes: [UInt8]) -> String? {
        InflateTests.reason { () throws(Inflate.Error) in try Inflate.raw(bytes, limit: 1 << 20) }
    }

    static func dynamic(_ literalLengths: [Int], _ distanceLengths: [Int], data: (inout DeflateWriter) -> Void = { _ in }) -> [UInt8] {
        var writer = DeflateWriter()
        writer.dynamicHeader(literalLengths: literalLengths, distanceLengths: distanceLengths)
        data(&writer)
        return writer.bytes
    }

    @Test func overSubscribedAndIncompleteCodesAreRefused() {
        var writer = DeflateWriter()
        writer.dynamicHeader(literalCount: 257, distanceCount: 1, codeLengthLengths: [Int](repeating: 1, count: 19), runs: [])
        #expect(Self.reason(writer.bytes) == "code length code lengths are over-subscribed")
        writer = DeflateWriter()
        writer.dynamicHeader(
            literalCount: 257, distanceCount: 1, codeLengthLengths: [Int](repeating: 4, count: 15) + [0, 0, 0, 0], runs: [])
        #expect(Self.reason(writer.bytes) == "code length code lengths are incomplete")
        #expect(Self.reason(Self.dynamic([Int](repeating: 1, count: 258), [1])) == "literal/length code lengths are over-subscribed")
        #expect(Self.reason(Self.dynamic(Self.literals([97: 2, 256: 2]), [1])) == "literal/length code lengths are incomplete")
        #expect(Self.reason(Self.dynamic(Self.literals([97: 1, 256: 1]), [2, 2])) == "distance code lengths are incomplete")
        #expect(Self.reason(Self.dynamic(Self.literals([97: 1, 256: 1]), [1, 1, 1])) == "distance code lengths are over-subscribed")
        #expect(Self.reason(Self.dynamic(Self.literals([97: 1, 98: 1]), [1])) == "no code for end-of-block")
    }

    /// RFC 1951 §3.2.7 (one distance code of one bit) and zlib (one literal/length code of one bit, no distance
    /// code at all): incomplete codes that are allowed; their unused pattern is refused when met.
    @Test func oneCodeOfOneBitAndNoDistanceCodesAreAllowed() throws {
        // 'a' is 0, end-of-block 1; the one distance code is 0.
        #expect(try Inflate.raw(Self.dynamic(Self.literals([97: 1, 256: 1]), [1]) { $0.code(0b001, 3) }, limit: 10) == Array("aa".utf8))
        // Length 3 (257) is 0, 'a' 10, end-of-block 11; distance 1 is 0: "a" then three more.
        let match = Self.dynamic(Self.literals([97: 2, 256: 2, 257: 1]), [1]) { $0.code(0b10_0_0_11, 6) }
        #expect(try Inflate.raw(match, limit: 10) == Array("aaaa".utf8))
        let unusedDistance = Self.dynamic(Self.literals([97: 2, 256: 2, 257: 1]), [1]) { $0.code(0b10_0_1, 4) }
        #expect(Self.reason(unusedDistance) == "a bit pattern that is no code")
        #expect(try Inflate.raw(Self.dynamic(Self.literals([97: 2, 256: 2, 257: 1]), [0]) { $0.code(0b10_11, 4) }, limit: 10) == [97])
        let noDistance = Self.dynamic(Self.literals([97: 2, 256: 2, 257: 1]), [0]) { $0.code(0b10_0, 3) }
        #expect(Self.reason(noDistance) == "a bit pattern that is no code")
    }

    @Test func badCodeLengthRunsAndCountsAreRefused() {
        var writer = DeflateWriter()
        writer.dynamicHeader(
            literalCount: 257, distanceCount: 1, codeLengthLengths: [1] + [Int](repeating: 0, count: 15) + [1, 0, 0], runs: [(16, 0)])
        #expect(Self.reason(writer.bytes) == "a code length repeat with no length before it")
        writer = DeflateWriter()
        writer.dynamicHeader(
            literalCount: 257, distanceCount: 1, codeLengthLengths: [1] + [Int](repeating: 0, count: 17) + [1],
            runs: [(18, 127), (18, 127)])
        #expect(Self.reason(writer.bytes) == "code lengths repeated past the 258 codes")
        writer = DeflateWriter()
        writer.dynamicHeader(literalCount: 287, distanceCount: 1, codeLengthLengths: [Int](repeating: 0, count: 19), runs: [])
        #expect(Self.reason(writer.bytes) == "287 literal/length or 1 distance codes (at most 286 and 30)")
        writer = DeflateWriter()
        writer.dynamicHeader(literalCount: 257, distanceCount: 31, codeLengthLengths: [Int](repeating: 0, count: 19), runs: [])
        #expect(Self.reason(writer.bytes) == "257 literal/length or 31 distance codes (at most 286 and 30)")
    }

    /// A fixed-code block (RFC 1951 §3.2.6): 'a' is 8 bits 0x30 + 97, length 3 (257) is 7 bits 1, symbols 280-287
    /// are 8 bits 0xC0 + (symbol - 280), distances 5 bits.
    static func fixed(_ data: (inout DeflateWriter) -> Void) -> [UInt8] {
        var writer = DeflateWriter()
        writer.bits(1, 1)
        writer.bits(1, 2)
        data(&writer)
        return writer.bytes
    }

    @Test func distancesTooFarBackAndReservedSymbolsAreRefused() {
        let tooFar = Self.fixed {
            $0.code(0x30 + 97, 8)
            $0.code(1, 7)
            $0.code(1, 5) // distance 2, with one byte decoded
        }
        #expect(Self.reason(tooFar) == "distance 2 too far back (1 bytes decoded)")
        let atStart = Self.fixed {
            $0.code(1, 7)
            $0.code(0, 5)
        }
        #expect(Self.reason(atStart) == "distance 1 too far back (0 bytes decoded)")
        #expect(Self.reason(Self.fixed { $0.code(0xC0 + 6, 8) }) == "invalid length symbol 286")
        let distance30 = Self.fixed {
            $0.code(0x30 + 97, 8)
            $0.code(1, 7)
            $0.code(30, 5)
        }
        #expect(Self.reason(distance30) == "invalid distance symbol 30")
    }

    /// Each gzip member is a stream of its own (RFC 1952 §2.2): a match in the second cannot copy from the first.
    @Test func aGzipMemberCannotReachBackIntoTheMemberBeforeIt() throws {
        func member(_ deflate: [UInt8], decodesTo output: [UInt8]) -> [UInt8] {
            let crc = Checksums.crc32(output[...])
            let size = UInt32(output.count)
            return [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03] + deflate + (0..<4).map { UInt8(truncatingIfNeeded: crc >> ($0 * 8)) }
                + (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
        }
        let first = member(
            Self.fixed {
                $0.code(0x30 + 97, 8)
                $0.code(0, 7)
            }, decodesTo: [97])
        let second = member(
            Self.fixed {
                $0.code(1, 7)
                $0.code(0, 5)
                $0.code(0, 7)
            }, decodesTo: [97, 97, 97])
        #expect(try Inflate.gunzip(first + first, limit: 10) == [97, 97])
        #expect(
            InflateTests.reason { () throws(Inflate.Error) in try Inflate.gunzip(first + second, limit: 10) }
                == "distance 1 too far back (0 bytes decoded)")
    }

    @Test func badBlockTypesAndStoredLengthsAreRefused() throws {
        #expect(Self.reason([0x07]) == "invalid block type 3")
        #expect(Self.reason([0x01, 0x05, 0x00, 0xFB, 0xFF] + Array("hello".utf8)) == "stored block length 5 does not match its complement")
        #expect(throws: Inflate.Error.truncated) { try Inflate.raw([0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hell".utf8), limit: 10) }
        #expect(throws: Inflate.Error.overLimit(4)) { try Inflate.raw([0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8), limit: 4) }
        #expect(try Inflate.raw([0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8), limit: 5) == Array("hello".utf8))
    }

    @Test func badWrappersAreRefusedByName() throws {
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03, 0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(try Inflate.gunzip(gzip, limit: 0) == [])
        var bad = gzip
        bad[2] = 7
        #expect(
            InflateTests.reason { () throws(Inflate.Error) in try Inflate.gunzip(bad, limit: 0) }
                == "compression method 7 is not DEFLATE (8)")
        bad = gzip
        bad[3] = 0x20
        #expect(InflateTests.reason { () throws(Inflate.Error) in try Inflate.gunzip(bad, limit: 0) } == "reserved header flags are set")
        #expect(
            InflateTests.reason { () throws(Inflate.Error) in try Inflate.gunzip(Array("{\"a\":1}".utf8) + [0, 0, 0], limit: 0) }
                == "not gzip data (no 1F 8B)")
        for (header, reason) in [
            ([0x78, 0x9D], "header check bits are wrong"), ([0x79, 0x9C], "compression method 9 is not DEFLATE (8)"),
            ([0x88, 0x98], "window size 2^16 is larger than 32 KiB"), ([0x78, 0xBB], "a preset dictionary is needed"),
        ] as [([UInt8], String)] {
            #expect(
                InflateTests.reason { () throws(Inflate.Error) in try Inflate.zlib(header + [0x03, 0x00, 0, 0, 0, 1], limit: 0) } == reason)
        }
        #expect(try Inflate.zlib([0x78, 0x9C, 0x03, 0x00, 0, 0, 0, 1], limit: 0) == [])
    }

    @Test func errorsSayWhy() {
        #expect("\(Inflate.Error.truncated)" == "the compressed data ends too soon")
        #expect("\(Inflate.Error.overLimit(16_777_216))" == "the decompressed data is larger than 16777216 bytes")
        #expect("\(Inflate.Error.corrupt("invalid block type 3", offset: 2))" == "corrupt compressed data at byte 2: invalid block type 3")
    }

    @Test func checksumsAreTheStandardOnes() {
        #expect(Checksums.crc32(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(Checksums.adler32(Array("Wikipedia".utf8)[...]) == 0x11E6_0398)
        let large = [UInt8](repeating: 0xFF, count: 100_000)
        #expect(Checksums.adler32(large[...]) == Checksums.adler32(large[50_000...], continuing: Checksums.adler32(large[..<50_000])))
        #expect(Checksums.crc32(large[...]) == Checksums.crc32(large[50_000...], continuing: Checksums.crc32(large[..<50_000])))
    }
}
