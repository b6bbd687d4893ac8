extension JSONPath {
    /// A double as Java's Double.toString writes it (what WireMock compares): `1.0`, `0.5`, `1.0E7`, `1.5E-5`.
    /// The digits are Swift's shortest round-trip ones, as Java's are; only where the point goes differs.
    static func javaText(_ number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity") }
        let magnitude = abs(number)
        if magnitude == 0 || (magnitude >= 1e-3 && magnitude < 1e7) {
            let text = "\(number)"
            return text.contains(".") ? text : text + ".0"
        }
        var text = "\(magnitude)" // "10000000.0", "1e+16", "1.5e-05"
        var exponent = 0
        if let mark = text.firstIndex(of: "e") {
            exponent = Int(text[text.index(after: mark)...]) ?? 0
            text = String(text[..<mark])
        }
        let point = text.firstIndex(of: ".")
        let whole = point.map { String(text[..<$0]) } ?? text
        var digits = whole + (point.map { String(text[text.index(after: $0)...]) } ?? "")
        exponent += whole.count - 1
        while digits.count > 1 && digits.hasPrefix("0") {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        return (number < 0 ? "-" : "") + "\(digits.prefix(1)).\(digits.count > 1 ? String(digits.dropFirst()) : "0")E\(exponent)"
    }
}
