/// A compiled regular expression, shared across threads (matching does not mutate it).
package final class RegexBox: Sendable {
    let regex: LinearRegex
    package let source: String
    private let warned = Locked(false)

    /// - Parameter groups: record what capturing groups match, for ``groups(whole:)`` (a yes/no matcher
    ///   leaves that work out).
    /// - Parameter dotAll: `.` matches line terminators too, as with `(?s)`: WireMock compiles every `matches` and
    ///   `doesNotMatch` pattern with Java's `DOTALL`.
    /// - Throws: ``LinearRegex/Error`` naming the position and what is not supported.
    package init(_ source: String, groups: Bool = false, dotAll: Bool = false) throws {
        self.source = source
        self.regex = try LinearRegex(source, groups: groups, dotAll: dotAll)
        self.requiredLiteral = Array(regex.requiredLiteral.utf8)
    }

    /// Capturing groups the pattern records (0 unless compiled with `groups: true`).
    package var groupCount: Int { regex.groupCount }

    /// Whether its groups are found on closures computed when it compiled (``RegexCaptureClosures``), not by the
    /// general Pike VM: true for patterns with no assertion but `^ $ \A \z \Z`, compiled with `groups: true`.
    package var capturesTakeTheFastPath: Bool { regex.captureClosures != nil }

    /// When the whole text matches, the range of each capturing group in it (nil for a group that took no part),
    /// chosen as Java's and Swift's engines choose (leftmost-first: greedy rounds and first alternatives win).
    package func groups(whole text: String) -> [Range<String.Index>?]? {
        switch groups(whole: text, budget: 100_000_000) {
        case .matched(let ranges): return ranges
        case .noMatch: return nil
        case .gaveUp:
            _ = decide(nil, text)
            return nil
        }
    }

    /// What ``groups(whole:budget:)`` found.
    package enum Groups {
        case matched([Range<String.Index>?])
        case noMatch
        /// `budget` units of work (a unit per capture slot carried a scalar further) were spent before an answer.
        case gaveUp
    }

    /// ``groups(whole:)`` with the caller's work budget, saying when it was spent rather than warning.
    package func groups(whole text: String, budget: Int) -> Groups {
        var spent = 0
        return groups(whole: text, budget: budget, spent: &spent)
    }

    /// ``groups(whole:budget:)``, telling the caller the work it did (`spent`), for a budget over many matches.
    package func groups(whole text: String, budget: Int, spent: inout Int) -> Groups {
        let scalars = text.unicodeScalars
        let array = Array(scalars)
        let answer = regex.groups(in: array, from: 0, whole: true, budget: budget, spent: &spent)
        guard case .matched(let ranges) = answer else { return answer == .noMatch ? .noMatch : .gaveUp }
        // Offsets grow left to right: walk the scalars once, not once per group.
        var offsets = Set<Int>()
        for range in ranges.compactMap({ $0 }) {
            offsets.insert(range.lowerBound)
            offsets.insert(range.upperBound)
        }
        var indices: [Int: String.Index] = [:]
        var index = scalars.startIndex
        // The count from the array: the view's count walks the whole text each time it is asked.
        for offset in 0...array.count {
            if offsets.contains(offset) { indices[offset] = index }
            if offset < array.count { index = scalars.index(after: index) }
            if indices.count == offsets.count { break }
        }
        return .matched(
            ranges.map { range in
                guard let range, let low = indices[range.lowerBound], let high = indices[range.upperBound] else { return nil }
                return low..<high
            })
    }

    /// Whole-string match, as Java's `matches()` (WireMock's semantics).
    package func matchesWhole(_ text: String) -> Bool { decide(regex.matches(text, whole: true), text) }
    /// True only when the engine answered that the whole text does not match (WireMock's `doesNotMatch`). A match
    /// that spent its budget is no answer: the negated matcher does not hold either (it passed a body that
    /// matched, a false green).
    package func doesNotMatchWhole(_ text: String, budget: Int = LinearRegex.defaultBudget) -> Bool {
        switch regex.matches(text, whole: true, budget: budget) {
        case false?: true
        case true?: false
        case nil: decide(nil, text)
        }
    }
    /// Somewhere in the text.
    package func matchesPart(_ text: String) -> Bool { decide(regex.matches(text, whole: false), text) }

    /// Somewhere in `bytes` read as UTF-8 (a byte that is not UTF-8 reads as U+FFFD, as `String(decoding:)`
    /// does), without building a String.
    package func matchesPart(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        matchesPart(utf8: bytes, deadline: nil) ?? decide(nil, String(decoding: bytes, as: UTF8.self))
    }

    /// ``matchesPart(utf8:)`` that answers nil, without a warning, when the step budget was spent or `deadline` passed
    /// first: the caller says which.
    package func matchesPart(utf8 bytes: UnsafeBufferPointer<UInt8>, deadline: ContinuousClock.Instant?) -> Bool? {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count)
        _ = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: false) {
            scalars.append(Unicode.Scalar($0) ?? "\u{FFFD}")
        }
        var spent = 0
        return regex.matches(scalars, whole: false, budget: LinearRegex.defaultBudget, spent: &spent, deadline: deadline)
    }

    /// Steps one match may take before it gives up (``matchesPart(utf8:deadline:)`` answers nil).
    package static var stepBudget: Int { LinearRegex.defaultBudget }

    /// UTF-8 of the text every match contains (empty: none): input without it cannot match.
    package let requiredLiteral: [UInt8]

    /// A match that spent its step budget (a huge body against a large pattern) holds neither way: `matches` and
    /// `doesNotMatch` are both false. Said once.
    private func decide(_ answer: Bool?, _ text: String) -> Bool {
        if let answer { return answer }
        if warned.withLock({ warned in
            defer { warned = true }
            return !warned
        }) {
            StandardStreams.error(
                "sut-launch: warning: /\(source.escapingControlCharacters())/ gave up on a \(text.utf8.count)-byte input after its step budget of \(LinearRegex.defaultBudget) steps; neither a match nor a mismatch (the matcher does not hold)\n"
            )
        }
        return false
    }
}
