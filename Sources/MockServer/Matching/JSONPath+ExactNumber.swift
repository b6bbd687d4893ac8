import AutomationSupport

extension JSONPath {
    /// A number as Jayway compares filter numbers: a BigDecimal, exact. Comparing Doubles made
    /// `@.id == 9007199254740993` hold for 9007199254740992 (the same Double), and a 20-digit literal equal to every
    /// request number rounding to its Double: a stub for one id answered for another.
    struct ExactNumber: Sendable, Hashable {
        let negative: Bool
        /// Significant digits (ASCII), no leading or trailing zero; empty for zero.
        let digits: [UInt8]
        /// The value is `digits` × 10^exponent.
        let exponent: Int

        /// The value a JSON number literal spells; nil past nine exponent digits.
        init?(literal: String) {
            guard let decimal = JSONParser.decimal(literal) else { return nil }
            (negative, digits, exponent) = (decimal.negative, decimal.digits, decimal.exponent)
        }

        /// The value of a number a request holds: an Int as it is, a Double by its shortest text, which the request
        /// parser checked is the very value written (it refuses a decimal a Double would blur).
        init?(_ node: JSONNode) {
            switch node.value {
            case .int(let number): self.init(literal: String(number))
            case .double(let number) where number.isFinite: self.init(literal: number.description)
            default: return nil
            }
        }

        /// Whether `self comparison other` holds (`==`, `!=`, `<`, `>`, `<=`, `>=`), BigDecimal's compareTo.
        func holds(_ comparison: String, _ other: ExactNumber) -> Bool {
            let order = compare(other)
            switch comparison {
            case "==": return order == 0
            case "!=": return order != 0
            case "<": return order < 0
            case ">": return order > 0
            case "<=": return order <= 0
            default: return order >= 0
            }
        }

        /// -1, 0 or 1 as `self` is below, equal to or above `other`.
        func compare(_ other: ExactNumber) -> Int {
            let sign = digits.isEmpty ? 0 : (negative ? -1 : 1)
            let otherSign = other.digits.isEmpty ? 0 : (other.negative ? -1 : 1)
            guard sign == otherSign else { return sign < otherSign ? -1 : 1 }
            guard sign != 0 else { return 0 }
            return sign * compareMagnitude(other)
        }

        private func compareMagnitude(_ other: ExactNumber) -> Int {
            // The position of the leading digit decides first; then the digits, left to right (no trailing zeros,
            // so a prefix is the smaller).
            let leading = digits.count + exponent
            let otherLeading = other.digits.count + other.exponent
            guard leading == otherLeading else { return leading < otherLeading ? -1 : 1 }
            if digits == other.digits { return 0 }
            return digits.lexicographicallyPrecedes(other.digits) ? -1 : 1
        }
    }
}
