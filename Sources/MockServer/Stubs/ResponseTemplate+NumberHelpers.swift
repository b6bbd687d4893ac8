import AutomationSupport

// MARK: - Number and random helpers: math, randomValue, randomInt, randomDecimal, pickRandom, range

extension ResponseTemplate.Renderer {
    /// A number or random helper's value, or nil when `helper` is not one.
    mutating func numberHelper(_ helper: String, _ arguments: [Value], _ options: [String: Value]) throws(RenderError) -> Value? {
        switch helper {
        case "math": return try math(arguments)
        case "randomValue": return .string(try randomValue(options))
        case "randomInt":
            try charge(ResponseTemplate.randomCost, at: helper)
            let lower = try options["lower"].map { value throws(RenderError) in try javaInt(value, "randomInt lower") } ?? Int(Int32.min)
            let upper = try options["upper"].map { value throws(RenderError) in try javaInt(value, "randomInt upper") } ?? Int(Int32.max)
            guard lower < upper else {
                throw .value("{{randomInt}}: lower (\(lower)) must be below upper (\(upper)), which is never returned")
            }
            return .integer(Int.random(in: lower..<upper))
        case "randomDecimal":
            try charge(ResponseTemplate.randomCost, at: helper)
            let lower = try options["lower"].map { value throws(RenderError) in try javaDouble(value, "randomDecimal lower") }
            let upper = try options["upper"].map { value throws(RenderError) in try javaDouble(value, "randomDecimal upper") }
            return .real(try Self.randomDecimal(lower ?? Double.leastNonzeroMagnitude, upper ?? Double.greatestFiniteMagnitude))
        case "pickRandom":
            let candidates: [Value]
            switch arguments.first {
            case nil, .null?: return .string("[ERROR: Must specify either a single list argument or a set of single value arguments.]")
            case .list(let values)?: candidates = values
            case .json(let node)? where node.elements != nil: candidates = node.elements!.map(Value.json)
            default: candidates = arguments
            }
            try charge(ResponseTemplate.randomCost, at: helper)
            guard let picked = candidates.randomElement() else { return .null }
            return .string(try text(picked, at: "pickRandom"))
        case "range":
            let lower = try arguments.first.flatMap { value throws(RenderError) in try rangeBound(value) }
            let upper = try arguments.dropFirst().first.flatMap { value throws(RenderError) in try rangeBound(value) }
            guard let lower, let upper else {
                return .string("[ERROR: The range helper requires both lower and upper bounds as integer parameters]")
            }
            let count = upper - lower + 1
            guard count >= 0 else {
                throw .value("{{range \(lower) \(upper)}}: the upper bound is below the lower (WireMock fails this answer too)")
            }
            try charge(count * ResponseTemplate.valueCost, at: "range")
            return .list((0..<count).map { .integer(lower + $0) })
        default: return nil
        }
    }

    /// `math a '+' b` with `+ - * x / %`, in Java's BigDecimal as WireMock computes: a whole result prints as an
    /// Integer (or Long), any other as a Double (`3.0`, `1.5E7`); `/` keeps the left operand's decimal places,
    /// rounding half up (`10 / 4` is 3, `10.0 / 4` is 2.5). Operands that are not numbers count as 0.
    private mutating func math(_ arguments: [Value]) throws(RenderError) -> Value {
        guard arguments.count == 3 else {
            return .string("[ERROR: All maths functions require two operands and an operator as parameters e.g. 3 '+' 2]")
        }
        let operation = try text(arguments[1], at: "math")
        try charge(32, at: "math")
        guard ResponseTemplate.mathOperators.contains(operation) else {
            return .string("[ERROR: \(operation) is not a valid mathematical operator]")
        }
        let left = try decimal(arguments[0])
        let right = try decimal(arguments[2])
        guard let result = JavaDecimal.apply(operation, left, right) else {
            if (operation == "/" || operation == "%") && right.unscaled == 0 {
                throw .value(
                    "{{math}}: division by zero (\(Self.scalarText(of: arguments[0])) \(operation) 0; WireMock fails this answer too)")
            }
            throw .value(
                "{{math}}: \(Self.scalarText(of: arguments[0])) \(operation) \(Self.scalarText(of: arguments[2])) is out of the range computed here (18 significant digits)"
            )
        }
        // WireMock prints the nearest Double, so a result past ±1.8E308 is `Infinity` there and one below 4.9E-324 is
        // `0.0`: a wrong number answered with a 200. Here it is the 400 the docs promise.
        guard result.isDoubleExact else {
            throw .value(
                "{{math}}: \(Self.scalarText(of: arguments[0])) \(operation) \(Self.scalarText(of: arguments[2])) is 1E\(result.magnitude): out of a double's range (±4.9E-324 to ±1.8E308), where WireMock prints Infinity or 0.0"
            )
        }
        return result.javaValue
    }

