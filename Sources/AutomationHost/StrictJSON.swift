import DecimalLiterals

/// One JSON value read with the rules `sut-launch -f KEY:=JSON` and flags files apply (R4a-9): exactly one value
/// (nothing after it but spaces), no duplicate key, whole numbers within 64 bits, decimals within a Double, strings
/// with no lone surrogate, arrays and objects nested at most 128 deep (a scalar adds no level, as sut-launch's `:=`
/// check and its flags-file reader count: a scalar inside the 128th array was refused here, and the whole kind of
/// flags with it, after sut-launch had accepted it; R10C-4). The Host library imports nothing of ours but the leaf
/// `DecimalLiterals` (whose number rule this reader and the CLI's both call), so it has its own reader; Foundation's JSONDecoder took the last of two keys, a 65-bit integer as a rounded Double, and the
/// control channel's `flag set k:=JSON` pasted into `{"v":…}` accepted text that is not one JSON value.
enum StrictJSON {
    static let maxDepth = 128

    /// The value, or a one-line reason naming where (byte offset) and what.
    static func parse(_ text: String) -> Result<FlagValue, WireFormatProblem> {
        var reader = Reader(bytes: Array(text.utf8))
        do throws(Failure) {
            reader.skipSpaces()
            let value = try reader.value(depth: 0)
            reader.skipSpaces()
            guard reader.position == reader.bytes.count else { throw reader.failure("unexpected text after the value") }
            return .success(value)
        } catch {
            return .failure(WireFormatProblem(source: "", message: error.message))
        }
    }

    struct Failure: Error {
        var message: String
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        func failure(_ what: String) -> Failure {
            Failure(message: what + " at offset \(position)")
        }

        mutating func skipSpaces() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        /// `depth`: the arrays and objects around the value.
        mutating func value(depth: Int) throws(Failure) -> FlagValue {
            guard position < bytes.count else { throw failure("the value is missing") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try word("true", .bool(true))
            case UInt8(ascii: "f"): return try word("false", .bool(false))
            case UInt8(ascii: "n"): return try word("null", .null)
            default: return try number()
            }
        }

        mutating func word(_ text: String, _ value: FlagValue) throws(Failure) -> FlagValue {
            let expected = Array(text.utf8)
            guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else {
                throw failure("not a JSON value")
            }
            position += expected.count
            return value
        }

        func enter(_ depth: Int) throws(Failure) {
            guard depth < StrictJSON.maxDepth else { throw failure("nested more than \(StrictJSON.maxDepth) levels deep") }
        }

        mutating func object(depth: Int) throws(Failure) -> FlagValue {
            try enter(depth)
            position += 1
            var members: [String: FlagValue] = [:]
            skipSpaces()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
                let keyAt = position
                let key = try string()
                guard members[key] == nil else {
                    position = keyAt
                    throw failure("duplicate key \"\(key.prefix(40))\"")
                }
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
                position += 1
                skipSpaces()
                members[key] = try value(depth: depth + 1)
                skipSpaces()
                guard position < bytes.count else { throw failure("the object is not closed") }
                if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                guard bytes[position] == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
                position += 1
            }
        }

        mutating func array(depth: Int) throws(Failure) -> FlagValue {
            try enter(depth)
            position += 1
            var elements: [FlagValue] = []
            skipSpaces()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpaces()
                elements.append(try value(depth: depth + 1))
                skipSpaces()
                guard position < bytes.count else { throw failure("the array is not closed") }
                if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                guard bytes[position] == UInt8(ascii: ",") else { throw failure("expected ',' or ']'") }
                position += 1
            }
        }

        mutating func number() throws(Failure) -> FlagValue {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
            let digitsStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            let integerDigits = position - digitsStart
            guard integerDigits > 0, !(integerDigits > 1 && bytes[digitsStart] == 0x30) else {
                position = start
                throw failure("not a JSON value")
            }
            var isWhole = true
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isWhole = false
                position += 1
                let fraction = position
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
                guard position > fraction else { throw failure("a digit must follow the decimal point") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                isWhole = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                let exponent = position
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
                guard position > exponent else { throw failure("a digit must follow the exponent") }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if isWhole {
                guard let whole = Int(text) else {
                    position = start
                    throw failure(DecimalLiteral.widthProblem(text) + DecimalLiteral.asTextHint + " or as a decimal")
                }
                if let problem = DecimalLiteral.integerProblem(text) {
                    position = start
                    throw failure(problem)
                }
                return .int(whole)
            }
            guard let decimal = Double(text), decimal.isFinite else {
                position = start
                throw failure(DecimalLiteral.rangeProblem(text) + DecimalLiteral.asTextHint)
            }
            // The CLI's rule, the same code: 1e-400 and 1.0000000000000000001 are refused, not read as 0 and 1.
            if let problem = DecimalLiteral.roundingProblem(text, reads: decimal) {
                position = start
                throw failure(problem + DecimalLiteral.asTextHint)
            }
            return .double(decimal)
        }

        mutating func string() throws(Failure) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var run = position
            func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    flush(position)
                    position += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw failure("a control character must be escaped in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    position += 1
                    continue
                }
                flush(position)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                default: throw failure("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                run = position
            }
            throw failure("the string is not closed")
        }

        /// `\uXXXX` (after the `u`), a surrogate pair as one scalar; a lone surrogate is refused, as the CLI refuses it.
        mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
            let high = try hex4()
            if (0xD800...0xDBFF).contains(high) {
                guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure("a lone surrogate \\u\(String(high, radix: 16)) is not text")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone surrogate \\u\(String(high, radix: 16)) is not text") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("a lone surrogate \\u\(String(high, radix: 16)) is not text") }
            return scalar
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            let digits = bytes.count - position >= 4 ? Array(bytes[position..<position + 4]) : []
            guard digits.count == 4, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
            else { throw failure("\\u needs four hex digits") }
            position += 4
            return value
        }
    }
}
