import AutomationSupport

/// A scenario's `@timeout=` tag, checked where `check` and `test` load the files: two on one scenario (its own
/// and those it inherits from its Feature and Rule) are an error naming both, since neither could be said to win;
/// a tag that looks meant as one (`@Timeout=1s`, `@TIMEOUT=1s`, `@timeout:1s`, `@timout=1s`) is a warning, as
/// a misspelt keyword is: it sets no timeout. The same for `@retries=` (`@Retries=2`, `@retries:2`, `@retry=2`) and
/// `@quarantine` (`@Quarantine`, `@quarantined`).
enum TimeoutTags {
    /// Errors: more than one `@timeout=` tag on one scenario, at the scenario's `file:line`.
    static func problems(_ pickle: Pickle) -> [String] {
        let tags = pickle.tags.filter { $0.hasPrefix(ScenarioLint.timeoutTag) }
        guard tags.count > 1 else { return [] }
        return [
            "\(pickle.location): \(tags.count) timeout tags on one scenario (\(tags.map { String($0.prefix(50)) }.joined(separator: ", ")), "
                + "its own and its Feature's or Rule's): keep one @timeout= tag, on the scenario"
        ]
    }

    /// Warnings: tags that look like a misspelt `@timeout=`, `@retries=` or `@quarantine`, once per tag and
    /// scenario location.
    static func warnings(_ pickles: [Pickle]) -> [String] {
        var seen: Set<String> = []
        var warnings: [String] = []
        for pickle in pickles {
            for tag in pickle.tags {
                guard let (meant, effect) = meant(tag), seen.insert("\(pickle.uri):\(pickle.scenarioLine):\(tag)").inserted else {
                    continue
                }
                warnings.append(
                    "\(pickle.uri):\(pickle.scenarioLine): tag \(tag.prefix(50).escapingControlCharacters()) \(effect); did you mean \(meant.prefix(50))?"
                )
            }
        }
        return warnings
    }

    /// The tag `tag` was likely meant as (`@timeout=…`, `@retries=…`, `@quarantine`) and what it does not do, or
    /// nil when it is one of them or looks like another tag.
    static func meant(_ tag: String) -> (meant: String, effect: String)? {
        if tag.hasPrefix(ScenarioLint.timeoutTag) || tag.hasPrefix(ScenarioRunner.retriesTag) || tag == Quarantine.tag { return nil }
        guard let separator = tag.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
            let lower = tag.lowercased()
            guard lower == Quarantine.tag || lower == "@quarantined" || Suggestion.editDistance(lower, Quarantine.tag) <= 2 else {
                return nil
            }
            return (Quarantine.tag, "quarantines nothing")
        }
        let key = tag[..<separator].lowercased()
        let value = tag[tag.index(after: separator)...]
        if key == "@timeout" || Suggestion.editDistance(key, "@timeout") <= 2 {
            return (ScenarioLint.timeoutTag + value, "sets no timeout")
        }
        if key == "@retry" || key == "@retries" || Suggestion.editDistance(key, "@retries") <= 2 {
            return (ScenarioRunner.retriesTag + value, "sets no retries")
        }
        return nil
    }
}
