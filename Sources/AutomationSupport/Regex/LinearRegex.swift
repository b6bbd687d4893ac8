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

    enum Instruction: Sendable {
        case scalar(Unicode.Scalar, caseInsensitive: Bool)
        case set(ScalarSet)
        case any(dotAll: Bool)
        case split(Int, Int)
        case jump(Int)
        /// Records the position in a capture slot (group n: slots 2n-2 and 2n-1).
        case save(Int)
        case assert(Assertion)
        case match
    }

    enum Assertion: Sendable {
        case start, end, lineStart, lineEnd, inputStart, inputEnd, inputEndBeforeNewline, wordBoundary, notWordBoundary
    }

    let program: [Instruction]
    /// Capturing groups in the pattern (recorded only when compiled with `groups: true`).
    let groupCount: Int
    /// Text every match contains (the longest run of literal characters the pattern cannot match without), or
    /// empty: a search can skip, with memmem, any input that lacks it.
    let requiredLiteral: String
    /// The pattern starts with `^` or `\A` (outside multiline mode): a search tries position 0 only.
    let anchoredAtStart: Bool
    /// The program's closures, for the yes/no matcher's fast path (nil: the general path; +Closures.swift).
    let closures: RegexClosures?
    /// The program's closures with the slots each path saves, for the capture matcher's fast path (nil: the general
    /// path, or a yes/no matcher; +CaptureClosures.swift).
    let captureClosures: RegexCaptureClosures?

    /// - Parameter groups: record what capturing groups match (``groups(in:whole:budget:)``); a yes/no
    ///   matcher leaves that work out.
    /// - Parameter dotAll: `.` matches line terminators too, as with `(?s)` (Java's `DOTALL`).
    init(_ source: String, groups: Bool = false, dotAll: Bool = false) throws(Error) {
        var parser = RegexParser(Array(source.unicodeScalars))
        let tree = try parser.parse(dotAll: dotAll)
        var compiler = RegexCompiler()
        compiler.recordsGroups = groups
        try compiler.emit(tree, depth: 0)
        compiler.append(.match)
        program = compiler.program
        groupCount = groups ? parser.groupCount : 0
        requiredLiteral = RegexLiteral.required(in: tree)
        var first = 0
        while first < program.count, case .save = program[first] { first += 1 }
        if first < program.count, case .assert(let assertion) = program[first] {
            anchoredAtStart = assertion == .start || assertion == .inputStart
        } else {
            anchoredAtStart = false
        }
        closures = RegexClosures(program)
        captureClosures = groups ? RegexCaptureClosures(program, slotCount: 2 * groupCount) : nil
    }

    /// Steps one yes/no match may take (threads × input positions): a 1 MB body against a pattern of 25 states,
    /// about a second of CPU in a release build. 100,000,000 let one request hold a core for a minute.
    static let defaultBudget = 25_000_000

    /// True when the pattern matches the whole text (Java's `matches()`), or somewhere in it.
    /// - Parameter budget: steps allowed (one step per thread per input position); when spent, the
    ///   answer is nil (no decision), never a stall.
    func matches(_ text: String, whole: Bool, budget: Int = LinearRegex.defaultBudget) -> Bool? {
        matches(Array(text.unicodeScalars), whole: whole, budget: budget)
    }

    /// The same, on scalars already decoded.
    func matches(_ input: [Unicode.Scalar], whole: Bool, budget: Int = LinearRegex.defaultBudget) -> Bool? {
        var spent = 0
        return matches(input, whole: whole, budget: budget, spent: &spent)
    }

    /// The same, telling the caller the steps it took (`spent`), for work that answers to a budget of its own.
    /// - Parameter deadline: when set, the match also gives up (nil) once it has passed (looked at every 1,024 positions).
    func matches(
        _ input: [Unicode.Scalar], whole: Bool, budget: Int, spent: inout Int, deadline: ContinuousClock.Instant? = nil
    ) -> Bool? {
        if let closures {
            return closures.matches(
                input, whole: whole, anchoredAtStart: anchoredAtStart, budget: budget, spent: &spent, deadline: deadline)
        }
        return generalMatches(input, whole: whole, budget: budget, spent: &spent, deadline: deadline)
    }

    /// The Pike VM that follows splits and jumps at every position (assertions need it); `spent` counts every state
    /// alive at a position, those that read input and those that lead to them.
    func generalMatches(
        _ input: [Unicode.Scalar], whole: Bool, budget: Int, spent: inout Int, deadline: ContinuousClock.Instant? = nil
    ) -> Bool? {
        let count = program.count
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var stack: [Int] = []
        var steps = 0
        defer { spent = steps }
        var matched = false
        current.add(0, at: 0, input: input, program: program, stack: &stack)
        var position = 0
        while true {
            if current.contains(program.count - 1) {
                if !whole || position == input.count {
                    matched = true
                    break
                }
            }
            if position == input.count { break }
            steps += current.count
            if steps > budget { return nil }
            if let deadline, position & 1023 == 1023, ContinuousClock.now >= deadline { return nil }
            let scalar = input[position]
            next.clear()
            for pc in current.members {
                if step(program[pc], scalar) { next.add(pc + 1, at: position + 1, input: input, program: program, stack: &stack) }
            }
            if !whole && !matched && !anchoredAtStart { next.add(0, at: position + 1, input: input, program: program, stack: &stack) }
            swap(&current, &next)
            position += 1
            if current.count == 0 { break }
        }
        return matched
    }

    func step(_ instruction: Instruction, _ scalar: Unicode.Scalar) -> Bool {
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
                case .save: stack.append(pc + 1)
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
