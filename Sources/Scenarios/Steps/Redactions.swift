package import AutomationSupport

/// A user's redaction: text a regular expression matches in output becomes `[NAME]` before a snapshot or an
/// exact-output check compares it (`--redact NAME=REGEX`, or `"redactions": {"NAME": "REGEX"}` in a step file).
package struct Redaction: Sendable {
    /// The placeholder's name: `[NAME]` replaces each match.
    package let name: String
    package let regex: RegexBox
    /// Where it was given (`--redact`, `steps.json:4`), for messages.
    package let source: String

    /// The placeholders sut-launch fills itself; a user's redaction cannot take their names.
    package static let builtIn = ["CWD", "HOME", "TMP", "MOCK", "MOCK_HOST", "VERSION"]

    /// Compiles `NAME=REGEX`.
    /// - Throws: the problem, in words, without the source.
    package init(_ text: String, source: String) throws(StepFailure) {
        guard let equals = text.firstIndex(of: "=") else { throw StepFailure("'\(text.prefix(60))' is not NAME=REGEX", kind: .error) }
        try self.init(name: String(text[..<equals]), pattern: String(text[text.index(after: equals)...]), source: source)
    }

    package init(name: String, pattern: String, source: String) throws(StepFailure) {
        let valid =
            !name.isEmpty && name.count <= 40
            && name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        guard valid, let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            throw StepFailure(
                "redaction name '\(name.prefix(60).escapingControlCharacters())' must be 1 to 40 capital letters, digits or _, starting with a letter",
                kind: .error)
        }
        guard !Self.builtIn.contains(name) else {
            throw StepFailure("[\(name)] is sut-launch's own placeholder; give the redaction another name", kind: .error)
        }
        guard !pattern.isEmpty else { throw StepFailure("redaction \(name) has an empty pattern", kind: .error) }
        do {
            _ = try RegexBox(pattern) // its own error positions, then wrapped: group 1 is the whole match
            regex = try RegexBox("(" + pattern + ")", groups: true)
        } catch {
            throw StepFailure(
                "redaction \(name): the pattern \(pattern.prefix(80).escapingControlCharacters()) is not supported: \(error)", kind: .error)
        }
        guard !regex.matchesWhole(""), !Self.matchesEmpty(regex) else {
            throw StepFailure(
                "redaction \(name): the pattern can match empty text (as \\b, ^ or a? do), so it would insert [\(name)] between "
                    + "characters; make it match at least one character", kind: .error)
        }
        self.name = name
        self.source = source
    }

    /// Texts tried at every position: a pattern that matches empty text at any of them (`\b`, `\B`, `(?=x)`, `$`)
    /// is refused, not only one that matches the empty string.
    static let emptyProbes = ["", "a", "A1", "hello world", "0.1.2", " \t", "x=y;z", "é€", "a\nb", "[X] (y) {z}", "/tmp/a-b_c", "--"]

    /// Whether `regex` (group 1: the whole match) finds an empty match at some position of a probe.
    static func matchesEmpty(_ regex: RegexBox) -> Bool {
        var budget = 1_000_000
        for probe in emptyProbes {
            let scalars = Array(probe.unicodeScalars)
            for start in 0...scalars.count {
                switch regex.find(in: scalars, from: start, budget: &budget) {
                case .match(let ranges): if let whole = ranges.first ?? nil, whole.isEmpty { return true }
                case .gaveUp: return true // too costly even on these: refused rather than trusted
                case .none: break
                }
            }
        }
        return false
    }
}

