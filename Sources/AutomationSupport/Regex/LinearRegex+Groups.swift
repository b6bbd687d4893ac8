/// What capturing groups matched, found by the same Pike VM in time linear in the input: each thread carries
/// its capture slots, threads are kept in priority order (a greedy quantifier's next round before its exit, an
/// alternation's first branch before the next), and the first thread in that order to match wins. That is the
/// leftmost-first answer of Java's and Swift's backtracking engines, without their backtracking.
extension LinearRegex {
    /// The answer of ``groups(in:whole:budget:)``.
    enum GroupsAnswer: Equatable {
        /// The range of each group (scalar offsets into the input), nil for a group that took no part.
        case matched([Range<Int>?])
        case noMatch
        /// The step budget was spent before an answer.
        case gaveUp
    }

    /// The groups of the first match (leftmost, then by priority), or of the whole input when `whole`.
    /// - Parameters:
    ///   - start: where the search begins (Java's `find()` after a match: anchors and `\b` still see the whole input).
    ///   - budget: work allowed (a step per thread per position, a slot per capture copy).
    func groups(in input: [Unicode.Scalar], from start: Int = 0, whole: Bool, budget: Int = 100_000_000) -> GroupsAnswer {
        var spent = 0
        return groups(in: input, from: start, whole: whole, budget: budget, spent: &spent)
    }

    /// The same, telling the caller the work it did (`spent`).
    /// - Parameter deadline: when set, the search also gives up once it has passed (looked at every 1,024 positions).
    func groups(
        in input: [Unicode.Scalar], from start: Int, whole: Bool, budget: Int, spent: inout Int, deadline: ContinuousClock.Instant? = nil
    ) -> GroupsAnswer {
        if let captureClosures {
            return captureClosures.groups(in: input, from: start, whole: whole, budget: budget, spent: &spent, deadline: deadline)
        }
        return generalGroups(in: input, from: start, whole: whole, budget: budget, spent: &spent, deadline: deadline)
    }

    /// The Pike VM that walks each closure at every position (assertions such as `\b` need it); `spent` counts every
    /// state alive at a position, those that read input and those that lead to them, and a unit per slot carried.
    func generalGroups(
        in input: [Unicode.Scalar], from start: Int, whole: Bool, budget: Int, spent: inout Int, deadline: ContinuousClock.Instant? = nil
    ) -> GroupsAnswer {
        let slotCount = 2 * groupCount
        var current = GroupThreads(capacity: program.count, slotCount: slotCount)
        var next = GroupThreads(capacity: program.count, slotCount: slotCount)
        var slots = [Int](repeating: -1, count: slotCount)
        var stack: [GroupThreads.Task] = []
        var work = 0
        defer { spent = work }
        var matched: [Int]?
        current.add(0, &slots, at: start, input: input, program: program, stack: &stack)
        var position = start
        while true {
            next.clear()
            for index in 0..<current.count {
                let pc = current.pc(index)
                switch program[pc] {
                case .match:
                    if whole && position != input.count { continue }
                    matched = current.slots(index)
                case .scalar, .set, .any:
                    if position < input.count && step(program[pc], input[position]) {
                        current.load(index, into: &slots)
                        next.add(pc + 1, &slots, at: position + 1, input: input, program: program, stack: &stack)
                        work += slotCount
                    }
                    continue
                default: continue
                }
                break // a match cuts every thread of lower priority
            }
            work += current.count
            if work > budget { return .gaveUp }
            if let deadline, (position - start) & 1023 == 1023, ContinuousClock.now >= deadline { return .gaveUp }
            if position == input.count { break }
            if !whole && matched == nil {
                for slot in slots.indices { slots[slot] = -1 }
                next.add(0, &slots, at: position + 1, input: input, program: program, stack: &stack)
            }
            swap(&current, &next)
            position += 1
            if current.count == 0 { break }
        }
        guard let matched else { return .noMatch }
        return .matched(
            (0..<groupCount).map { group in
                let start = matched[2 * group]
                let end = matched[2 * group + 1]
                return start >= 0 && end >= start ? start..<end : nil
            })
    }
}

/// The threads alive at one input position, in priority order, each with its capture slots (side by side in
/// one array): a sparse set over program counters, so each state is added once per position (linear time).
private struct GroupThreads {
    /// Work on the explicit stack: follow a state, or put back a slot a `save` changed once its branch is done.
    enum Task {
        case visit(Int)
        case restore(slot: Int, value: Int)
    }

    private var dense: [Int]
    private var sparse: [Int]
    private var captured: [Int]
    private let slotCount: Int
    private(set) var count = 0

    init(capacity: Int, slotCount: Int) {
        dense = [Int](repeating: 0, count: capacity)
        sparse = [Int](repeating: 0, count: capacity)
        captured = [Int](repeating: -1, count: capacity * slotCount)
        self.slotCount = slotCount
    }

    func pc(_ index: Int) -> Int { dense[index] }
    func slots(_ index: Int) -> [Int] { Array(captured[index * slotCount..<(index + 1) * slotCount]) }
    func load(_ index: Int, into slots: inout [Int]) {
        for slot in 0..<slotCount { slots[slot] = captured[index * slotCount + slot] }
    }
    private func contains(_ pc: Int) -> Bool { sparse[pc] < count && dense[sparse[pc]] == pc }
    mutating func clear() { count = 0 }

    /// Adds `pc` and what it reaches without reading input, depth first in priority order, with `slots` as
    /// they stand on each path (an explicit stack: a long chain of splits cannot overflow the thread's stack).
    /// Only states that read input or match keep a copy of the slots. `slots` is as it was on return.
    mutating func add(
        _ pc: Int, _ slots: inout [Int], at position: Int, input: [Unicode.Scalar], program: [LinearRegex.Instruction],
        stack: inout [Task]
    ) {
        stack.removeAll(keepingCapacity: true)
        stack.append(.visit(pc))
        while let task = stack.popLast() {
            guard case .visit(let pc) = task else {
                if case .restore(let slot, let value) = task { slots[slot] = value }
                continue
            }
            guard !contains(pc) else { continue }
            sparse[pc] = count
            dense[count] = pc
            count += 1
            switch program[pc] {
            case .jump(let target): stack.append(.visit(target))
            case .split(let first, let second):
                stack.append(.visit(second))
                stack.append(.visit(first))
            case .save(let slot):
                stack.append(.restore(slot: slot, value: slots[slot]))
                slots[slot] = position
                stack.append(.visit(pc + 1))
            case .assert(let assertion):
                if RegexCase.holds(assertion, at: position, in: input) { stack.append(.visit(pc + 1)) }
            default:
                for slot in 0..<slotCount { captured[(count - 1) * slotCount + slot] = slots[slot] }
            }
        }
    }
}
