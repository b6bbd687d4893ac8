/// "Did you mean …?" for typos in option names, stub keys and step texts.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
    /// (distance at most 1 for short words, at most a third of the length, never more than 3).
    package static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (String, Int)?
        let lowered = word.lowercased()
        // A truncated name ("CONNECTION_RESET" for "CONNECTION_RESET_BY_PEER") is a likely slip too.
        if lowered.count >= 4, let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(lowered) }) { return prefixed }
        let length = lowered.count
        for candidate in candidates {
            // Lengths that differ by more than the limit are farther than it: no table to fill (a 300 KB "word" costs nothing).
            guard abs(candidate.count - length) <= limit else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// "; did you mean \"x\"?" or "".
    ///
    /// With `otherwise`, the text when there is no suggestion (say, the list of valid names).
    package static func didYouMean(_ word: String, among candidates: some Sequence<String>, quote: String = "\"", otherwise: String = "")
        -> String
    {
        guard let match = nearest(to: word, among: candidates) else { return otherwise }
        return "; did you mean \(quote)\(match)\(quote)?"
    }

    /// Levenshtein distance, counting an adjacent transposition as one edit.
    ///
    /// Bounded: only the first ``maxCompared`` characters of each are compared (a table of at most 512 × 512); past
    /// them, the difference in UTF-8 length counts. A request path or step text of megabytes costs what 512 do.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let (headA, headB) = (a.prefix(maxCompared), b.prefix(maxCompared))
        let beyond = abs((a.utf8.count - headA.utf8.count) - (b.utf8.count - headB.utf8.count))
        return beyond + compared(Array(headA), Array(headB))
    }

    /// How many characters of each text ``editDistance(_:_:)`` compares.
    package static let maxCompared = 512

    private static func compared(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
