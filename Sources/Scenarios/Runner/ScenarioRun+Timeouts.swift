import AutomationSupport
import ProcessEngine

/// The words every timeout message of a scenario uses, each naming what raises the limit: `--step-timeout` or a
/// step's `within` for waits, `--scenario-timeout` or the scenario's `@timeout=` tag for the whole scenario.
extension ScenarioRun {
    /// "the scenario's 60s timeout (raise it with --scenario-timeout or a @timeout= tag)", or, when a tag set it,
    /// "the scenario's 1s timeout (raise its @timeout=1s tag)".
    var scenarioTimeoutName: String { ScenarioRunner.timeoutName(pickle, timeout: timeout) }

    /// A wait's limit for messages: "2s (raise it with --step-timeout or `within` on the step)" when the step
    /// can say `within`, "2s (raise it with --step-timeout)" when it cannot (`I type`, a control message, a
    /// request count, a step file's), or "5s (the step's `within`)" inside a step that says `within`.
    func stepLimitName(_ limit: Duration) -> String {
        if stepTimeoutOverride != nil { return "\(Runner.format(limit)) (the step's `within`)" }
        return stepTakesWithin
            ? "\(Runner.format(limit)) (raise it with --step-timeout or `within` on the step)"
            : "\(Runner.format(limit)) (raise it with --step-timeout)"
    }

    /// The step timeout a wait gets without `within`: `--step-timeout`, or, when that is 0 (no step limit), what is
    /// left of the scenario's time.
    var defaultWait: Duration { options.stepTimeout == .zero ? max(deadline - .now, .zero) : options.stepTimeout }

    /// What a budget of ``waitBudget(asked:)`` waited, for messages: what cut it, else its limit named.
    func describe(_ budget: (limit: Duration, cut: String?)) -> String { budget.cut ?? stepLimitName(budget.limit) }

    /// How long a command step (`When I run`) may take: the rest of the scenario's time, or the step's `within`
    /// (itself cut by the scenario's deadline). A command runs to its end; the step timeout is for waits on output.
    func commandBudget() -> (limit: Duration, cut: String?) {
        if stepTimeoutOverride != nil { return waitBudget() }
        return (max(deadline - .now, .zero), scenarioTimeoutName)
    }
}

extension ScenarioRunner {
    /// A deadline no run reaches (a billion seconds, the longest duration written): what a timeout of 0 stands for.
    static let noTimeout = Duration.seconds(Int64(DurationParser.maxSeconds))

    /// The scenario's time limit: `--scenario-timeout`, or its `@timeout=` tag; 0 in either is no timeout (as the
    /// launcher's `--timeout 0`: one meaning of 0 for every duration option, r5c finding 10), ``noTimeout``.
    static func scenarioTimeout(_ pickle: Pickle, options: ScenarioOptions) -> Duration {
        var timeout = options.scenarioTimeout
        for tag in pickle.tags where tag.hasPrefix("@timeout=") {
            if let value = DurationParser.parse(String(tag.dropFirst("@timeout=".count))) { timeout = value }
        }
        return timeout == .zero ? noTimeout : timeout
    }

    /// The scenario's timeout with what raises it (``ScenarioRun/scenarioTimeoutName``).
    static func timeoutName(_ pickle: Pickle, timeout: Duration) -> String {
        let tag = pickle.tags.last { $0.hasPrefix("@timeout=") && DurationParser.parse(String($0.dropFirst("@timeout=".count))) != nil }
        let raise = tag.map { "raise its \($0) tag" } ?? "raise it with --scenario-timeout or a @timeout= tag"
        return "the scenario's \(Runner.format(timeout)) timeout (\(raise))"
    }
}
