/// Decimal literals compared by value, for ``JSONParser/parse(request:)``: a request's number is read only when no
/// other decimal reads as the same Double.
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
}