/// Output made portable: the scenario's own directories, the mock server's address and sut-launch's version become
/// placeholders (trycmd's `[CWD]`, `[ROOT]`), then each user redaction in the order given replaces its matches.
///
/// Order, so overlapping values give one answer: the built-in values longest first (the working directory
/// `…/work` before the scenario's root; a URL before its host), each replaced everywhere left to right before the
/// next; then user redactions, each on the text the previous ones left (a placeholder already there is text too).
package struct PortableOutput: Sendable {
    /// `(placeholder, value)` of the built-in ones; empty values are left out.
    package var literals: [(placeholder: String, value: String)]
    package var redactions: [Redaction]
    /// Work allowed to the user redactions on one output (the regex engine's steps).
    package static let budget = 25_000_000

    package init(literals: [(placeholder: String, value: String)], redactions: [Redaction]) {
        // Longest first; equal lengths by placeholder name, so the order never depends on how they were listed.
        self.literals = literals.filter { $0.value.utf8.count >= 2 }.sorted {
            ($0.value.utf8.count, $1.placeholder) > ($1.value.utf8.count, $0.placeholder)
        }
        self.redactions = redactions
    }

    /// `bytes` with every value replaced by its placeholder.
    /// - Parameters:
    ///   - deadline: the scenario's: the redactions stop there (`deadlineName` says what it is), as every step's work does.
    /// - Throws: when a user redaction spends the budget (its pattern and the output are named), or reaches the deadline.
    package func apply(
        _ bytes: [UInt8], deadline: ContinuousClock.Instant? = nil, deadlineName: String = "the deadline"
    ) throws(StepFailure) -> [UInt8] {
        var output = bytes
        for (placeholder, value) in literals {
            output = Self.replace(Array(value.utf8), with: Array(placeholder.utf8), in: output, wholeToken: placeholder == "[VERSION]")
        }
        guard !redactions.isEmpty, let text = String(validating: output, as: UTF8.self) else { return output }
        var scalars = Array(text.unicodeScalars)
        var budget = Self.budget
        for redaction in redactions {
            var result: [Unicode.Scalar] = []
            result.reserveCapacity(scalars.count)
            var start = 0
            var copied = 0
            while start <= scalars.count {
                let found = redaction.regex.find(in: scalars, from: start, budget: &budget, deadline: deadline)
                if found == .gaveUp, let deadline, ContinuousClock.now >= deadline {
                    throw StepFailure(
                        "redaction \(redaction.name) (\(redaction.source)) was still working on \(scalars.count) characters of output at "
                            + "\(deadlineName); make its pattern simpler")
                }
                if found == .gaveUp {
                    throw StepFailure(
                        "redaction \(redaction.name) (\(redaction.source)) gave up: its pattern took over \(Self.budget) steps on "
                            + "\(scalars.count) characters of output; make it simpler", kind: .error)
                }
                guard case .match(let ranges) = found, let whole = ranges.first ?? nil else { break } // group 1: the whole
                result += scalars[copied..<whole.lowerBound]
                result += "[\(redaction.name)]".unicodeScalars
                copied = whole.upperBound
                start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
            }
            if copied < scalars.count { result += scalars[copied...] }
            scalars = result
        }
        return Array(String(String.UnicodeScalarView(scalars)).utf8)
    }

    /// Every occurrence of `needle` in `haystack`, left to right, not overlapping, replaced by `replacement`;
    /// `wholeToken` (a version): only where it is not part of a longer word or number (`10.1.0.1` holds no `0.1.0`).
    static func replace(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8], wholeToken: Bool = false) -> [UInt8] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return haystack }
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var index = 0
        let first = needle[0]
        while index < haystack.count {
            if haystack[index] == first, index + needle.count <= haystack.count,
                haystack[index..<(index + needle.count)].elementsEqual(needle),
                !wholeToken || isToken(haystack, index..<(index + needle.count))
            {
                output += replacement
                index += needle.count
            } else {
                output.append(haystack[index])
                index += 1
            }
        }
        return output
    }

    /// Whether `range` of `text` stands alone: no letter or digit touches it, nor a `.` that joins a digit to it
    /// (a `v` before it may, as in `v0.1.0`, when it starts a word).
    static func isToken(_ text: [UInt8], _ range: Range<Int>) -> Bool {
        func word(_ index: Int) -> Bool {
            guard text.indices.contains(index) else { return false }
            let byte = text[index]
            return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte >= 0x80
        }
        func digit(_ index: Int) -> Bool { text.indices.contains(index) && (0x30...0x39).contains(text[index]) }
        func dot(_ index: Int) -> Bool { text.indices.contains(index) && text[index] == UInt8(ascii: ".") }
        let before = range.lowerBound - 1
        let after = range.upperBound
        let versionPrefix =
            text.indices.contains(before) && (text[before] == UInt8(ascii: "v") || text[before] == UInt8(ascii: "V"))
            && !word(before - 1)
        return (!word(before) || versionPrefix) && !(dot(before) && digit(before - 1)) && !word(after) && !(dot(after) && digit(after + 1))
    }
}
