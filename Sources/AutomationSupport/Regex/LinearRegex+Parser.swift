/// Parsing a pattern into ``RegexNode``s, with its nesting capped (see ``LinearRegex``).
indirect enum RegexNode {
    case empty
    case scalar(Unicode.Scalar, caseInsensitive: Bool)
    case set(ScalarSet)
    case any(dotAll: Bool)
    case assert(LinearRegex.Assertion)
    case concat([RegexNode])
    case alternation([RegexNode])
    /// Greedy repetitions prefer one more round, lazy ones (`*?`) one fewer (only captures can tell).
    case repeated(RegexNode, min: Int, max: Int?, lazy: Bool)
    /// A capturing group, numbered from 1 by its `(` as Java and Swift number them.
    case group(Int, RegexNode)
}

struct RegexFlags {
    var caseInsensitive = false
    var dotAll = false
    var multiline = false
}

struct RegexParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    /// Capturing groups seen so far.
    var groupCount = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// - Parameter dotAll: `.` matches line terminators too unless the pattern says `(?-s)` (Java's `DOTALL`).
    mutating func parse(dotAll: Bool = false) throws(LinearRegex.Error) -> RegexNode {
        var flags = RegexFlags()
        flags.dotAll = dotAll
        let node = try alternation(depth: 0, flags: &flags)
        if index < scalars.count { throw error("unmatched )") }
        return node
    }

    func error(_ message: String) -> LinearRegex.Error {
        LinearRegex.Error(
            message: "regular expression \"\(String(String.UnicodeScalarView(scalars)))\": \(message) (at character \(index + 1))")
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func alternation(depth: Int, flags: inout RegexFlags) throws(LinearRegex.Error) -> RegexNode {
        guard depth <= LinearRegex.maxNesting else { throw error("groups nested deeper than \(LinearRegex.maxNesting) levels") }
        var branches = [try sequence(depth: depth, flags: &flags)]
        while peek == "|" {
            index += 1
            branches.append(try sequence(depth: depth, flags: &flags))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func sequence(depth: Int, flags: inout RegexFlags) throws(LinearRegex.Error) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            var atom = try self.atom(depth: depth, flags: &flags)
            atom = try quantified(atom)
            items.append(atom)
        }
        return items.count == 1 ? items[0] : .concat(items)
    }

    mutating func quantified(_ atom: RegexNode) throws(LinearRegex.Error) -> RegexNode {
        var node = atom
        while let scalar = peek {
            var bounds: (Int, Int?)
            switch scalar {
            case "*":
                bounds = (0, nil)
                index += 1
            case "+":
                bounds = (1, nil)
                index += 1
            case "?":
                bounds = (0, 1)
                index += 1
            case "{":
                guard let parsed = try braces() else { return node }
                bounds = parsed
            default: return node
            }
            if case .assert = node { throw error("a quantifier cannot follow an anchor") }
            if case .empty = node { throw error("a quantifier needs something before it") }
            // Possessive (`*+`) forms are read as greedy ones; lazy ones (`*?`) change what groups capture.
            let lazy = peek == "?"
            if peek == "?" || peek == "+" { index += 1 }
            node = .repeated(node, min: bounds.0, max: bounds.1, lazy: lazy)
            if peek == "*" || peek == "+" || peek == "?" || peek == "{" { throw error("a quantifier cannot follow a quantifier") }
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}`; nil when the brace is a literal (Java requires a valid quantifier there).
    mutating func braces() throws(LinearRegex.Error) -> (Int, Int?)? {
        let start = index
        index += 1
        func number(_ parser: inout RegexParser) -> Int? {
            var digits = ""
            while let scalar = parser.peek, ("0"..."9").contains(scalar), digits.count < 6 {
                digits.unicodeScalars.append(scalar)
                parser.index += 1
            }
            return Int(digits)
        }
        guard let low = number(&self) else { throw error("expected a number after {") }
        var high: Int? = low
        if peek == "," {
            index += 1
            high = peek == "}" ? nil : number(&self)
            if high == nil && peek != "}" { throw error("expected a number or } in {n,m}") }
        }
        guard peek == "}" else {
            index = start
            throw error("unclosed {n,m} quantifier")
        }
        index += 1
        if let high, high < low { throw error("{\(low),\(high)}: the maximum is below the minimum") }
        if low > 1000 || (high ?? 0) > 1000 { throw error("repetition counts above 1000 are not supported") }
        return (low, high)
    }

    mutating func atom(depth: Int, flags: inout RegexFlags) throws(LinearRegex.Error) -> RegexNode {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ".": return .any(dotAll: flags.dotAll)
        case "^": return .assert(flags.multiline ? .lineStart : .start)
        case "$": return .assert(flags.multiline ? .lineEnd : .end)
        case "[": return .set(try characterClass(flags: flags))
        case "(": return try group(depth: depth, flags: &flags)
        case "*", "+", "?": throw error("'\(scalar)' needs something to repeat before it")
        case "\\": return try escape(flags: flags, inClass: false).node
        default: return .scalar(scalar, caseInsensitive: flags.caseInsensitive)
        }
    }

    mutating func group(depth: Int, flags outer: inout RegexFlags) throws(LinearRegex.Error) -> RegexNode {
        var flags = outer
        var number: Int?
        if peek != "?" {
            groupCount += 1
            number = groupCount
        }
        if peek == "?" {
            index += 1
            switch peek {
            case ":": index += 1
            case "<":
                index += 1
                if peek == "=" || peek == "!" { throw error("lookbehind (?<= (?<! is not supported: it needs backtracking") }
                while let scalar = peek, scalar != ">" { index += 1 }
                guard peek == ">" else { throw error("unclosed group name (?<name>") }
                index += 1
                groupCount += 1
                number = groupCount
            case "=", "!": throw error("lookahead (?= (?! is not supported: it needs backtracking")
            case ">": throw error("atomic groups (?> are not supported")
            default:
                // Flags: (?i) (?s) (?m), (?-i), or scoped (?i:…).
                var on = true
                var changed = flags
                while let scalar = peek, scalar != ")" && scalar != ":" {
                    switch scalar {
                    case "-": on = false
                    case "i": changed.caseInsensitive = on
                    case "s": changed.dotAll = on
                    case "m": changed.multiline = on
                    case "x", "u", "d", "U": throw error("the flag (?\(scalar)) is not supported; use i, s or m")
                    default: throw error("unknown group (?\(scalar)")
                    }
                    index += 1
                }
                guard let end = peek else { throw error("unclosed group") }
                index += 1
                if end == ")" {
                    outer = changed // (?i) applies to the rest of the enclosing group
                    return .empty
                }
                flags = changed
            }
        }
        let inner = try alternation(depth: depth + 1, flags: &flags)
        guard peek == ")" else { throw error("unclosed group: a ( has no )") }
        index += 1
        return number.map { .group($0, inner) } ?? inner
    }

    /// `[…]`: scalars, ranges, escapes; a `[` inside is refused (Java nests classes there), as intersections are.
    mutating func characterClass(flags: RegexFlags) throws(LinearRegex.Error) -> ScalarSet {
        var set = ScalarSet(caseInsensitive: flags.caseInsensitive)
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw error("unclosed character class: a [ has no ]") }
            if scalar == "]" && !first {
                index += 1
                break
            }
            first = false
            index += 1
            var low: Unicode.Scalar
            if scalar == "\\" {
                let escaped = try escape(flags: flags, inClass: true)
                guard let single = escaped.scalar else {
                    if case .set(let inner) = escaped.node { set.classes.append(inner) }
                    continue
                }
                low = single
            } else if scalar == "&" && peek == "&" {
                throw error("class intersections [a&&b] are not supported")
            } else if scalar == "[" {
                // Java (WireMock) reads [a[bc]] as a union and [[:alpha:]] as one too; as a literal [ it matched
                // other text, without a word.
                throw error("nested classes ([a[bc]], [[:alpha:]]) are not supported; write \\[ for a literal [")
            } else {
                low = scalar
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                var high = scalars[index]
                index += 1
                if high == "\\" {
                    guard let single = try escape(flags: flags, inClass: true).scalar else {
                        throw error("a range cannot end in a class like \\d")
                    }
                    high = single
                }
                guard low.value <= high.value else { throw error("the range \(low)-\(high) is backwards") }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
        return set
    }

    /// After a backslash: a node (or, inside a class, a single scalar when it is one).
    mutating func escape(flags: RegexFlags, inClass: Bool) throws(LinearRegex.Error) -> (node: RegexNode, scalar: Unicode.Scalar?) {
        guard let scalar = peek else { throw error("a pattern cannot end with \\") }
        index += 1
        let single = { (value: Unicode.Scalar) in (RegexNode.scalar(value, caseInsensitive: flags.caseInsensitive), Optional(value)) }
        switch scalar {
        case "d", "D", "w", "W", "s", "S":
            var set = ScalarSet.named(scalar)
            set.caseInsensitive = false
            return (.set(set), nil)
        case "t": return single("\t")
        case "n": return single("\n")
        case "r": return single("\r")
        case "f": return single("\u{0C}")
        case "a": return single("\u{07}")
        case "e": return single("\u{1B}")
        case "0": return single("\0")
        case "x", "u":
            let length = scalar == "x" ? 2 : 4
            guard index + length <= scalars.count,
                let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + length])), radix: 16),
                let decoded = Unicode.Scalar(value)
            else { throw error("\\\(scalar) needs \(length) hex digits") }
            index += length
            return single(decoded)
        case "Q":
            var literal: [RegexNode] = []
            while index < scalars.count {
                if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == "E" {
                    index += 2
                    break
                }
                literal.append(.scalar(scalars[index], caseInsensitive: flags.caseInsensitive))
                index += 1
            }
            if inClass { throw error("\\Q…\\E inside a character class is not supported") }
            return (.concat(literal), nil)
        case "b", "B", "A", "z", "Z", "G":
            if inClass { return scalar == "b" ? single("\u{08}") : (.empty, nil) }
            switch scalar {
            case "b": return (.assert(.wordBoundary), nil)
            case "B": return (.assert(.notWordBoundary), nil)
            case "A": return (.assert(.inputStart), nil)
            case "z": return (.assert(.inputEnd), nil)
            case "Z": return (.assert(.inputEndBeforeNewline), nil)
            default: throw error("\\G is not supported")
            }
        case "1"..."9", "k": throw error("backreferences (\\\(scalar)) are not supported: they need backtracking")
        case "p", "P": throw error("Unicode classes \\\(scalar){…} are not supported; use a class like [a-z]")
        default:
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) { throw error("unknown escape \\\(scalar)") }
            return single(scalar) // \. \/ \- \\ \[ … : the character itself
        }
    }
}
