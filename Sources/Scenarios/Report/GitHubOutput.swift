import AutomationSupport
import ProcessEngine

/// `--format github`: each failed scenario as a GitHub Actions annotation on its failing step's line
/// (`::error file=F,line=L,title=T::message`), and a Markdown table appended to `$GITHUB_STEP_SUMMARY`.
///
/// The runner reads every line of a step's output as a possible workflow command (`::name …::data` after leading
/// spaces, `##[name …]data` anywhere in a line). So with `--format github` nothing sut-launch prints but its own
/// commands may be one (and so whenever `GITHUB_ACTIONS=true`, without annotations): ``begin()`` prints `::stop-commands::TOKEN` (a random, per-run token the program cannot
/// guess) before anything else, sut-launch's own stderr lines go to stdout meanwhile so they are inside the block
/// in order, and ``report(_:environment:)`` ends it with `::TOKEN::` before the annotations, whose data and
/// properties are escaped as GitHub documents (`%`, CR, LF; also `:` and `,` in properties), per Unicode scalar
/// (`\r\n` is one Swift Character).
package enum GitHubOutput {
    /// The token of the block now open, if any.
    private static let openToken = Locked<String?>(nil)

    /// Whether the run is a GitHub Actions step (`GITHUB_ACTIONS=true`): its console is then inside the block
    /// whatever `--format` says (annotations and the step summary are `--format github`'s alone).
    package static func isActions(_ environment: [String: String]) -> Bool { environment["GITHUB_ACTIONS"] == "true" }

    /// Opens the block: from here on, workflow commands in what sut-launch prints (scenario names, step text, the
    /// program's output quoted in a failure) are plain text to the runner.
    package static func begin() {
        var generator = SystemRandomNumberGenerator() // getrandom(2): unguessable
        let token = (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
        openToken.withLock { $0 = token }
        Console.out("::stop-commands::\(token)\n")
        Console.redirectLinesToStandardOutput(true)
    }

    /// Closes the block (if open): the runner reads commands again.
    package static func end() {
        guard
            let token = openToken.withLock({ token -> String? in
                defer { token = nil }
                return token
            })
        else { return }
        Console.redirectLinesToStandardOutput(false)
        Console.out("::\(token)::\n")
    }

    /// - Returns: why the step summary could not be appended (said on stderr too), or nil; the caller exits 74 then.
    @discardableResult
    package static func report(_ results: [ScenarioResult], environment: [String: String]) -> String? {
        end()
        // A quarantined failure and a flaky pass are warnings: they do not fail the run, but nobody should miss them.
        for result in results where (result.status != .passed && result.status != .notRun) || result.flaky {
            let (file, line) = location(result)
            let title = "\(result.pickle.featureName): \(result.pickle.name)"
            let kind = result.failsTheRun ? "error" : "warning"
            let message =
                result.flaky
                ? "flaky: passed on attempt \(result.earlierAttempts.count + 1); " + (result.earlierAttempts.first?.message ?? "")
                : (result.quarantined ? "quarantined: " : "") + (result.message ?? "failed")
            // No file (the load of the files interrupted): an annotation on the run, not on `file=,line=0`.
            let place = file.isEmpty ? "" : "file=\(property(file)),line=\(line),"
            Console.out("::\(kind) \(place)title=\(property(title))::\(data(message))\n")
        }
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return nil }
        let markdown = summary(results, budget: summaryBudget(holding: FileSystem.size(path) ?? 0, path: path))
        guard let problem = OutputFile.append(Array(markdown.utf8), to: path) else { return nil }
        Console.error("GITHUB_STEP_SUMMARY \(path): cannot append the summary: \(problem) (exit \(ExitCode.ioError))")
        return problem
    }

    /// The step summary's Markdown: a table of at most `budget` bytes, what did not pass first, then the passed ones
    /// while they fit; what is left out is counted, never silently gone. Under ``minimumTable`` bytes of room, one
    /// line that says why there is no table, and the counts.
    static func summary(_ results: [ScenarioResult], budget: Int) -> String {
        let passed = results.filter { $0.shownStatus == .passed }.count
        // A flaky pass under --fail-on-flaky failed the run: not counted as passed (exit 1 with "1 of 1 passed" misled).
        let flakyFailed = results.filter(\.flakyFailsTheRun).count
        var counts = "\(passed) of \(results.count) passed"
        counts += flakyFailed == 0 ? "\n" : "; \(flakyFailed) flaky (passed only on a retry), which fails the run (--fail-on-flaky)\n"
        guard budget >= minimumTable else {
            return "\n**sut-launch test**: \(counts.dropLast()) (no table: this step's summary is near GitHub's 1 MiB, past which it "
                + "drops the whole summary; see the job's log)\n"
        }
        var markdown = "### sut-launch test\n\n| | scenario | where |\n|---|---|---|\n"
        var size = markdown.utf8.count
        let ordered = results.filter { $0.shownStatus != .passed } + results.filter { $0.shownStatus == .passed }
        var left = (passed: 0, other: 0)
        for result in ordered {
            let mark =
                result.quarantined && !result.failsTheRun
                ? "🚧"
                : result.shownStatus == .passed
                    ? "✅" : result.shownStatus == .failed ? "❌" : result.status == .notRun ? "⏭️" : "⚠️"
            let place = result.failedStep ?? (result.pickle.uri.isEmpty ? "" : result.pickle.location)
            let row = "| \(mark) | \(cell(cut(result.pickle.featureName + ": " + result.pickle.name))) | \(cell(cut(place))) |\n"
            guard size + row.utf8.count <= budget else {
                if result.shownStatus == .passed { left.passed += 1 } else { left.other += 1 }
                continue
            }
            markdown += row
            size += row.utf8.count
        }
        if left.other > 0 { markdown += "\n\(left.other) more scenarios that did not pass not listed (the summary's size limit)\n" }
        if left.passed > 0 { markdown += "\n\(left.passed) more passed scenarios not listed\n" }
        return markdown + "\n" + counts
    }

    /// GitHub drops a step's whole summary past 1 MiB, and every command of the step appends to one file: the table
    /// gets what the file leaves of that (less ``summaryMargin`` for the lines around it and a tool after this one),
    /// at most ``summaryBudget``. Too little left is said on stderr (the summary then has one line).
    static func summaryBudget(holding existing: Int, path: String) -> Int {
        let budget = min(summaryBudget, stepSummaryLimit - summaryMargin - existing)
        if budget < minimumTable {
            Console.line(
                "warning: GITHUB_STEP_SUMMARY \(path.escapingControlCharacters()) holds \(existing) bytes already; GitHub drops a step's "
                    + "summary past 1 MiB, so this run appends one line and no table")
        }
        return budget
    }

    /// The most bytes of table the step summary holds, whatever room the file leaves.
    static let summaryBudget = 768 << 10
    /// GitHub's limit on one step's summary file: past it, the whole summary is dropped.
    static let stepSummaryLimit = 1 << 20
    /// What is kept free below ``stepSummaryLimit``: the lines around the table, and room for a tool after this one.
    static let summaryMargin = 64 << 10
    /// Under this much room, no table: one line (the counts, and why).
    static let minimumTable = 4 << 10
    /// The most Unicode scalars of a name or place shown in a row (a 100 KB scenario name was a 100 KB row).
    static let cellLimit = 500

    /// `text` cut to ``cellLimit`` Unicode scalars, with `…` when cut.
    static func cut(_ text: String) -> String {
        guard text.unicodeScalars.count > cellLimit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(cellLimit))) + "…"
    }

    /// The failing step's file and line (`login.feature:14: Then …`), else the scenario's.
    static func location(_ result: ScenarioResult) -> (String, Int) {
        let text = result.failedStep ?? result.pickle.location
        // The path may hold a colon (`x:7.feature`): the line is what follows the scenario's own path.
        let uri = result.pickle.uri
        if text.hasPrefix(uri + ":") {
            let rest = text.dropFirst(uri.count + 1)
            if let line = BoundedNumber.integer(rest.prefix { $0 != ":" }, in: 1...Int(Int32.max)) { return (uri, line) }
        }
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count >= 2, let line = BoundedNumber.integer(parts[1], in: 1...Int(Int32.max)) { return (String(parts[0]), line) }
        return (result.pickle.uri, result.pickle.line)
    }

    /// GitHub's escaping for an annotation's message: `%`, CR, LF; every other control character (ESC, BEL, VT, NUL,
    /// NEL, U+2028, bidi overrides) is written as an escape (`\u{1B}`): the line is outside the stop-commands
    /// block, and a terminal or log viewer would act on them.
    static func data(_ text: String) -> String { escape(text, property: false) }

    /// GitHub's escaping for an annotation's properties: also `:` and `,`.
    static func property(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        var result = String.UnicodeScalarView()
        // CR and LF stay for GitHub's %0D/%0A (its UI shows the line breaks); the others become escapes.
        let visible = text.unicodeScalars.split(separator: "\r", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)).escapingControlCharacters(keepingLineBreaks: true, keepingTabs: true) }
            .joined(separator: "\r")
        for scalar in visible.unicodeScalars {
            switch scalar {
            case "%": result.append(contentsOf: "%25".unicodeScalars)
            case "\r": result.append(contentsOf: "%0D".unicodeScalars)
            case "\n": result.append(contentsOf: "%0A".unicodeScalars)
            case ":" where property: result.append(contentsOf: "%3A".unicodeScalars)
            case "," where property: result.append(contentsOf: "%2C".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Text as a Markdown table cell that GitHub renders as that text, never as markup: control characters (CR,
    /// LF, ESC, bidi overrides) written as escapes (`\n`), then every character Markdown or HTML reads as syntax here
    /// as an HTML entity: `&`, `<`, `>` (no tag, no comment), the backtick (no code span to break out of), `|` (no
    /// new cell; `\|` would not do: a backslash before it escapes the backslash), `[`, `]` (no link), `\`.
    static func cell(_ text: String) -> String {
        var result = ""
        for scalar in text.escapingControlCharacters().unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "`": result += "&#96;"
            case "|": result += "&#124;"
            case "[": result += "&#91;"
            case "]": result += "&#93;"
            case "\\": result += "&#92;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
