import AutomationSupport

/// A test case's outcome elements, as Maven Surefire writes reruns (`surefire-test-report-3.0.xsd`), which Jenkins'
/// and GitLab's JUnit readers take: a flaky scenario (failed, then passed on a retry) passes with one `<flakyFailure>`
/// per failed attempt; a scenario whose every attempt failed has the first as `<failure>` and the others as
/// `<rerunFailure>`; a quarantined one is `<skipped>` whose message says how it ended. Each attempt element holds
/// `<stackTrace>` (the failed step and why), `<system-out>` (its step trail) and `<system-err>` (the program's output).
extension JUnitReport {
    /// The elements between `<testcase>` and its `<system-out>`, in the schema's order.
    static func outcome(_ result: ScenarioResult) -> String {
        if result.status == .notRun {
            return "      <skipped message=\"\(escape(result.message ?? "not run", inAttribute: true))\"/>\n"
        }
        if result.quarantined, !result.failsTheRun {
            let how = result.status == .passed ? (result.flaky ? "passed on a retry" : "passed") : "failed: " + firstLine(result.message)
            return "      <skipped message=\"\(attribute("quarantined: " + how))\"/>\n"
        }
        if result.status == .passed {
            // --fail-on-flaky: the flaky pass failed the run, so it is a <failure> (which `--rerun-failed` reads).
            let failure =
                result.flakyFailsTheRun
                ? "      <failure message=\"flaky: passed only on a retry (--fail-on-flaky)\" type=\"Flaky\"/>\n" : ""
            return failure + result.earlierAttempts.map { attempt($0, element: "flakyFailure") }.joined()
        }
        var xml = ""
        if result.status == .error {
            // Retried attempts failed, the last could not run (interrupted): they precede it, as the schema orders.
            xml += result.earlierAttempts.map { attempt($0, element: "rerunFailure") }.joined()
            return xml + problem(result, element: "error")
        }
        let attempts = result.earlierAttempts + [result]
        xml += problem(attempts[0], element: "failure")
        xml += attempts.dropFirst().map { attempt($0, element: "rerunFailure") }.joined()
        return xml
    }

    /// `<failure>` or `<error>`: the whole reason in the attribute, and in the body with the requests no route matched
    /// and the output tail.
    private static func problem(_ result: ScenarioResult, element: String) -> String {
        "      <\(element) message=\"\(attribute(result.message ?? ""))\" type=\"\(type(result))\">" + escape(cap(body(result)))
            + "</\(element)>\n"
    }

    /// One attempt that failed: Surefire's `flakyFailure`/`rerunFailure` with its stack trace, stdout and stderr.
    private static func attempt(_ result: ScenarioResult, element: String) -> String {
        var xml = "      <\(element) message=\"\(attribute(result.message ?? ""))\" type=\"\(type(result))\">\n"
        xml += "        <stackTrace>\(escape(cap(body(result))))</stackTrace>\n"
        xml += "        <system-out>\(escape(cap(systemOut(result))))</system-out>\n"
        xml += "        <system-err>\(escape(cap(result.outputTail)))</system-err>\n"
        return xml + "      </\(element)>\n"
    }

    /// Counted in `failures`: it failed the run and was not an error (a failure, or a flaky pass under
    /// `--fail-on-flaky`).
    static func isFailure(_ result: ScenarioResult) -> Bool {
        result.failsTheRun && (result.status == .failed || result.flakyFailsTheRun)
    }

    /// Counted in `failures` or `errors`: what a JUnit reader shows red.
    static func isRed(_ result: ScenarioResult) -> Bool { isFailure(result) || (result.failsTheRun && result.status == .error) }

    private static func type(_ result: ScenarioResult) -> String {
        result.status == .error ? "ScenarioError" : result.timedOut ? "Timeout" : "AssertionFailure"
    }

    private static func body(_ result: ScenarioResult) -> String {
        var body = (result.failedStep ?? "") + "\n" + (result.message ?? "")
        if !result.unexpectedRequests.isEmpty {
            body += "\n\nUnexpected requests:\n" + result.unexpectedRequests.joined(separator: "\n")
        }
        if !result.outputTail.isEmpty { body += "\n\n" + result.outputTail }
        return body
    }

    /// An attribute value: TAB, LF and CR kept as character references (a parser would fold them into spaces).
    private static func attribute(_ text: String) -> String {
        escape(cap(text), inAttribute: true)
    }

    private static func firstLine(_ text: String?) -> String {
        String((text ?? "").prefix { $0 != "\n" })
    }
}
