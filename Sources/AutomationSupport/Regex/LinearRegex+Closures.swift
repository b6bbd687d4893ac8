/// The yes/no matcher's fast path: the program flattened (an opcode and a value per state, each character class with
/// a bitmap of its ASCII members) and, for each state a thread can be in after reading a character, the states that
/// read input (or match) reachable from it without reading any, computed once when the pattern compiles.
///
/// The Pike VM of ``LinearRegex/matches(_:whole:budget:spent:)`` followed splits and jumps on every position with an
/// explicit stack and copied each instruction (an enum holding arrays: a retain and a release per look): a 15 MB
/// body against `.*zz.*` cost ~1 µs a position in a release build. Here a position costs a comparison per live
/// thread and a table walk per thread that moves. Patterns with assertions (`^`, `$`, `\b`: their closure depends on
/// where they stand) and those whose closures would be large keep the general path.
struct RegexClosures: Sendable {
    private let flat: RegexFlatProgram
    /// The closure of state `s` is `targets[starts[s]..<starts[s + 1]]` (empty for a state no thread moves to).
    private let starts: [Int32]
    private let targets: [Int32]

    /// Closures in all may hold this many states per instruction before the general path is kept instead.
    static let maxClosureRatio = 32

    /// nil when the program has assertions, or its closures would be too large.
    init?(_ program: [LinearRegex.Instruction]) {
        guard !program.contains(where: { if case .assert = $0 { true } else { false } }), let flat = RegexFlatProgram(program) else {
            return nil
        }
        // Closures are needed for the start and for the state after each one that reads input.
        var starts = [Int32](repeating: 0, count: program.count + 2)
        var targets: [Int32] = []
        var seen = [Int](repeating: -1, count: program.count + 1)
        var stack: [Int] = []
        let limit = Self.maxClosureRatio * program.count + 1024
        for state in 0...program.count {
            starts[state] = Int32(targets.count)
            let needed = state == 0 || (state > 0 && RegexFlatProgram.reads(program[state - 1]))
            if needed && state < program.count {
                stack.append(state)
                while let pc = stack.popLast() {
                    guard seen[pc] != state else { continue }
                    seen[pc] = state
                    switch program[pc] {
                    case .jump(let target): stack.append(target)
                    case .save: stack.append(pc + 1)
                    case .split(let first, let second):
                        stack.append(second)
                        stack.append(first)
                    default: targets.append(Int32(pc))
                    }
                }
                if targets.count > limit { return nil }
            }
        }
        starts[program.count + 1] = Int32(targets.count)
        (self.flat, self.starts, self.targets) = (flat, starts, targets)
    }

    /// ``LinearRegex/matches(_:whole:budget:spent:)`` on this program: the same answers; `spent` counts a step per
    /// live thread per position, as there.
    func matches(
        _ input: [Unicode.Scalar], whole: Bool, anchoredAtStart: Bool, budget: Int, spent: inout Int,
        deadline: ContinuousClock.Instant? = nil
    ) -> Bool? {
        let count = flat.ops.count
        return input.withUnsafeBufferPointer { text -> Bool? in
            flat.withReader { reader in
                starts.withUnsafeBufferPointer { starts in
                    targets.withUnsafeBufferPointer { targets in
                        // One allocation per match (a program may have 20,000 states: not on a connection's stack).
                        var memory = [Int](repeating: 0, count: 3 * count + 3)
                        return memory.withUnsafeMutableBufferPointer { memory -> Bool? in
                            let tables = Tables(reader: reader, starts: starts, targets: targets, matchState: flat.matchState)
                            return tables.run(
                                text, whole: whole, anchoredAtStart: anchoredAtStart, budget: budget, spent: &spent, memory: memory,
                                states: count, deadline: deadline)
                        }
                    }
                }
            }
        }
    }

    /// The tables borrowed for one match.
    private struct Tables {
        let reader: RegexReader
        let starts: UnsafeBufferPointer<Int32>
        let targets: UnsafeBufferPointer<Int32>
        let matchState: Int

        func run(
            _ text: UnsafeBufferPointer<Unicode.Scalar>, whole: Bool, anchoredAtStart: Bool, budget: Int, spent: inout Int,
            memory: UnsafeMutableBufferPointer<Int>, states: Int, deadline: ContinuousClock.Instant?
        ) -> Bool? {
            // Two thread lists and, per state, the position + 1 of the list it was last put in (0: none).
            var current = UnsafeMutableBufferPointer(rebasing: memory[0..<(states + 1)])
            var next = UnsafeMutableBufferPointer(rebasing: memory[(states + 1)..<(2 * states + 2)])
            let mark = UnsafeMutableBufferPointer(rebasing: memory[(2 * states + 2)..<(3 * states + 3)])
            mark.initialize(repeating: 0)
            var currentCount = 0
            var nextCount = 0
            // The list at position p carries the mark p + 1.
            func add(_ state: Int, mark stamp: Int, into list: UnsafeMutableBufferPointer<Int>, count: inout Int) {
                for index in Int(starts[state])..<Int(starts[state + 1]) {
                    let target = Int(targets[index])
                    if mark[target] != stamp {
                        mark[target] = stamp
                        list[count] = target
                        count += 1
                    }
                }
            }
            var steps = 0
            defer { spent = steps }
            add(0, mark: 1, into: current, count: &currentCount)
            var position = 0
            while true {
                let stamp = position + 1
                if mark[matchState] == stamp, !whole || position == text.count { return true }
                if position == text.count { return false }
                steps += currentCount
                if steps > budget { return nil }
                if let deadline, position & 1023 == 1023, ContinuousClock.now >= deadline { return nil }
                let scalar = text[position]
                let nextStamp = position + 2
                nextCount = 0
                for index in 0..<currentCount {
                    let state = current[index]
                    if reader.reads(state, scalar) { add(state + 1, mark: nextStamp, into: next, count: &nextCount) }
                }
                if !whole && !anchoredAtStart { add(0, mark: nextStamp, into: next, count: &nextCount) }
                swap(&current, &next)
                currentCount = nextCount
                position += 1
                if currentCount == 0 { return false }
            }
        }
    }
}
