/// The strings of ``MessagesLine``: checked eight bytes at a time (SWAR, "SIMD within a register": one 64-bit load
/// finds whether a word holds a `"`, a `\` or a control byte, and where the first is), and decoded by copying the
/// runs between escapes at once. What a string may hold is what ``JSONParser`` accepts: any byte but `"`, `\` and
/// the control bytes 0x00–0x1F, escapes `\" \\ \/ \b \f \n \r \t` and `\u` with four hex digits. Bytes of 0x80 and
/// above are kept as they are (invalid UTF-8 is read as U+FFFD, as ``JSONParser`` reads it with `repairingUTF8`);
/// the scan says whether a string has any, which a member name must not (``MessagesLine`` leaves such a name to
/// ``JSONParser``, which compares names as Strings).
enum MessagesString {
    /// A string checked: where its closing quote is, whether it has an escape, whether it has a byte of 0x80 or above.
    struct Span {
        let closing: Int
        let escaped: Bool
        let high: Bool
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `word` (its first byte the lowest) that are `"`, `\` or below 0x20: the high bit of the first
    /// such byte is set, and no bit below it (bits above may be set by a borrow: only the lowest counts).
    ///
    /// A byte `b` is 0 when `(b - 1) & ~b` has its high bit, and below 0x20 when `(b - 0x20) & ~b` has: `"` and `\`
    /// are found as zeros of the word XOR-ed with them, and as neither has its high bit, `~(word ^ "…")` has the same
    /// high bits as `~word`: one AND with `~word` serves the three tests.
    @inline(__always)
    static func special(_ word: UInt64) -> UInt64 {
        let quote = (word ^ (ones &* 0x22)) &- ones
        let backslash = (word ^ (ones &* 0x5C)) &- ones
        let control = word &- ones &* 0x20
        return (quote | backslash | control) & ~word & highs
    }

    /// Checks the string whose content starts at `start` (after its opening quote) and must end before `end`: nil
    /// when it does not (a control byte, a bad escape, no closing quote before `end`). A word is loaded wherever eight
    /// bytes of `bytes` remain, past `end` too (what lies past `end` is never taken for the string's).
    @inline(__always)
    static func span(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Span? {
        guard let base = bytes.baseAddress else { return nil }
        let lastWord = bytes.count - 8
        var index = start
        var escaped = false
        var seen: UInt64 = 0 // every content byte OR-ed: its high bits say whether one is 0x80 or above
        while index < end {
            if index <= lastWord {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let found = special(word)
                if found == 0 {
                    seen |= word
                    index += 8
                    continue
                }
                let offset = found.trailingZeroBitCount >> 3
                seen |= word & ((1 &<< (offset &<< 3)) &- 1)
                index += offset
                guard index < end else { return nil }
            }
            // A special byte found in a word, or any byte of the last seven of the buffer.
            let byte = base[index]
            if byte == UInt8(ascii: "\"") { return Span(closing: index, escaped: escaped, high: seen & highs != 0) }
            guard byte >= 0x20 else { return nil }
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                seen |= UInt64(byte)
                continue
            }
            escaped = true
            guard index < end else { return nil }
            switch base[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                // Four checks, not a slice's allSatisfy (unspecialised, it cost a metadata lookup per escape).
                guard end - index > 4, isHex(base[index + 1]), isHex(base[index + 2]), isHex(base[index + 3]), isHex(base[index + 4])
                else { return nil }
                index += 5
            default: return nil
            }
        }
        return nil
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// The four hex digits at `at` (checked by ``span(_:from:end:)``).
    private static func hex4(_ bytes: UnsafePointer<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[offset]
            let digit = byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : (byte | 0x20) &- UInt8(ascii: "a") &+ 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The bytes of the string whose content (checked by ``span(_:from:end:)``) is `content`, escapes decoded as
    /// ``JSONParser`` decodes them (a surrogate pair is one character, a lone surrogate U+FFFD). Invalid UTF-8 is
    /// kept as it is (read as U+FFFD, as ``JSONParser`` reads it). No escape makes more bytes than it takes, so the
    /// result is written into an array of the content's size, the runs between escapes copied at once.
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> [UInt8] {
        guard let base = bytes.baseAddress, !content.isEmpty else { return [] }
        return [UInt8](unsafeUninitializedCapacity: content.count) { buffer, written in
            let out = buffer.baseAddress!
            var at = content.lowerBound
            var count = 0
            while at < content.upperBound {
                let run = runLength(base + at, content.upperBound - at)
                (out + count).update(from: base + at, count: run)
                count += run
                at += run
                guard at < content.upperBound else { break }
                let escape = base[at + 1]
                at += 2
                guard escape == UInt8(ascii: "u") else {
                    out[count] = single(escape)
                    count += 1
                    continue
                }
                var scalar = hex4(base + at)
                at += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // As JSONParser: a `\u` after a high surrogate is taken with it, a pair or U+FFFD.
                    if content.upperBound - at >= 6, base[at] == UInt8(ascii: "\\"), base[at + 1] == UInt8(ascii: "u") {
                        let second = hex4(base + at + 2)
                        at += 6
                        scalar = (0xDC00...0xDFFF).contains(second) ? 0x10000 + ((scalar - 0xD800) << 10) + (second - 0xDC00) : 0xFFFD
                    } else {
                        scalar = 0xFFFD
                    }
                }
                for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! {
                    out[count] = byte
                    count += 1
                }
            }
            written = count
        }
    }

    /// The byte an escape other than `\u` stands for.
    @inline(__always)
    private static func single(_ escape: UInt8) -> UInt8 {
        switch escape {
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: escape // \" \\ \/
        }
    }

    /// How many of the `count` bytes at `start` come before the first `\` (all of them when none is).
    @inline(__always)
    private static func runLength(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var offset = 0
        while count - offset >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)) ^ (ones &* 0x5C)
            let found = (word &- ones) & ~word & highs
            if found != 0 { return offset + found.trailingZeroBitCount >> 3 }
            offset += 8
        }
        while offset < count, start[offset] != UInt8(ascii: "\\") { offset += 1 }
        return offset
    }

    /// Whether the `count` bytes at `first` are those at `second`: eight at a time, then one at a time.
    @inline(__always)
    static func equal(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var offset = 0
        while count - offset >= 8 {
            guard
                UnsafeRawPointer(first + offset).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(second + offset).loadUnaligned(as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }
}
