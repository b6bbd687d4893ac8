/// The text every match of a pattern must contain, found in its tree: searches over large inputs look for it
/// with memmem first and run the Pike VM only where it occurs (`Then I see a line matching "^DONE$"` over 180,000
/// lines tests one). Conservative: anything it cannot be sure of ends a run of literals, never the reverse.
enum RegexLiteral {
    private enum Piece {
        case literal(Unicode.Scalar)
        case barrier
    }

    /// The longest run of literal characters every match contains, or "" when there is none.
    static func required(in node: RegexNode) -> String {
        var pieces: [Piece] = []
        flatten(node, into: &pieces)
        var best = ""
        var run = ""
        for piece in pieces + [.barrier] {
            switch piece {
            case .literal(let scalar): run.unicodeScalars.append(scalar)
            case .barrier:
                if run.unicodeScalars.count > best.unicodeScalars.count { best = run }
                run = ""
            }
        }
        return best
    }

    /// The pieces a match goes through in order: literals that are always there, barriers for anything else.
    /// Recursion follows the tree, whose depth the parser caps (``LinearRegex/maxNesting``).
    private static func flatten(_ node: RegexNode, into pieces: inout [Piece]) {
        switch node {
        case .empty, .assert: break // zero width: the literals on either side stay adjacent
        case .scalar(let scalar, let caseInsensitive):
            // U+FFFD also stands for bytes that were not UTF-8, which memmem over the bytes would not find.
            pieces.append(caseInsensitive || scalar == "\u{FFFD}" ? .barrier : .literal(scalar))
        case .concat(let items): for item in items { flatten(item, into: &pieces) }
        case .group(_, let body): flatten(body, into: &pieces)
        case .repeated(let body, let min, let max, _):
            if min == 1 && max == 1 { return flatten(body, into: &pieces) }
            pieces.append(.barrier)
            // At least one round: the body's own literals are in every match (not across rounds).
            if min >= 1 {
                flatten(body, into: &pieces)
                pieces.append(.barrier)
            }
        case .set, .any, .alternation: pieces.append(.barrier)
        }
    }
}
