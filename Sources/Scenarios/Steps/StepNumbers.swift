import AutomationSupport

/// The whole numbers steps take, each read by ``BoundedNumber`` in the range written here and printed by
/// `sut-launch help steps`. A step's number is checked when its feature file loads (`check`, `test`, and
/// again before a scenario runs from the Swift API): out of range or not a number is an error naming the
/// file and line, never a default. Durations are read by ``DurationParser`` (0 to a billion seconds).
package enum StepNumbers {
    /// `Then the exit code is N`: what a process can exit with (128+N for a program killed by signal N).
    static let exitCode = 0...255
    /// `Given the program runs in a terminal of COLUMNSxROWS`.
    static let terminalSize = 1...1_000
    /// `Then the server received N requests to …` (the journal holds 10,000 by default: a count past what it
    /// kept fails naming the cap).
    static let requestCount = 0...1_000_000
    /// `Given the route "GET /x" answers N`: a final answer, as a stub's status (a 1xx is interim).
    static let status = 200...599

    /// A step's number as its pattern captures it: any word, so `1e300`, `-1`, `0x10` and `NaN` reach the check
    /// and get a message (a pattern of digits would leave them an undefined step).
    static let capture = #"(\S+)"#

    /// `the exit code '1e300' is not a whole number from 0 to 255 (bare digits: …)`, or nil when `text` is one: the
    /// command line's rule and words (``BoundedNumber/requireWritten(_:in:)``), so `-0` and `00` are refused alike.
    static func problem(_ text: String, _ what: String, in range: ClosedRange<Int>) -> String? {
        do throws(NumberError) {
            _ = try BoundedNumber.requireWritten(text, in: range)
            return nil
        } catch {
            return "\(what) \(error)"
        }
    }

    /// The number a step runs with. Checked at load, so this throws only when a caller skipped the checks.
    static func integer(_ text: String, _ what: String, in range: ClosedRange<Int>) throws(StepFailure) -> Int {
        guard let value = BoundedNumber.written(text, in: range) else {
            throw StepFailure(problem(text, what, in: range) ?? "\(what) '\(text.prefix(40))' is out of range", kind: .error)
        }
        return value
    }

    /// The rules for numbers and command lines in steps (`sut-launch help steps`).
    package static let rules = """
        NUMBERS IN STEPS:
          Whole numbers are decimal digits (no sign, leading zero, spaces, _, exponent or hex). One out of its range, or not a
          number, is an error naming the file and line when the file loads (check and test exit 3), never a default:
            exit code 0 to 255 (128+N after signal N), terminal COLUMNSxROWS 1 to 1000 each,
            request counts 0 to 1000000, route status 200 to 599.
          Durations (within, I wait, finishes within, @timeout=): 500ms, 30s, 2m, 1h, 1m30s, 1.5s; a bare number
          is seconds; 0 to 1000000000s. Signals are sent by name (INT, TERM, HUP, QUIT, USR1, USR2, KILL).

        COMMAND LINES IN STEPS (When I run, I launch the program with):
          Split into words as sh does ('…', "…", \\), with no expansion, globs, pipes, redirections or comments:
          # is an ordinary character anywhere, so "echo a #b" passes #b. sh -c '…' hands its text to sh, where
          a # that starts a word begins a comment: sh -c 'echo ##x; exit 1' prints an empty line and exits 0.

        """
}
