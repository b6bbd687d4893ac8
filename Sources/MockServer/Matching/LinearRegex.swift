/// Regular expressions that cannot stall or crash the server: Java's syntax as WireMock mappings use it,
/// matched by a Pike VM (Thompson's construction) in time linear in the input, never by backtracking.
/// `/r/(a+)+$` against 22 `a`s and `!` takes microseconds, not the 396 s a backtracking engine took.
///
/// Supported: literals and escapes (`\.`, `\t`, `\n`, `\xhh`, `\uhhhh`, `\Q…\E`), `.`, classes `[a-z_]`,
/// `[^…]`, `\d \w \s \D \W \S`, anchors `^ $ \A \z \Z \b \B`, groups `(…)`, `(?:…)`, `(?<name>…)`,
/// alternation, quantifiers `* + ? {n} {n,} {n,m}` (greedy, lazy and possessive forms all mean the same for
/// a yes/no match), and the flags `(?i)`, `(?s)`, `(?m)` (also as `(?i:…)`). Backreferences and lookaround
/// need backtracking: they are refused by name when the stub loads.
struct LinearRegex: Sendable {
    /// A pattern that cannot be compiled; the message names the position and what is not supported.
    struct Error: Swift.Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Group nesting allowed; deeper patterns are refused (the parser recurses once per level).
    static let maxNesting = 64
    /// Program size allowed (`x{1000}{1000}` would be a million states).
    static let maxInstructions = 20_000

    fileprivate enum Instruction: Sendable {
        case scalar(Unicode.Scalar, caseInsensitive: Bool)
        case set(ScalarSet)
        case any(dotAll: Bool)
        case split(Int, Int)
        case jump(Int)
        case assert(Assertion)
        case match
    }

    fileprivate enum Assertion: Sendable {
        case start, end, lineStart, lineEnd, inputStart, inputEnd, inputEndBeforeNewline, wordBoundary, notWordBoundary
    }

    private let program: [Instruction]

    init(_ source: String) throws(Error) {
        var parser = RegexParser(Array(source.unicodeScalars))
        let tree = try parser.parse()
        var compiler = RegexCompiler()
        try compiler.emit(tree, depth: 0)
        compiler.append(.match)
        program = compiler.program
    }

    /// True when the pattern matches the whole text (Java's `matches()`), or somewhere in it.
    /// - Parameter budget: steps allowed (one step per thread per input position); when spent, the
    ///   answer is nil (no decision), never a stall.
    func matches(_ text: String, whole: Bool, budget: Int = 100_000_000) -> Bool? {
        let input = Array(text.unicodeScalars)
        let count = program.count
        var current = ThreadList(capacity: count), next = ThreadList(capacity: count)
        var stack: [Int] = []
        var steps = 0
        var matched = false
        current.add(0, at: 0, input: input, program: program, stack: &stack)
        var position = 0
        while true {
            if current.contains(program.count - 1) {
                if !whole || position == input.count { matched = true; break }
            }
            if position == input.count { break }
            steps += current.count
            if steps > budget { return nil }
            let scalar = input[position]
            next.clear()
            for pc in current.members {
                if step(program[pc], scalar) { next.add(pc + 1, at: position + 1, input: input, program: program, stack: &stack) }
            }
            if !whole && !matched { next.add(0, at: position + 1, input: input, program: program, stack: &stack) }
            swap(&current, &next)
            position += 1
            if current.count == 0 { break }
        }
        return matched
    }

    private func step(_ instruction: Instruction, _ scalar: Unicode.Scalar) -> Bool {
        switch instruction {
        case .scalar(let wanted, let caseInsensitive):
            return wanted == scalar || (caseInsensitive && RegexCase.fold(wanted) == RegexCase.fold(scalar))
        case .set(let set): return set.contains(scalar)
        case .any(let dotAll): return dotAll || !RegexCase.isLineTerminator(scalar)
        default: return false
        }
    }

    /// The threads alive at one input position: a sparse set, so each state is added once (linear time).
    private struct ThreadList {
        private var dense: [Int]
        private var sparse: [Int]
        private(set) var count = 0

        init(capacity: Int) {
            dense = [Int](repeating: 0, count: capacity)
            sparse = [Int](repeating: 0, count: capacity)
        }

        var members: ArraySlice<Int> { dense[0..<count] }
        func contains(_ pc: Int) -> Bool { sparse[pc] < count && dense[sparse[pc]] == pc }
        mutating func clear() { count = 0 }

