/// A character class: ranges, named classes, negation, case folding.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<Unicode.Scalar>] = []
    var classes: [ScalarSet] = []
    var negated = false
    var caseInsensitive = false
    var named: Unicode.Scalar?

    init(caseInsensitive: Bool = false) { self.caseInsensitive = caseInsensitive }

    static func named(_ name: Unicode.Scalar) -> ScalarSet {
        var set = ScalarSet()
        set.named = name
        return set
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var found: Bool
        if let named {
            switch named {
            case "d", "D": found = ("0"..."9").contains(scalar)
            case "w", "W":
                found = scalar == "_" || ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            default: found = " \t\n\r\u{0B}\u{0C}".unicodeScalars.contains(scalar)
            }
            if ("A"..."Z").contains(named) { found.toggle() }
            return found
        }
        found = ranges.contains { $0.contains(scalar) } || classes.contains { $0.contains(scalar) }
        if !found && caseInsensitive {
            let other = RegexCase.swapCase(scalar)
            found = other != scalar && ranges.contains { $0.contains(other) }
        }
        return found != negated
    }
}

enum RegexCase {
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if ("A"..."Z").contains(scalar) { return Unicode.Scalar(scalar.value + 32)! }
        guard scalar.value >= 0x80, let lower = scalar.properties.lowercaseMapping.unicodeScalars.first else { return scalar }
        return lower
    }

    static func swapCase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if ("A"..."Z").contains(scalar) { return Unicode.Scalar(scalar.value + 32)! }
        if ("a"..."z").contains(scalar) { return Unicode.Scalar(scalar.value - 32)! }
        return scalar
    }

    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func holds(_ assertion: LinearRegex.Assertion, at position: Int, in input: [Unicode.Scalar]) -> Bool {
        let count = input.count
        switch assertion {
        case .start, .inputStart: return position == 0
        case .inputEnd: return position == count
        case .end, .inputEndBeforeNewline:
            // Java's $: the end, or before a final line terminator.
            return position == count || (position == count - 1 && input[position] == "\n")
        case .lineStart: return position == 0 || (position <= count && input[position - 1] == "\n")
        case .lineEnd: return position == count || input[position] == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && isWord(input[position - 1])
            let after = position < count && isWord(input[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}
