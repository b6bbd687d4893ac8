/// Compiling ``RegexNode``s into the Pike VM program, with its size capped (see ``LinearRegex``).
struct RegexCompiler {
    var program: [LinearRegex.Instruction] = []
    /// Emit `save` instructions for capturing groups (a yes/no matcher leaves them out).
    var recordsGroups = false

    mutating func append(_ instruction: LinearRegex.Instruction) {
        program.append(instruction)
    }

    mutating func emit(_ node: RegexNode, depth: Int) throws(LinearRegex.Error) {
        if program.count > LinearRegex.maxInstructions {
            throw LinearRegex.Error(
                message: "regular expression is too large (more than \(LinearRegex.maxInstructions) states once repetitions are expanded)")
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
        case .group(let number, let body):
            guard recordsGroups else { return try emit(body, depth: depth + 1) }
            append(.save(2 * (number - 1)))
            try emit(body, depth: depth + 1)
            append(.save(2 * (number - 1) + 1))
        case .repeated(let body, let min, let max, let lazy):
            // A greedy split prefers its first target (another round), a lazy one its second.
            let split = { (round: Int, exit: Int) in LinearRegex.Instruction.split(lazy ? exit : round, lazy ? round : exit) }
            for _ in 0..<min { try emit(body, depth: depth + 1) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    append(.split(program.count + 1, -1))
                    try emit(body, depth: depth + 1)
                }
                for at in splits { program[at] = split(at + 1, program.count) }
            } else {
                let loop = program.count
                append(.split(loop + 1, -1))
                let bodyStart = program.count
                try emit(body, depth: depth + 1)
                if program.count == bodyStart {
                    program.removeLast()
                    return
                } // (x*)* on an empty body
                append(.jump(loop))
                program[loop] = split(loop + 1, program.count)
            }
        }
    }
}
