import DecimalLiterals

/// Numbers: how the parser reads one, and decimal literals compared by value (for ``JSONParser/parse(request:)``, a
/// request's number is read only when no other decimal reads as the same Double; for flags, one a Double cannot
/// hold is refused).
extension JSONParser {
    /// Whether the two literals are the same decimal value (false when either is not read): ``DecimalLiteral/same(_:_:)``.
    package static func sameDecimal(_ first: String, _ second: String) -> Bool { DecimalLiteral.same(first, second) }

    /// A decimal literal's value as sign, significant digits and exponent: ``DecimalLiteral/value(_:)``.
    package static func decimal(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? { DecimalLiteral.value(text) }

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
            if number == 0, exactIntegers, bytes[begin] == UInt8(ascii: "-"),
                let problem = DecimalLiteral.integerProblem(String(decoding: bytes[begin..<index], as: UTF8.self))
            {
                throw error(problem, at: start) // `-0` for a flag: the sign would go in silence
            }
            return JSONNode(.int(bytes[begin] == UInt8(ascii: "-") ? -number : number), at: start)
        }
        let text = String(decoding: bytes[begin..<index], as: UTF8.self)
        if isIntegral, let number = Int(text) { return JSONNode(.int(number), at: start) }
        if isIntegral, exactIntegers {
            throw error(DecimalLiteral.widthProblem(text) + DecimalLiteral.asTextHint + " or as a decimal", at: start)
        }
        // A flag's number (exactIntegers) says how to send the text instead, as one past 64 bits does.
        let asText = exactIntegers ? DecimalLiteral.asTextHint : ""
        guard let number = Double(text), number.isFinite else { throw error(DecimalLiteral.rangeProblem(text) + asText, at: start) }
        // 1e-400 is refused as 1e400 is (a flag must not arrive as 0 when something else was written), and so is any
        // decimal a Double would round.
        if exactDecimals, let problem = DecimalLiteral.roundingProblem(text, reads: number) { throw error(problem + asText, at: start) }
        var node = JSONNode(.double(number), at: start)
        // Elsewhere the literal is kept beside its Double when the Double would round it, so a document written back
        // (a stub's jsonBody, a route's JSON, a template's toJson) carries the number written, never 1.8446744073709552e+19.
        if text != number.description, DecimalLiteral.roundingProblem(text, reads: number) != nil { node.literal = text }
        return node
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
