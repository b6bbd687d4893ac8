import AutomationSupport

/// What stands at a report's name while the run that writes it is under way. A run replaces each report it was asked
/// for by one of these before anything runs, and that by the real report (a rename) when it ends: a run killed with
/// SIGKILL (a CI job cancelled, the OOM killer) leaves a file that says the run did not finish, never an earlier run's
/// verdict under its name (C11: the previous run's JUnit `failures="0"`, JSON `exitCode 0` and empty rerun file stayed,
/// whole and green). Each form reads as "not passed" to the tools that read that format; `--rerun-failed`, `report` and
/// every reader of ours refuse it by name (``isPlaceholder(_:)``). See docs/reports.md, "A run that did not finish".
package enum ReportPlaceholder {
    /// The formats a report is written in.
    package enum Format: Sendable {
        /// JUnit XML: one test case `the run did not finish`, with an `<error>`.
        case junit
        /// A JSON object with `"finished": false` and no `exitCode` (the run's `--report`, the launcher's, `--journal`).
        case json
        /// Cucumber Messages: `meta`, `testRunStarted`, then `testRunFinished` with `success: false` and the marker as message.
        case messages
        /// A page that says so.
        case html
        /// Cucumber's rerun format: `#` lines only, which `--rerun-failed` refuses (Cucumber reads them as paths).
        case rerun
        /// The rerun placeholder over the file the run reads with `--rerun-failed` (Cucumber's `--rerun-failed rr.txt
        /// --write-rerun rr.txt`): the `#` lines, ``keptMarker``, then the locations that file listed, so a run killed
        /// before its end does not lose the list; `--rerun-failed` reads them (``keepsRerunList(_:)``).
        case rerunKeeping([String])
    }

    /// The sentence every placeholder carries near its start; what ``isPlaceholder(_:)`` looks for.
    package static let marker = "sut-launch: the run that writes this report did not finish"

    /// The line a rerun placeholder that keeps the list it replaced has after its first two.
    package static let keptMarker =
        "sut-launch: kept from the file this placeholder replaced (the run was rerunning it): the scenarios it listed"

    /// How far into a file the marker is looked for: every placeholder has it in its first few hundred bytes.
    static let window = 1024

    /// Whether `bytes` is a placeholder (the marker within the file's first ``window`` bytes).
    package static func isPlaceholder(_ bytes: [UInt8]) -> Bool { contains(marker, in: bytes.prefix(window)) }

    /// Whether `bytes`, a placeholder, keeps the rerun list it replaced (``Format/rerunKeeping(_:)``): its locations
    /// are then read as the list, the `#` lines skipped.
    package static func keepsRerunList(_ bytes: [UInt8]) -> Bool {
        isPlaceholder(bytes) && contains("# " + keptMarker + "\n", in: bytes.prefix(2 * window))
    }

    private static func contains(_ text: String, in head: ArraySlice<UInt8>) -> Bool {
        let needle = Array(text.utf8)
        guard head.count >= needle.count else { return false }
        for start in head.startIndex...(head.endIndex - needle.count) where head[start] == needle[0] {
            if head[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Why a placeholder is refused where an earlier run's report is read (`--rerun-failed`, `report`).
    package static let reason =
        "the placeholder a run writes at its start, not a report: the run that was to write it did not finish (killed, or "
        + "still running); run the tests again to have a report"

    /// The text after the marker: when the run started, its pid, and what a placeholder left in place means.
    static func detail(startedAtMs: Double, pid: Int32) -> String {
        "; the run started at \(WallClock.iso8601(milliseconds: startedAtMs)) (pid \(pid)) and replaces this file when it "
            + "ends; if it is still here, that run was killed (SIGKILL, a CI job cancelled, out of memory) before it could "
            + "write its report, and nothing it says has passed"
    }

    /// The placeholder in `format`.
    package static func render(_ format: Format, startedAtMs: Double = WallClock.milliseconds(), pid given: Int32? = nil) -> [UInt8] {
        let pid = given ?? PrivateDirectory.processID
        let text = marker + detail(startedAtMs: startedAtMs, pid: pid)
        let stamp = WallClock.iso8601(milliseconds: startedAtMs)
        let seconds = Int64((startedAtMs / 1000).rounded(.down))
        let nanos = Int64((startedAtMs - Double(seconds) * 1000) * 1_000_000)
        let timestamp = "{\"seconds\":\(seconds),\"nanos\":\(max(0, min(nanos, 999_999_999)))}"
        switch format {
        case .junit:
            return Array(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- \(marker) -->\n"
                    + "<testsuites name=\"sut-launch\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0\">\n"
                    + "  <testsuite name=\"sut-launch\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0\" timestamp=\"\(stamp)\">\n"
                    + "    <testcase classname=\"sut-launch\" name=\"the run did not finish\" time=\"0\">\n"
                    + "      <error type=\"RunDidNotFinish\" message=\"\(text)\">\(text)</error>\n"
                    + "    </testcase>\n  </testsuite>\n</testsuites>\n").utf8)
        case .json:
            return Array(
                ("{\"finished\":false,\"placeholder\":" + JSONWriter.quoted(marker) + ",\"error\":" + JSONWriter.quoted(text)
                    + ",\"startedAt\":\"\(stamp)\",\"pid\":\(pid)}\n").utf8)
        case .messages:
            return Array(
                (#"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"sut-launch"},"runtime":{"name":"swift"},"os":{"name":"linux"},"cpu":{"name":"x86_64"}}}"#
                    + "\n{\"testRunStarted\":{\"timestamp\":\(timestamp)}}\n"
                    + "{\"testRunFinished\":{\"success\":false,\"message\":" + JSONWriter.quoted(text) + ",\"timestamp\":\(timestamp)}}\n")
                    .utf8)
        case .html:
            return Array(
                ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sut-launch: the run did not finish</title>"
                    + "</head>\n<body><h1>\(marker)</h1>\n<p>\(text)</p></body></html>\n").utf8)
        case .rerun:
            return Array(("# \(marker)\n# " + text.dropFirst(marker.count + 2) + "\n").utf8)
        case .rerunKeeping(let locations):
            return render(.rerun, startedAtMs: startedAtMs, pid: pid)
                + Array(("# \(keptMarker)\n" + locations.map { $0 + "\n" }.joined()).utf8)
        }
    }

    /// Puts the placeholder at each output (its directory pinned already) that is a file or missing; a device or FIFO
    /// (`/dev/stdout`) is left alone. Returns the first that could not be written, as `OPTION PATH: reason`.
    package static func write(_ outputs: [(option: String, path: String, format: Format)]) -> String? {
        let startedAtMs = WallClock.milliseconds()
        for output in outputs {
            if let problem = OutputFile.writePlaceholder(render(output.format, startedAtMs: startedAtMs), to: output.path) {
                return "\(output.option) \(output.path.escapingControlCharacters()): cannot replace it with the placeholder "
                    + "that says this run has not finished: \(problem)"
            }
        }
        return nil
    }
}
