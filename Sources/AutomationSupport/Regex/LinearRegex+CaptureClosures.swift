/// The capture-group matcher's fast path (``LinearRegex/groups(in:from:whole:budget:spent:deadline:)``): for each
/// state a thread can be in after reading a character, the states that read input (or match) reachable from it without
/// reading any, in priority order, each with the `save` slots set on the way there, computed once when the pattern
/// compiles. The general engine walked that closure with an explicit stack of enum tasks at every position for every
/// thread (a retain and a release per look, a slot restored per `save`): ~8 µs per character of a step line in a debug
/// build, 2.8 s to load one 400 KB `Then I do not see "…"` (R7B-11).
///
/// The answers are the general engine's. Its walk marks every state it passes, so a state reached by a thread of higher
/// priority at a position stops later walks there; everything reachable from it is then in the list already. So the
/// targets a walk adds are those of the precomputed closure not yet in the list, each by the first path the depth-first
/// walk takes to it, which no earlier walk changes: the slots are the moving thread's with that path's saves set to the
/// position.
///
/// Assertions hold or fail by where they stand: `^`, `\A` (position 0), `\z` (the end), `$`, `\Z` (the end, or before a
/// final line feed) depend only on which of those positions it is, so those programs keep six closures per state, one
/// per kind of position. Others (`\b`, multiline `^`/`$`) and programs whose closures would be large keep the general
/// path.
struct RegexCaptureClosures: Sendable {
    private let flat: RegexFlatProgram
    private let slotCount: Int
    /// Closures kept per state: 1, or 6 when the program has `^`, `$`, `\A`, `\z`, `\Z` (``context(_:in:)``).
    private let contexts: Int
    /// The closure of state `s` in context `c` is the entries `entryStarts[c * (states + 1) + s]..<` the next one's.
    private let entryStarts: [Int32]
    /// Per entry: the state it adds, and where its saved slots start in `saves` (they end where the next entry's start).
    private let entryTargets: [Int32]
    private let saveStarts: [Int32]
    private let saves: [Int32]

    /// nil when the program has assertions other than those above, or its closures would be too large.
    init?(_ program: [LinearRegex.Instruction], slotCount: Int) {
        var hasAssertions = false
        for case .assert(let assertion) in program {
            guard Self.holds(assertion, in: 0) != nil else { return nil }
            hasAssertions = true
        }
        guard let flat = RegexFlatProgram(program) else { return nil }
        let contexts = hasAssertions ? 6 : 1
        let states = program.count
        var builder = Builder(program: program)
        let limit = RegexClosures.maxClosureRatio * states * contexts + 1024
        var entryStarts = [Int32](repeating: 0, count: contexts * (states + 1) + 1)
        for context in 0..<contexts {
            for state in 0..<states {
                entryStarts[context * (states + 1) + state] = Int32(builder.targets.count)
                // Closures are needed for the start and for the state after each one that reads input.
                if state == 0 || RegexFlatProgram.reads(program[state - 1]) { builder.walk(from: state, context: context) }
                if builder.targets.count > limit || builder.saves.count > limit * 4 { return nil }
            }
            entryStarts[context * (states + 1) + states] = Int32(builder.targets.count)
        }
        entryStarts[contexts * (states + 1)] = Int32(builder.targets.count)
        builder.saveStarts.append(Int32(builder.saves.count))
        (self.flat, self.slotCount, self.contexts) = (flat, slotCount, contexts)
        (self.entryStarts, self.entryTargets, self.saveStarts, self.saves) =
            (entryStarts, builder.targets, builder.saveStarts, builder.saves)
    }

    /// Whether `assertion` holds in `context` (nil: one this path does not take).
    private static func holds(_ assertion: LinearRegex.Assertion, in context: Int) -> Bool? {
        switch assertion {
        case .start, .inputStart: context & 1 != 0
        case .inputEnd: context & 2 != 0
        case .end, .inputEndBeforeNewline: context & 6 != 0
        case .lineStart, .lineEnd, .wordBoundary, .notWordBoundary: nil
        }
    }

    /// The kind of `position`: +1 at 0; +2 at the end, or +4 just before a final line feed (``RegexCase/holds``).
    @inline(__always)
    private static func context(_ position: Int, in text: UnsafeBufferPointer<Unicode.Scalar>) -> Int {
        let end = position == text.count ? 2 : position == text.count - 1 && text[position] == "\n" ? 4 : 0
        return (position == 0 ? 1 : 0) + end
    }

