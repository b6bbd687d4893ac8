import AutomationSupport

/// `--name REGEX` over the scenario names of a run: one budget of regex steps for all of them (R10B-11: a pattern that
/// does much work per character, `(a{1,50})+$`, took 33 s over 200 names of 200 characters, with no budget, no
/// deadline and no word, before anything ran).
extension ScenarioRunner {
    /// The steps `--name` may spend over every name of a run (what one match of any other user pattern may spend).
    package static let nameBudget = 25_000_000

    /// The locations of the pickles whose name `pattern` matches somewhere, matched with one `budget` for them all;
    /// `matched` nil once it is spent, `read` the names matched by then. A pattern that does not compile matches none.
    package static func namesMatching(_ pickles: [Pickle], pattern: String, budget: Int = nameBudget) -> (matched: Set<String>?, read: Int)
    {
        guard let regex = try? RegexBox(pattern) else { return ([], 0) }
        var left = budget
        var matched = Set<String>()
        var answers: [String: Bool] = [:] // an outline's rows often share a name: matched once
        for (index, pickle) in pickles.enumerated() {
            if let known = answers[pickle.name] {
                if known { matched.insert(pickle.location) }
                continue
            }
            guard let answer = regex.matches(Array(pickle.name.unicodeScalars), whole: false, budget: &left) else { return (nil, index) }
            answers[pickle.name] = answer
            if answer { matched.insert(pickle.location) }
        }
        return (matched, pickles.count)
    }
}
