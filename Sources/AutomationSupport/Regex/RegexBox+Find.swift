/// Matching with the caller's budget, for work that answers to one (a response template's): each call takes
/// what it spent from `budget` and answers nil (or ``Found/gaveUp``) once that is gone, instead of using the
/// shared default.
extension RegexBox {
    /// What one search found.
    package enum Found: Equatable {
        /// The range of each capturing group, in scalar offsets (nil for a group that took no part).
        case match([Range<Int>?])
        case none
        /// The budget was spent before an answer.
        case gaveUp
    }

    /// Whether the whole of `scalars` matches (Java's `matches()`), or a part of it; nil once `budget` (less
    /// what this spends) runs out.
    package func matches(_ scalars: [Unicode.Scalar], whole: Bool, budget: inout Int) -> Bool? {
        var spent = 0
        let answer = regex.matches(scalars, whole: whole, budget: max(0, budget), spent: &spent)
        budget -= spent + 1
        return answer
    }

    /// The first match at or after `start` (Java's `find()`), its groups recorded (compile with `groups: true`).
    /// - Parameter deadline: when set, the search also gives up (``Found/gaveUp``) once it has passed.
    package func find(in scalars: [Unicode.Scalar], from start: Int, budget: inout Int, deadline: ContinuousClock.Instant? = nil) -> Found {
        guard start <= scalars.count else { return .none }
        var spent = 0
        let answer = regex.groups(in: scalars, from: start, whole: false, budget: max(0, budget), spent: &spent, deadline: deadline)
        budget -= spent + 1
        switch answer {
        case .matched(let ranges): return .match(ranges)
        case .noMatch: return .none
        case .gaveUp: return .gaveUp
        }
    }
}