        /// Adds `pc` and everything reachable from it without reading input (splits, jumps, assertions),
        /// with an explicit stack: a long chain of splits cannot overflow the thread's stack.
        mutating func add(_ pc: Int, at position: Int, input: [Unicode.Scalar], program: [Instruction], stack: inout [Int]) {
            stack.removeAll(keepingCapacity: true)
            stack.append(pc)
            while let pc = stack.popLast() {
                guard !contains(pc) else { continue }
                sparse[pc] = count
                dense[count] = pc
                count += 1
                switch program[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assert(let assertion):
                    if RegexCase.holds(assertion, at: position, in: input) { stack.append(pc + 1) }
                default: break
                }
            }
        }
    }
}

// MARK: - Parsing

private indirect enum RegexNode {
    case empty
    case scalar(Unicode.Scalar, caseInsensitive: Bool)
    case set(ScalarSet)
    case any(dotAll: Bool)
    case assert(LinearRegex.Assertion)
    case concat([RegexNode])
    case alternation([RegexNode])
    case repeated(RegexNode, min: Int, max: Int?)
}

private struct RegexFlags {
    var caseInsensitive = false
    var dotAll = false
    var multiline = false
}

private struct RegexParser {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func parse() throws(LinearRegex.Error) -> RegexNode {
        var flags = RegexFlags()
        let node = try alternation(depth: 0, flags: &flags)
        if index < scalars.count { throw error("unmatched )") }
        return node
    }

    func error(_ message: String) -> LinearRegex.Error {
        LinearRegex.Error(message: "regular expression \"\(String(String.UnicodeScalarView(scalars)))\": \(message) (at character \(index + 1))")
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
            case "*": bounds = (0, nil); index += 1
            case "+": bounds = (1, nil); index += 1
            case "?": bounds = (0, 1); index += 1
            case "{":
                guard let parsed = try braces() else { return node }
                bounds = parsed
            default: return node
            }
            if case .assert = node { throw error("a quantifier cannot follow an anchor") }
            if case .empty = node { throw error("a quantifier needs something before it") }
            // Lazy (`*?`) and possessive (`*+`) forms decide the same yes/no as greedy ones here.
            if peek == "?" || peek == "+" { index += 1 }
            node = .repeated(node, min: bounds.0, max: bounds.1)
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
        return inner
    }

    /// `[…]`: scalars, ranges, escapes; `[` inside is a literal (no nested classes or intersections).
    mutating func characterClass(flags: RegexFlags) throws(LinearRegex.Error) -> ScalarSet {
        var set = ScalarSet(caseInsensitive: flags.caseInsensitive)
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw error("unclosed character class: a [ has no ]") }
            if scalar == "]" && !first { index += 1; break }
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
            } else {
                low = scalar
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                var high = scalars[index]
                index += 1
                if high == "\\" {
                    guard let single = try escape(flags: flags, inClass: true).scalar else { throw error("a range cannot end in a class like \\d") }
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
                  let decoded = Unicode.Scalar(value) else { throw error("\\\(scalar) needs \(length) hex digits") }
            index += length
            return single(decoded)
        case "Q":
            var literal: [RegexNode] = []
            while index < scalars.count {
                if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == "E" { index += 2; break }
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

// MARK: - Compiling

private struct RegexCompiler {
    var program: [LinearRegex.Instruction] = []

    mutating func append(_ instruction: LinearRegex.Instruction) {
        program.append(instruction)
    }

    mutating func emit(_ node: RegexNode, depth: Int) throws(LinearRegex.Error) {
        if program.count > LinearRegex.maxInstructions {
            throw LinearRegex.Error(message: "regular expression is too large (more than \(LinearRegex.maxInstructions) states once repetitions are expanded)")
        }
        switch node {
        case .empty: break
        case .scalar(let scalar, let caseInsensitive): append(.scalar(scalar, caseInsensitive: caseInsensitive))
        case .set(let set): append(.set(set))
        case .any(let dotAll): append(.any(dotAll: dotAll))
        case .assert(let assertion): append(.assert(assertion))
        case .concat(let items): for item in items { try emit(item, depth: depth + 1) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, … ; last branch
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    append(.split(split + 1, -1))
                    try emit(branch, depth: depth + 1)
                    jumps.append(program.count)
                    append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch, depth: depth + 1)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let body, let min, let max):
            for _ in 0..<min { try emit(body, depth: depth + 1) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    append(.split(program.count + 1, -1))
                    try emit(body, depth: depth + 1)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                append(.split(loop + 1, -1))
                let bodyStart = program.count
                try emit(body, depth: depth + 1)
                if program.count == bodyStart { program.removeLast(); return } // (x*)* on an empty body
                append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}

// MARK: - Characters

/// A character class: ranges, named classes, negation, case folding.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<Unicode.Scalar>] = []
    var classes: [ScalarSet] = []
    var negated = false
    var caseInsensitive = false
    fileprivate var named: Unicode.Scalar?

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
            case "w", "W": found = scalar == "_" || ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
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

private enum RegexCase {
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
