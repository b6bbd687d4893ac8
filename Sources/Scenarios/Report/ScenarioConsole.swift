import AutomationSupport
import ProcessEngine

/// Progress and results: on a terminal, one live line per running scenario (all of them with `--jobs N`)
/// above which results scroll; in a log, a line for a scenario still running after 5 s, and plain lines.
package final class ScenarioConsole: Sendable {
    let quiet: Bool
    let isTerminal: Bool
    let total: Int
    /// Colour diffs (red for what was expected, green for what came).
    let colours: Bool
    /// A scenario running this long gets a line in a log (not on a terminal, whose live lines show it).
    static let slowNotice: Duration = .seconds(5)

    private struct State {
        var finished = 0
        var running: [(pickle: Pickle, since: ContinuousClock.Instant, noticed: Bool)] = []
        var liveLines = 0
        var done = false
    }
    private let state = Locked(State())

    /// - Parameter colour: `always`, `never`, or `auto` (nil): on a terminal, unless `NO_COLOR` is set or
    ///   `TERM` is `dumb`, which also turn the live progress lines off.
    package init(quiet: Bool, total: Int, environment: [String: String], colour: String? = nil) {
        self.quiet = quiet
        self.total = total
        let plain = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        self.isTerminal = StandardDescriptors.isTerminal(1) && !plain
        switch colour {
        case "always": colours = true
        case "never": colours = false
        default: colours = isTerminal
        }
        if !isTerminal && !quiet {
            let state = self.state
            startThread {
                while true {
                    try? sleepFor(.milliseconds(250))
                    let done = state.withLock { state -> Bool in
                        for index in state.running.indices
                        where !state.running[index].noticed
                            && ContinuousClock.now - state.running[index].since >= Self.slowNotice
                        {
                            state.running[index].noticed = true
                            let pickle = state.running[index].pickle
                            Console.out(
                                "… still running after \(Runner.format(Self.slowNotice)): \(Self.title(pickle)) (\(pickle.location.escapingControlCharacters()))\n"
                            )
                        }
                        return state.done
                    }
                    if done { return }
                }
            }
        }
    }

    package func started(_ pickle: Pickle) {
        state.withLock { state in
            state.running.removeAll { $0.pickle == pickle } // a retry's attempt replaces the one that failed
            state.running.append((pickle, .now, false))
            redraw(&state)
        }
    }

    /// A failed attempt that runs again (`--retries`): one line saying why, before the next attempt's live line.
    package func retrying(_ progress: ScenarioProgress) {
        guard let failed = progress.earlierAttempts.last else { return }
        let why = (failed.message ?? "failed").split(separator: "\n").first.map(String.init) ?? "failed"
        let text =
            "↻ \(Self.title(progress.pickle)): attempt \(progress.earlierAttempts.count) of \(progress.attemptsAllowed) failed ("
            + why.prefix(200).escapingControlCharacters() + "); running it again from scratch\n"
        state.withLock { state in
            clearLive(&state)
            Console.out(text)
            redraw(&state)
        }
    }

    package func finished(_ result: ScenarioResult) {
        let mark = result.shownStatus == .passed ? "✓" : result.failsTheRun ? "✗" : "◌"
        var notes = result.timedOut ? ", timed out" : ""
        if result.flaky { notes += ", flaky: passed on attempt \(result.earlierAttempts.count + 1)" }
        if result.flakyFailsTheRun { notes += ", which fails the run (--fail-on-flaky)" }
        if result.status != .passed, !result.earlierAttempts.isEmpty {
            notes += ", all \(result.earlierAttempts.count + 1) attempts failed"
        }
        if result.quarantined { notes += ", quarantined" }
        var text = "\(mark) \(Self.title(result.pickle)) (\(Runner.format(result.duration))\(notes))\n"
        if result.flaky, !quiet {
            for (index, attempt) in result.earlierAttempts.enumerated() {
                let why = (attempt.failedStep ?? "") + ": " + ((attempt.message ?? "").split(separator: "\n").first.map(String.init) ?? "")
                text += "    attempt \(index + 1) failed: " + why.prefix(300).escapingControlCharacters() + "\n"
            }
        }
        if result.status != .passed {
            // Program output and step text are quoted here: an ESC from them could retitle the terminal or erase the
            // failure, a lone CR draw a ✓ over this line.
            // The feature file's path too: a LF in its name would start a line of its own.
            var shown = result
            shown.pickle.uri = result.pickle.uri.escapingControlCharacters()
            shown.failedStep = result.failedStep?.escapingControlCharacters()
            let details = JUnitReport.systemOut(shown).splitLines(.lf).map { line -> String in
                let detail = line.escapingControlCharacters(keepingTabs: true)
                guard colours, !detail.hasPrefix("---"), !detail.hasPrefix("+++") else { return "    " + detail }
                if detail.hasPrefix("-") { return "    \u{1B}[31m" + detail + "\u{1B}[0m" }
                if detail.hasPrefix("+") { return "    \u{1B}[32m" + detail + "\u{1B}[0m" }
                return "    " + detail
            }
            text += details.joined(separator: "\n") + "\n"
        } else if quiet {
            text = ""
        }
        state.withLock { state in
            state.finished += 1
            state.running.removeAll { $0.pickle == result.pickle }
            clearLive(&state)
            Console.out(text)
            redraw(&state)
        }
    }

    /// Ends the progress display (before the summary).
    package func close() {
        state.withLock { state in
            state.done = true
            clearLive(&state)
        }
    }

    /// Moves up over the live lines and clears them.
    private func clearLive(_ state: inout State) {
        guard state.liveLines > 0 else { return }
        Console.out("\u{1B}[\(state.liveLines)A\u{1B}[J")
        state.liveLines = 0
    }

    /// One line per running scenario, below what has scrolled.
    private func redraw(_ state: inout State) {
        guard isTerminal, !quiet, !state.done else { return }
        clearLive(&state)
        let lines = state.running.map { "[\(state.finished)/\(total)] \(Self.title($0.pickle))" }
        guard !lines.isEmpty else { return }
        // Each line shorter than the terminal, so none wraps and the count of lines to redraw stays right.
        let width = max(20, StandardDescriptors.terminalColumns(1) - 1)
        Console.out(lines.map { String($0.prefix(width)) + "\n" }.joined())
        state.liveLines = lines.count
    }

    package func summary(_ results: [ScenarioResult], seconds: Double, skipped: Int) {
        var line = "\(results.count) scenario\(results.count == 1 ? "" : "s"): " + Self.counts(results)
        if skipped > 0 { line += " (\(skipped) not selected)" }
        line += " in \(Runner.format(.milliseconds(Int(seconds * 1000))))\n"
        write(line)
    }

    /// `1 passed, 1 failed, 1 quarantined (1 of them failed)`: the summary's counts, which `report` prints too.
    package static func counts(_ results: [ScenarioResult]) -> String {
        let counts = ScenarioCounts(results) // as the JSON report counts them
        var line = "\(counts.passed) passed"
        if counts.failed > 0 { line += ", \(counts.failed) failed" }
        if counts.errors > 0 { line += ", \(counts.errors) could not run" }
        if counts.flaky > 0 { line += ", \(counts.flaky) flaky" }
        if counts.quarantined > 0 { line += ", \(counts.quarantined) quarantined (\(counts.quarantinedFailed) of them failed)" }
        if counts.notRun > 0 { line += ", \(counts.notRun) not run" }
        return line
    }

    private func write(_ text: String) { Console.out(text) }

    /// `Feature: Scenario`, as a line of the console: names come from feature files, control characters escaped.
    private static func title(_ pickle: Pickle) -> String {
        "\(pickle.featureName): \(pickle.name)".escapingControlCharacters()
    }
}
