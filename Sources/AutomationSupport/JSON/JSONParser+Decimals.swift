/// Numbers: how the parser reads one, and decimal literals compared by value (for ``JSONParser/parse(request:)``, a
/// request's number is read only when no other decimal reads as the same Double; for flags, one a Double cannot
/// hold is refused).
extension JSONParser {
    /// Whether the two literals are the same decimal value (false when either is not read).
    package static func sameDecimal(_ first: String, _ second: String) -> Bool {
        guard let one = decimal(first), let other = decimal(second) else { return false }
        return one.negative == other.negative && one.digits == other.digits && one.exponent == other.exponent
    }

    /// A decimal literal's value as sign, significant digits and exponent (`-1.50e2` and `-150` alike), or nil past
    /// nine exponent digits. Two literals with the same value give the same triple.
    package static func decimal(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var fraction = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                fraction = true
            } else {
                digits.append(byte)
                if fraction { exponent -= 1 }
            }
        }
        if !bytes.isEmpty {
            let written = bytes.dropFirst()
            guard written.count <= 10, let value = Int(String(decoding: written, as: UTF8.self)) else { return nil }
            exponent += value
        }
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return digits.isEmpty ? (false, [], 0) : (negative, digits, exponent)
    }

    /// A number from `index` (`start` is where it begins), as an Int when it is a whole number that fits, else a
    /// Double; refused where the parser's options say a value would change.
    mutating func parseNumber(_ start: SourcePosition) throws(Error) -> JSONNode {
        let begin = index
        var isIntegral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers cannot have leading zeros", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isIntegral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isIntegral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isIntegral, index - begin <= 18 { // fits an Int without overflow checks: no text to build
            var number = 0
            for position in (bytes[begin] == UInt8(ascii: "-") ? begin + 1 : begin)..<index {
                number = number * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            }
            return JSONNode(.int(bytes[begin] == UInt8(ascii: "-") ? -number : number), at: start)
        }
        let text = String(decoding: bytes[begin..<index], as: UTF8.self)
        if isIntegral, let number = Int(text) { return JSONNode(.int(number), at: start) }
        if isIntegral, exactIntegers {
            let shown = text.count > 40 ? text.prefix(20) + "…(\(text.count) digits)" : text
            throw error("the integer \(shown) does not fit in 64 bits; write it as a string (\"…\") or as a decimal", at: start)
        }
        guard let number = Double(text), number.isFinite else { throw error("number \(text) is out of range", at: start) }
        // 1e-400 is refused as 1e400 is (a flag must not arrive as 0 when something else was written), and so is any
        // decimal a Double would round.
        if exactDecimals, !Self.sameDecimal(text, number.description) {
            throw error("the number \(text.prefix(40)) has more digits than a double keeps (it would read as \(number))", at: start)
        }
        return JSONNode(.double(number), at: start)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
