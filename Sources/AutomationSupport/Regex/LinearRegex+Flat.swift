/// The program as the fast paths read it (``RegexClosures`` for yes/no, ``RegexCaptureClosures`` for groups): an opcode
/// and a value per state, each character class with a bitmap of its ASCII members. Only states that read input or
/// match are ever threads there; the others (splits, jumps, saves, assertions) are folded into precomputed closures.
struct RegexFlatProgram: Sendable {
    enum Op: UInt8 {
        /// `epsilon`: a split, jump, save or assertion (never a thread: closures hold the states it leads to).
        case scalar, scalarFolded, set, any, anyButLineTerminator, match, epsilon
    }

    /// Per state: what it does with a character.
    let ops: [Op]
    /// Per state: the scalar it wants (`scalar`), or its class's index (`set`).
    let values: [UInt32]
    let sets: [ScalarSet]
    /// Per class: its members below 128, two words of bits.
    let asciiBits: [(UInt64, UInt64)]
    /// The program's `match` state (its last).
    let matchState: Int

    /// nil when the program has no `match` state.
    init?(_ program: [LinearRegex.Instruction]) {
        var ops: [Op] = []
        var values: [UInt32] = []
        var sets: [ScalarSet] = []
        var bits: [(UInt64, UInt64)] = []
        var matchState = -1
        ops.reserveCapacity(program.count)
        values.reserveCapacity(program.count)
        for (pc, instruction) in program.enumerated() {
            var value: UInt32 = 0
            switch instruction {
            case .scalar(let scalar, let caseInsensitive):
                ops.append(caseInsensitive ? .scalarFolded : .scalar)
                value = scalar.value
            case .set(let set):
                ops.append(.set)
                value = UInt32(sets.count)
                sets.append(set)
                var low: UInt64 = 0
                var high: UInt64 = 0
                for code in 0..<128 where set.contains(Unicode.Scalar(UInt8(code))) {
                    if code < 64 { low |= 1 << UInt64(code) } else { high |= 1 << UInt64(code - 64) }
                }
                bits.append((low, high))
            case .any(let dotAll): ops.append(dotAll ? .any : .anyButLineTerminator)
            case .match:
                ops.append(.match)
                matchState = pc
            case .split, .jump, .save, .assert: ops.append(.epsilon)
            }
            values.append(value)
        }
        guard matchState >= 0 else { return nil }
        (self.ops, self.values, self.sets, self.asciiBits, self.matchState) = (ops, values, sets, bits, matchState)
    }

    /// True for an instruction that reads a character (a thread moves past it to `pc + 1`).
    static func reads(_ instruction: LinearRegex.Instruction) -> Bool {
        switch instruction {
        case .scalar, .set, .any: true
        default: false
        }
    }

    /// Lends the tables to `body` as buffer pointers (no retain, release or bounds check per look).
    func withReader<Result>(_ body: (RegexReader) -> Result) -> Result {
        ops.withUnsafeBufferPointer { ops in
            values.withUnsafeBufferPointer { values in
                sets.withUnsafeBufferPointer { sets in
                    asciiBits.withUnsafeBufferPointer { bits in
                        body(RegexReader(ops: ops, values: values, sets: sets, asciiBits: bits, matchState: matchState))
                    }
                }
            }
        }
    }
}

/// The flattened program borrowed for one match: pointers only, so a copy of it (a debug build copies a struct at
/// each use) retains and releases nothing.
struct RegexReader {
    let ops: UnsafeBufferPointer<RegexFlatProgram.Op>
    let values: UnsafeBufferPointer<UInt32>
    let sets: UnsafeBufferPointer<ScalarSet>
    let asciiBits: UnsafeBufferPointer<(UInt64, UInt64)>
    let matchState: Int

    /// Whether a thread in `state` moves past `scalar`.
    @inline(__always)
    func reads(_ state: Int, _ scalar: Unicode.Scalar) -> Bool {
        switch ops[state] {
        case .scalar: return values[state] == scalar.value
        case .scalarFolded:
            let wanted = Unicode.Scalar(values[state])!
            return wanted == scalar || RegexCase.fold(wanted) == RegexCase.fold(scalar)
        case .set:
            let code = scalar.value
            guard code < 128 else { return sets[Int(values[state])].contains(scalar) }
            let words = asciiBits[Int(values[state])]
            return code < 64 ? words.0 & (1 << UInt64(code)) != 0 : words.1 & (1 << UInt64(code - 64)) != 0
        case .any: return true
        case .anyButLineTerminator: return !RegexCase.isLineTerminator(scalar)
        case .match, .epsilon: return false
        }
    }
}
