import AutomationSupport
import ProcessEngine

/// `--rerun-failed FILE` and `--write-rerun FILE`: what failed in an earlier run, read from that run's Cucumber rerun
/// file (`features/login.feature:12:30`, a file per line), its JUnit XML, or its Cucumber Messages NDJSON (told apart
/// by their first character: `<`, `{`, anything else), and written as a rerun file.
///
/// Every entry must name a scenario of this run: a file among the features it loaded, a line where a scenario or an
/// Examples row starts (or, from JUnit written with `--junit-strict`, a feature and scenario name). Anything else is
/// a one-line error naming the file and line, never a silent skip: a rerun that quietly ran less would be a false
/// green.
package enum RerunFile {
    /// The largest file read (64 MiB: the Messages of a suite of thousands of scenarios).
    package static let sizeLimit = 64 << 20
    /// The most entries taken from one file.
    package static let entryLimit = 100_000

    /// A scenario an earlier run said did not pass.
    package enum Entry: Equatable, Sendable {
        /// `path:line`, as the file spells the path, and the line of the file that says so; `name`: the scenario's
        /// name when the file gives it (JUnit, Messages), checked against the scenario now at that line.
        /// `identity` (Messages): the failed pickle as its file records it, which a scenario must be to be rerun for it.
        case location(path: String, line: Int, at: Int, name: String? = nil, identity: Identity? = nil)
        /// A feature and scenario name (JUnit without file/line attributes).
        case name(feature: String, scenario: String, at: Int)
    }

    /// What a Messages file records of a failed pickle that survives edits around it: its name, its Examples row's
    /// cell values, and its steps (text, doc string, table cells). Rows reordered or inserted above it, or two
    /// scenarios of one name swapped, leave another scenario at its line: this finds the one that failed.
    package struct Identity: Equatable, Sendable {
        var name: String
        var cells: [String]?
        var steps: [String]

        /// Whether `pickle` is the recorded one (code points compared, as names are everywhere else).
        func matches(_ pickle: Pickle) -> Bool {
            pickle.specName.sameScalars(name) && Self.same(pickle.rowCells ?? [], cells ?? [])
                && (pickle.rowCells == nil) == (cells == nil) && Self.same(Self.steps(of: pickle), steps)
        }

        /// A pickle's steps as an identity compares them: the text, then a doc string's content, then a table's cells.
        static func steps(of pickle: Pickle) -> [String] {
            pickle.steps.map { step in
                stepIdentity(step.text, doc: step.docString?.content, cells: step.dataTable?.rows)
            }
        }

        static func stepIdentity(_ text: String, doc: String?, cells: [[String]]?) -> String {
            var identity = text
            if let doc { identity += "\u{0}doc\u{0}" + doc }
            if let cells { identity += "\u{0}table\u{0}" + cells.map { $0.joined(separator: "\u{1}") }.joined(separator: "\u{2}") }
            return identity
        }

        /// ` (a | b)`: the row's values as a message shows them, or nothing for a plain scenario.
        var row: String {
            cells.map { " (" + $0.map { $0.prefix(40).escapingControlCharacters() }.joined(separator: " | ") + ")" } ?? ""
        }

        private static func same(_ a: [String], _ b: [String]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.sameScalars($1) }
        }
    }

    /// Why a file cannot be read as a list of failed scenarios: `FILE:LINE: what`.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
        init(_ file: String, _ line: Int, _ text: String) { description = "\(file.escapingControlCharacters()):\(line): \(text)" }
    }

    /// The entries of `bytes` (the file `file`), by its kind.
    /// - Throws: ``Problem`` for a file too large, XML with a DTD or entities, a bad line, or too many entries.
    package static func entries(_ bytes: [UInt8], file: String) throws(Problem) -> [Entry] {
        guard bytes.count <= sizeLimit else {
            throw Problem(file, 1, "larger than \(sizeLimit >> 20) MiB (\(bytes.count) bytes); this is no rerun file, JUnit or Messages")
        }
        // What a run killed mid-way left at its report's name: it lists nothing, and "nothing failed" would be a lie;
        // unless it kept the list of the file it replaced (that run was rerunning it), which is read as it was.
        if ReportPlaceholder.keepsRerunList(bytes) { return try rerunLines(bytes, file: file) }
        if ReportPlaceholder.isPlaceholder(bytes) { throw Problem(file, 1, "this is " + ReportPlaceholder.reason) }
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let first = bytes[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        switch first {
        case UInt8(ascii: "<"): return try RerunJUnit.entries(Array(bytes[start...]), file: file)
        case UInt8(ascii: "{"): return try RerunMessages.entries(Array(bytes[start...]), file: file)
        default: return try rerunLines(Array(bytes[start...]), file: file)
        }
    }

    /// `bytes` as UTF-8 text; else a problem naming the first line that is not (not always line 1).
    static func text(_ bytes: [UInt8], file: String) throws(Problem) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var line = 1
        for piece in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: piece, as: UTF8.self) == nil { break }
            line += 1
        }
        throw Problem(file, line, "not UTF-8 text")
    }

    /// A Cucumber rerun file: per line, `path:line[:line...]` (blank lines and `#` comments skipped), or several
    /// separated by spaces, as Cucumber-Ruby writes them; a space not after `.feature:LINE` belongs to the path.
    static func rerunLines(_ bytes: [UInt8], file: String) throws(Problem) -> [Entry] {
        let text = try RerunFile.text(bytes, file: file)
        var entries: [Entry] = []
        for (index, line) in lines(text).enumerated() {
            let number = index + 1
            let trimmed = line.trimmingCharacters(in: " \t")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            for location in locations(Substring(trimmed)) {
                try add(location, line: number, to: &entries, file: file)
            }
        }
        return entries
    }

    /// One line's locations: Cucumber-Ruby writes the files of a run on one line, separated by spaces, so a line
    /// is split at each run of spaces that follows `.feature:LINE`; other spaces belong to the path.
    static func locations(_ line: Substring) -> [Substring] {
        var pieces: [Substring] = []
        var start = line.startIndex
        var index = line.startIndex
        while index < line.endIndex {
            guard line[index] == " " || line[index] == "\t", endsInLocation(line[start..<index]) else {
                index = line.index(after: index)
                continue
            }
            pieces.append(line[start..<index])
            while index < line.endIndex, line[index] == " " || line[index] == "\t" { index = line.index(after: index) }
            start = index
        }
        if start < line.endIndex { pieces.append(line[start...]) }
        return pieces
    }

    /// Whether `text` ends in `.feature:LINE[:LINE...]`: walks back over the digits and colons only, so splitting a
    /// line costs one pass whatever it holds.
    private static func endsInLocation(_ text: Substring) -> Bool {
        var index = text.endIndex
        var digits = 0
        var numbers = 0
        while index > text.startIndex {
            let previous = text.index(before: index)
            let character = text[previous]
            if character.isASCII && character.isNumber {
                digits += 1
            } else if character == ":" && digits > 0 {
                numbers += 1
                digits = 0
            } else {
                break
            }
            index = previous
        }
        return numbers > 0 && digits == 0 && text[..<index].hasSuffix(".feature")
    }

    /// Adds the entries of one `path:line[:line...]`.
    private static func add(_ trimmed: Substring, line number: Int, to entries: inout [Entry], file: String) throws(Problem) {
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        // The path is what precedes the first run of numbers that lasts to the end.
        var firstNumber = parts.count
        while firstNumber > 1, BoundedNumber.integer(parts[firstNumber - 1], in: NumericLimits.featureLine) != nil {
            firstNumber -= 1
        }
        guard firstNumber < parts.count, firstNumber > 0 else {
            throw Problem(
                file, number,
                "'\(trimmed.prefix(80).escapingControlCharacters())' is not FILE.feature:LINE (lines from 1 to \(NumericLimits.featureLine.upperBound))"
            )
        }
        let path = parts[..<firstNumber].joined(separator: ":")
        for part in parts[firstNumber...] {
            entries.append(.location(path: path, line: Int(part)!, at: number))
            guard entries.count <= entryLimit else { throw Problem(file, number, "more than \(entryLimit) entries") }
        }
    }

    /// The lines of a text file: LF, CRLF and a lone CR each end one (Swift's `"\r\n"` is one Character).
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// The rerun file of `results`: each scenario that failed the run (failed, could not run, not run; not a
    /// quarantined failure, not a flaky pass), as `path:line:line`, a feature file per line, in run order.
    /// A run that failed only in an AfterAll hook has no failed scenario, but rerunning nothing would not
    /// reproduce it: the file then lists every scenario that ran (the hook runs after them again).
    /// - Returns: the text, or the problem: a path holding a line break, which no line of the file can carry.
    package static func render(_ results: [ScenarioResult]) -> Result<String, Problem> {
        // Run-level results (load problems, AfterAll hooks) are no scenario: their location is not a feature file.
        let isRunLevel = { (result: ScenarioResult) in result.pickle.featureName == "sut-launch" && result.pickle.steps.isEmpty }
        let scenarios = results.filter { !isRunLevel($0) && $0.pickle.line > 0 }
        let onlyHooksFailed =
            results.contains { isRunLevel($0) && $0.failsTheRun && $0.pickle.line > 0 } && !scenarios.contains(where: \.failsTheRun)
        var order: [String] = []
        var lines: [String: [Int]] = [:]
        for result in scenarios where result.failsTheRun || onlyHooksFailed {
            let uri = result.pickle.uri
            if lines[uri]?.contains(result.pickle.line) == true { continue }
            if uri.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) {
                return .failure(Problem(uri, result.pickle.line, "a feature path with a line break cannot be written to a rerun file"))
            }
            if lines[uri] == nil { order.append(uri) }
            lines[uri, default: []].append(result.pickle.line)
        }
        return .success(order.map { uri in ([uri] + lines[uri]!.map(String.init)).joined(separator: ":") + "\n" }.joined())
    }
}

/// Limits on numbers read from rerun files.
enum NumericLimits {
    /// A line of a feature file, as `FILE.feature:LINE` arguments take it.
    static let featureLine = 1...10_000_000
}