    /// An operand as WireMock makes it a BigDecimal: Integers and Longs as they are, Doubles through their Java
    /// text, anything else through its text (0 when that is not a number).
    private mutating func decimal(_ value: Value) throws(RenderError) -> JavaDecimal {
        switch value {
        case .null: throw .value("{{math}}: an operand is missing (WireMock fails this answer too)")
        case .integer(let number): return JavaDecimal(unscaled: number, scale: 0)
        case .real(let number): return JavaDecimal(JavaNumberText.double(number)) ?? JavaDecimal(unscaled: 0, scale: 0)
        case .json(let node):
            if case .int(let number) = node.value { return JavaDecimal(unscaled: number, scale: 0) }
            if case .double(let number) = node.value {
                return JavaDecimal(JavaNumberText.double(number)) ?? JavaDecimal(unscaled: 0, scale: 0)
            }
            fallthrough
        default:
            let text = try self.text(value, at: "math")
            try charge(text.utf8.count, at: "math")
            if let number = JavaDecimal(text) { return number }
            guard JavaDecimal.isNumber(text) else { return JavaDecimal(unscaled: 0, scale: 0) }
            throw .value("{{math}}: '\(text.prefix(40))' has more digits than computed here (18 significant digits)")
        }
    }

    /// A bound of `randomInt`, as WireMock's `coerceToInt` reads one: a number's `intValue()`, text through
    /// `Integer.parseInt` (a request value it refuses is a 400 naming it).
    private mutating func javaInt(_ value: Value, _ name: String) throws(RenderError) -> Int {
        switch value {
        case .integer(let number): return Int(Int32(truncatingIfNeeded: number))
        case .real(let number): return Self.javaIntValue(number)
        case .json(let node) where node.double != nil:
            if case .int(let number) = node.value { return Int(Int32(truncatingIfNeeded: number)) }
            return Self.javaIntValue(node.double ?? 0)
        default:
            let text = try text(value, at: name)
            guard let number = BoundedNumber.integer(text, in: Int(Int32.min)...Int(Int32.max)) else {
                throw .value("{{\(name)=…}}: '\(text.prefix(40))' is not a whole number from \(Int32.min) to \(Int32.max)")
            }
            return number
        }
    }

    /// `Double.intValue()`: toward zero, NaN as 0, saturated at Integer's ends (never `Int(double)`, which traps).
    static func javaIntValue(_ number: Double) -> Int {
        if number.isNaN { return 0 }
        return BoundedNumber.integer(number, in: Int(Int32.min)...Int(Int32.max)) ?? (number < 0 ? Int(Int32.min) : Int(Int32.max))
    }

    /// A bound of `randomDecimal`: a finite number.
    private mutating func javaDouble(_ value: Value, _ name: String) throws(RenderError) -> Double {
        if let number = Self.number(value), number.isFinite { return number }
        let text = try text(value, at: name)
        throw .value("{{\(name)=…}}: '\(text.prefix(40))' is not a finite number")
    }

    /// `ThreadLocalRandom.nextDouble(lower, upper)`: upper never returned, a span past Double's range halved.
    static func randomDecimal(_ lower: Double, _ upper: Double) throws(RenderError) -> Double {
        guard lower < upper else { throw .value("{{randomDecimal}}: lower (\(lower)) must be below upper (\(upper))") }
        let unit = Double.random(in: 0..<1)
        var result = (upper - lower).isFinite ? unit * (upper - lower) + lower : (unit * (0.5 * upper - 0.5 * lower) + 0.5 * lower) * 2
        if result >= upper { result = upper.nextDown }
        return result
    }

    /// A bound of `range`: a number's `intValue()`, text through `Integer.parseInt`; nil for anything else.
    private mutating func rangeBound(_ value: Value) throws(RenderError) -> Int? {
        switch value {
        case .integer, .real, .json, .string: return try javaInt(value, "range")
        default: return nil
        }
    }

    /// `randomValue length=36 type='ALPHANUMERIC' uppercase=false`: as WireMock, lower case unless `uppercase`.
    /// Charged at least its CPU, as `regexExtract` is (r9a B1: a loop of `randomValue length=1000` cost 17 times the
    /// loop's CPU for its units, each character drawn through generic code and the text cased afterwards).
    private mutating func randomValue(_ options: [String: Value]) throws(RenderError) -> String {
        try chargingCPU(at: "randomValue") { (renderer: inout Self) throws(RenderError) in try renderer.randomValueCounted(options) }
    }