    /// ``LinearRegex/groups(in:from:whole:budget:spent:deadline:)`` on this program: the same answers; `spent` counts a
    /// unit per live thread per position and `slotCount` per thread that moves, as there (the general engine also counts
    /// the splits, jumps and saves it passes: this spends no more).
    func groups(
        in input: [Unicode.Scalar], from start: Int, whole: Bool, budget: Int, spent: inout Int, deadline: ContinuousClock.Instant?
    ) -> LinearRegex.GroupsAnswer {
        let states = flat.ops.count
        let slotCount = self.slotCount
        // One allocation per match: per list, its states and their slots; per state, the mark of the last list holding it.
        let size = 2 * states + 2 * states * slotCount + states + slotCount
        var memory = [Int](repeating: 0, count: size)
        return input.withUnsafeBufferPointer { text in
            flat.withReader { reader in
                memory.withUnsafeMutableBufferPointer { memory in
                    entryStarts.withUnsafeBufferPointer { entryStarts in
                        entryTargets.withUnsafeBufferPointer { entryTargets in
                            saveStarts.withUnsafeBufferPointer { saveStarts in
                                saves.withUnsafeBufferPointer { saves in
                                    var run = CaptureRun(
                                        reader: reader, entryStarts: entryStarts, entryTargets: entryTargets, saveStarts: saveStarts,
                                        saves: saves, memory: memory, states: states, slotCount: slotCount, contexts: contexts)
                                    return run.groups(text, from: start, whole: whole, budget: budget, spent: &spent, deadline: deadline)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The tables and thread lists borrowed for one match.
    private struct CaptureRun {
        let reader: RegexReader
        let entryStarts: UnsafeBufferPointer<Int32>
        let entryTargets: UnsafeBufferPointer<Int32>
        let saveStarts: UnsafeBufferPointer<Int32>
        let saves: UnsafeBufferPointer<Int32>
        let states: Int
        let slotCount: Int
        let contexts: Int
        /// Two lists (their states, and `slotCount` slots per thread), swapped after each position.
        var current: UnsafeMutableBufferPointer<Int>
        var next: UnsafeMutableBufferPointer<Int>
        var currentSlots: UnsafeMutableBufferPointer<Int>
        var nextSlots: UnsafeMutableBufferPointer<Int>
        /// Per state: position + 1 of the list it was last put in (0: none).
        let mark: UnsafeMutableBufferPointer<Int>
        /// The slots of the match found so far.
        let matched: UnsafeMutableBufferPointer<Int>

        init(
            reader: RegexReader, entryStarts: UnsafeBufferPointer<Int32>, entryTargets: UnsafeBufferPointer<Int32>,
            saveStarts: UnsafeBufferPointer<Int32>, saves: UnsafeBufferPointer<Int32>, memory: UnsafeMutableBufferPointer<Int>,
            states: Int, slotCount: Int, contexts: Int
        ) {
            (self.reader, self.entryStarts, self.entryTargets, self.saveStarts, self.saves) =
                (reader, entryStarts, entryTargets, saveStarts, saves)
            (self.states, self.slotCount, self.contexts) = (states, slotCount, contexts)
            var at = 0
            func take(_ count: Int) -> UnsafeMutableBufferPointer<Int> {
                defer { at += count }
                return UnsafeMutableBufferPointer(rebasing: memory[at..<(at + count)])
            }
            (current, next, mark) = (take(states), take(states), take(states))
            (currentSlots, nextSlots, matched) = (take(states * slotCount), take(states * slotCount), take(slotCount))
        }

        /// Adds the closure of `state` at `position` to the next list (`from`: the moving thread's index in the current
        /// list, or -1 for a thread starting with no slot set).
        @inline(__always)
        mutating func add(_ state: Int, at position: Int, from: Int, in text: UnsafeBufferPointer<Unicode.Scalar>, count: inout Int) {
            let context = contexts == 1 ? 0 : RegexCaptureClosures.context(position, in: text)
            let closure = context * (states + 1) + state
            let stamp = position + 1
            for entry in Int(entryStarts[closure])..<Int(entryStarts[closure + 1]) {
                let target = Int(entryTargets[entry])
                guard mark[target] != stamp else { continue }
                mark[target] = stamp
                next[count] = target
                let base = count * slotCount
                count += 1
                if slotCount > 0, let slots = nextSlots.baseAddress, let source = currentSlots.baseAddress {
                    // One copy per thread, not a subscript per slot (a debug build checks and calls for each).
                    if from >= 0 {
                        (slots + base).update(from: source + from * slotCount, count: slotCount)
                    } else {
                        (slots + base).update(repeating: -1, count: slotCount)
                    }
                }
                for index in Int(saveStarts[entry])..<Int(saveStarts[entry + 1]) { nextSlots[base + Int(saves[index])] = position }
            }
        }

        mutating func swapLists() {
            swap(&current, &next)
            swap(&currentSlots, &nextSlots)
        }

        mutating func groups(
            _ text: UnsafeBufferPointer<Unicode.Scalar>, from start: Int, whole: Bool, budget: Int, spent: inout Int,
            deadline: ContinuousClock.Instant?
        ) -> LinearRegex.GroupsAnswer {
            var work = 0
            defer { spent = work }
            var found = false
            var currentCount = 0
            add(0, at: start, from: -1, in: text, count: &currentCount)
            swapLists()
            var position = start
            while true {
                var nextCount = 0
                for index in 0..<currentCount {
                    let state = current[index]
                    if state == reader.matchState {
                        if whole && position != text.count { continue }
                        for slot in 0..<slotCount { matched[slot] = currentSlots[index * slotCount + slot] }
                        found = true
                        break // a match cuts every thread of lower priority
                    }
                    if position < text.count && reader.reads(state, text[position]) {
                        add(state + 1, at: position + 1, from: index, in: text, count: &nextCount)
                        work += slotCount
                    }
                }
                work += currentCount
                if work > budget { return .gaveUp }
                if let deadline, (position - start) & 1023 == 1023, ContinuousClock.now >= deadline { return .gaveUp }
                if position == text.count { break }
                if !whole && !found { add(0, at: position + 1, from: -1, in: text, count: &nextCount) }
                swapLists()
                currentCount = nextCount
                position += 1
                // No thread left and none to come (a search restarts at every position until a match: `\z` has no
                // thread before the end, where the general engine's list still held the assertion that failed).
                if currentCount == 0 && (whole || found) { break }
            }
            guard found else { return .noMatch }
            return .matched(
                (0..<slotCount / 2).map { group in
                    let start = matched[2 * group]
                    let end = matched[2 * group + 1]
                    return start >= 0 && end >= start ? start..<end : nil
                })
        }
    }

    /// The depth-first walk of the general engine, once per closure when the pattern compiles.
    private struct Builder {
        let program: [LinearRegex.Instruction]
        var targets: [Int32] = []
        var saveStarts: [Int32] = []
        var saves: [Int32] = []
        private var seen: [Int]
        private var walks = 0
        /// The saves on a path so far: a slot and the node before it (-1: none), shared by the paths that branch after.
        private var path: [(slot: Int32, before: Int32)] = []
        private var stack: [(pc: Int, path: Int32)] = []

        init(program: [LinearRegex.Instruction]) {
            self.program = program
            seen = [Int](repeating: -1, count: program.count)
        }

        /// Appends the closure of `state` in `context`: splits first target first, as the general engine's stack.
        mutating func walk(from state: Int, context: Int) {
            walks += 1
            path.removeAll(keepingCapacity: true)
            stack.append((state, -1))
            while let (pc, node) = stack.popLast() {
                guard seen[pc] != walks else { continue }
                seen[pc] = walks
                switch program[pc] {
                case .jump(let target): stack.append((target, node))
                case .split(let first, let second):
                    stack.append((second, node))
                    stack.append((first, node))
                case .save(let slot):
                    path.append((Int32(slot), node))
                    stack.append((pc + 1, Int32(path.count - 1)))
                case .assert(let assertion):
                    if RegexCaptureClosures.holds(assertion, in: context) == true { stack.append((pc + 1, node)) }
                default:
                    targets.append(Int32(pc))
                    saveStarts.append(Int32(saves.count))
                    var at = node
                    while at >= 0 {
                        saves.append(path[Int(at)].slot)
                        at = path[Int(at)].before
                    }
                }
            }
        }
    }
}