    private mutating func randomValueCounted(_ options: [String: Value]) throws(RenderError) -> String {
        let type = try options["type"].map { value throws(RenderError) in try text(value, at: "randomValue") } ?? "ALPHANUMERIC"
        try ResponseTemplate.checkRandomType(type)
        let uppercase = options["uppercase"].map(Self.isTruthy) ?? false
        // One system draw seeds a fast generator: a getrandom call per character made a 64 MiB budget cost 17 s of CPU.
        try charge(ResponseTemplate.randomCost, at: "randomValue")
        var generator = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        if type == "UUID" {
            try charge(36 * 4, at: "randomValue")
            let (high, low) = (generator.next(), generator.next())
            var bytes = (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> (UInt64($0 % 8) * 8)) }
            bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
            bytes[8] = bytes[8] & 0x3F | 0x80 // the IETF variant
            let hex = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
            var text: [UInt8] = []
            for (index, byte) in bytes.enumerated() {
                if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
                text += [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
            return String(decoding: text, as: UTF8.self)
        }
        let length =
            try options["length"].map { value throws(RenderError) in try ResponseTemplate.randomLength(text(value, at: "randomValue")) }
            ?? 36
        try charge(length * ResponseTemplate.randomCharacterCost, at: "randomValue")
        return Self.randomText(length, ResponseTemplate.randomAlphabet(type, uppercase: uppercase), &generator)
    }

    /// `length` characters drawn from `alphabet` (already cased: WireMock cases the whole text, ASCII only, so the
    /// same letters drawn the same number of times), two from each 64-bit draw, into the bytes in one pass.
    private static func randomText(_ length: Int, _ alphabet: [UInt8], _ generator: inout SplitMix64) -> String {
        let count = UInt64(alphabet.count)
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            alphabet.withUnsafeBufferPointer { letters in
                var index = 0
                while index < length {
                    let draw = generator.next()
                    buffer[index] = letters[Int(truncatingIfNeeded: ((draw & 0xFFFF_FFFF) &* count) >> 32)]
                    if index + 1 < length { buffer[index + 1] = letters[Int(truncatingIfNeeded: ((draw >> 32) &* count) >> 32)] }
                    index += 2
                }
            }
            initialized = length
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ResponseTemplate {
    /// The characters `randomValue type=…` draws from, in the case it prints them (`uppercase=true` or lower).
    static func randomAlphabet(_ type: String, uppercase: Bool) -> [UInt8] {
        let alphabet: [UInt8]
        switch type {
        case "NUMERIC": alphabet = Array("0123456789".utf8)
        case "ALPHABETIC": alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        case "HEXADECIMAL": alphabet = Array("ABCDEF0123456789".utf8)
        case "ALPHANUMERIC_AND_SYMBOLS": alphabet = Array(33...125) // RandomStringUtils.random(n, 33, 126, false, false)
        default: alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        }
        let (from, to): (ClosedRange<UInt8>, UInt8) = uppercase ? (0x61...0x7A, 0x41) : (0x41...0x5A, 0x61)
        return alphabet.map { from.contains($0) ? $0 - from.lowerBound + to : $0 }
    }
}

/// Java's BigDecimal as WireMock's `math` uses it, within 64 bits: an unscaled integer and a scale (the value is
/// `unscaled × 10^-scale`). Arithmetic that would leave 64 bits is nil (a 400 naming the operands), never a trap.
struct JavaDecimal: Equatable {
    var unscaled: Int
    var scale: Int

    init(unscaled: Int, scale: Int) {
        self.unscaled = unscaled
        self.scale = scale
    }

    /// `new BigDecimal(text)`: `[-+]digits[.digits][e[-+]digits]`; nil for anything else, or past 18 digits.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard
                let value = BoundedNumber.integer(
                    String(decoding: bytes[(e + 1)...].drop { $0 == UInt8(ascii: "+") }, as: UTF8.self), in: -1000...1000)
            else { return nil }
            exponent = value
            bytes = bytes[..<e]
        }
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let digits = bytes.filter { $0 != UInt8(ascii: ".") }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes.filter({ $0 == UInt8(ascii: ".") }).count <= 1 else {
            return nil
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 18 else { return nil }
        let value = digits.reduce(0) { $0 &* 10 &+ Int($1 - 0x30) }
        unscaled = negative ? -value : value
        scale = (point.map { bytes.distance(from: $0, to: bytes.endIndex) - 1 } ?? 0) - exponent
    }

    /// Whether `text` is in BigDecimal's grammar (whatever its size), so that one too long for 64 bits is refused
    /// by name rather than read as 0.
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        var exponent = bytes.dropFirst(mantissa.count + 1)
        if let sign = exponent.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        let digits = mantissa.filter(isDigit).count
        return digits > 0 && mantissa.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }) && mantissa.filter({ !isDigit($0) }).count <= 1
            && (mantissa.count == bytes.count || (!exponent.isEmpty && exponent.allSatisfy(isDigit)))
    }

    static let powers: [Int] = (0...18).map { power in (0..<power).reduce(1) { value, _ in value * 10 } }

    /// `unscaled × 10^by`, nil past 64 bits.
    static func scaled(_ value: Int, by power: Int) -> Int? {
        guard power >= 0, power < powers.count else { return power < 0 ? nil : (value == 0 ? 0 : nil) }
        let (result, overflow) = value.multipliedReportingOverflow(by: powers[power])
        return overflow ? nil : result
    }

    /// `left op right` as BigDecimal's add, subtract, multiply, divide(right, HALF_UP) and remainder compute it.
    static func apply(_ operation: String, _ left: JavaDecimal, _ right: JavaDecimal) -> JavaDecimal? {
        switch operation {
        case "*", "x":
            let (product, overflow) = left.unscaled.multipliedReportingOverflow(by: right.unscaled)
            return overflow || abs(left.scale + right.scale) > 2000 ? nil : JavaDecimal(unscaled: product, scale: left.scale + right.scale)
        case "/":
            guard right.unscaled != 0 else { return nil }
            // The quotient at the left operand's scale: left.unscaled × 10^right.scale / right.unscaled.
            let numerator = right.scale >= 0 ? scaled(left.unscaled, by: right.scale) : left.unscaled
            let denominator = right.scale >= 0 ? right.unscaled : scaled(right.unscaled, by: -right.scale)
            // Int.min / -1 is past 64 bits (quotientAndRemainder would trap): a result of an earlier math can be Int.min.
            guard let numerator, let denominator, !(numerator == Int.min && denominator == -1) else { return nil }
            let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
            let roundsUp = remainder.magnitude >= denominator.magnitude - remainder.magnitude
            let result = remainder != 0 && roundsUp ? quotient + ((numerator < 0) == (denominator < 0) ? 1 : -1) : quotient
            return JavaDecimal(unscaled: result, scale: left.scale)
        default:
            let scale = max(left.scale, right.scale)
            guard let a = scaled(left.unscaled, by: scale - left.scale), let b = scaled(right.unscaled, by: scale - right.scale) else {
                return nil
            }
            switch operation {
            case "+":
                let (sum, overflow) = a.addingReportingOverflow(b)
                return overflow ? nil : JavaDecimal(unscaled: sum, scale: scale)
            case "-":
                let (difference, overflow) = a.subtractingReportingOverflow(b)
                return overflow ? nil : JavaDecimal(unscaled: difference, scale: scale)
            default: // %
                guard b != 0, !(a == Int.min && b == -1) else { return nil }
                return JavaDecimal(unscaled: a % b, scale: scale)
            }
        }
    }

    /// Whether both are the same number, whatever their scales (`1.50` and `1.5`).
    func sameValue(as other: JavaDecimal) -> Bool {
        func stripped(_ value: JavaDecimal) -> JavaDecimal {
            var value = value
            while value.unscaled != 0 && value.unscaled % 10 == 0 {
                value.unscaled /= 10
                value.scale -= 1
            }
            return value.unscaled == 0 ? JavaDecimal(unscaled: 0, scale: 0) : value
        }
        return stripped(self) == stripped(other)
    }

    /// Whether the result prints as a number: a whole one always, another when its Double is finite and, for a value
    /// that is not zero, not zero.
    var isDoubleExact: Bool {
        guard scale != 0, unscaled != 0 else { return true }
        let double = Double("\(unscaled)e\(-scale)") ?? 0
        return double.isFinite && double != 0
    }

    /// The power of ten of the leading digit, for messages (`1e200 * 1e200` is 1E400).
    var magnitude: Int { String(unscaled.magnitude).count - 1 - scale }

    /// WireMock's `reduceToPrimitiveNumber`: scale 0 is an Integer (its low 32 bits, as `intValue()` keeps them,
    /// when at most Integer.MAX_VALUE) or a Long; any other scale the nearest Double.
    var javaValue: ResponseTemplate.Value {
        guard scale == 0 else { return .real(Double("\(unscaled)e\(-scale)") ?? 0) }
        return unscaled <= Int(Int32.max) ? .integer(Int(Int32(truncatingIfNeeded: unscaled))) : .integer(unscaled)
    }
}
