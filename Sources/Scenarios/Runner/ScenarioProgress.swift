import AutomationSupport

/// How far a running scenario got, step by step: what an interrupted `sut-launch test` reports for a scenario that
/// did not finish. The runner records each step as it starts and ends (``ScenarioRunner/runSteps(_:in:options:progress:failure:)``);
/// ``freeze(at:)`` cuts the record at the signal, so a step that ends later (its program stopped by the
/// interruption) changes nothing the reports say.
package final class ScenarioProgress: Sendable {
    /// The scenario.
    package let pickle: Pickle
    /// When it started, on the wall clock (Cucumber Messages' timestamps).
    package let startedAtMs: Double
    /// The failed attempts before this one (`--retries`), oldest first.
    package let earlierAttempts: [ScenarioResult]
    /// How many attempts the scenario may have in all (1: no retries).
    package let attemptsAllowed: Int
    /// `@quarantine` or `--quarantine`: an interrupted result says so too.
    let quarantined: Bool
    /// Which attempt this is, from 1.
    package var attempt: Int { earlierAttempts.count + 1 }
    private let started: ContinuousClock.Instant

    private struct State {
        /// The finished steps' marks (✓, ✗, -) and durations, in order.
        var marks: [Character] = []
        var durations: [Duration] = []
        /// The step running now (its index) and since when.
        var current: (index: Int, since: ContinuousClock.Instant)?
        /// The first step that did not pass (nil index: the scenario as a whole) and why.
        var failure: (index: Int?, failure: StepFailure)?
        /// Every step ran: the scenario is being torn down (mock server checks, artefacts).
        var stepsDone = false
        /// The instant ``freeze(at:)`` cut the record; nil while it is live.
        var frozenAt: ContinuousClock.Instant?
    }
    private let state = Locked(State())

    /// A scenario (or its retry, after `earlierAttempts` failed) starting now.
    package init(_ pickle: Pickle, earlierAttempts: [ScenarioResult] = [], of attemptsAllowed: Int = 1, quarantined: Bool = false) {
        self.pickle = pickle
        self.earlierAttempts = earlierAttempts
        self.attemptsAllowed = attemptsAllowed
        self.quarantined = quarantined
        startedAtMs = WallClock.milliseconds()
        started = .now
    }

    func stepStarted(_ index: Int) {
        state.withLock { state in
            guard state.frozenAt == nil else { return }
            state.current = (index, .now)
        }
    }

    /// The step at `index` ended with `mark` after `duration`; `failure` when it is the one that failed the scenario.
    func stepFinished(_ index: Int, mark: Character, duration: Duration, failure: StepFailure?) {
        state.withLock { state in
            guard state.frozenAt == nil, index == state.marks.count else { return }
            state.marks.append(mark)
            state.durations.append(duration)
            state.current = nil
            if let failure, state.failure == nil { state.failure = (index, failure) }
        }
    }

    /// The scenario failed as a whole before its steps ran (a preflight problem): they are all skipped.
    func failedBeforeSteps(_ failure: StepFailure) {
        state.withLock { state in
            if state.frozenAt == nil, state.failure == nil { state.failure = (nil, failure) }
        }
    }

    /// Every step ran: what is left is the tear-down, then the runner reports the scenario's own result.
    func stepsFinished() {
        state.withLock { state in
            if state.frozenAt == nil { state.stepsDone = true }
        }
    }

    /// Cuts the record at `instant`: later steps are ignored.
    /// - Returns: true when every step had already run (the runner is about to report the scenario's own result).
    @discardableResult
    package func freeze(at instant: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            if state.frozenAt == nil { state.frozenAt = instant }
            return state.stepsDone
        }
    }

    /// The scenario as the record stood when frozen (now, if it was not): the finished steps with their marks and
    /// durations; the step that ran at that instant (or was next) failed, saying `interruption`, the rest skipped. A
    /// scenario that had already failed keeps its failure, and says it was interrupted after it.
    package func interruptedResult(_ interruption: String) -> ScenarioResult {
        let (recorded, at) = state.withLock { state in (state, state.frozenAt ?? .now) }
        let steps = pickle.steps
        var marks = recorded.marks
        var durations = recorded.durations
        var failedIndex = recorded.failure?.index
        var failure = recorded.failure?.failure
        if failure == nil, marks.count < steps.count {
            // The step running at the signal, or the one about to start, is the one the signal stopped.
            let since = recorded.current.map { $0.index == marks.count ? $0.since : at } ?? at
            marks.append("✗")
            durations.append(at < since ? .zero : at - since)
            failedIndex = marks.count - 1
            failure = StepFailure(interruption, kind: .error)
        } else if var stopped = failure {
            stopped.message += "\n(then \(interruption))"
            failure = stopped
        } else {
            failure = StepFailure("\(interruption) after its last step, while the scenario was torn down", kind: .error)
        }
        while marks.count < steps.count {
            marks.append("-")
            durations.append(.zero)
        }
        var result = ScenarioResult(
            pickle: pickle, status: failure?.kind == .failure ? .failed : .error, duration: at - started,
            trail: zip(marks, steps).map { "\($0) \($1.keyword)\($1.text)" }, outputTail: "", unexpectedRequests: [])
        result.stepDurations = durations
        result.startedAtMs = startedAtMs
        result.earlierAttempts = earlierAttempts
        result.quarantined = quarantined
        result.message = failure?.message
        result.failedStep = failedIndex.map { "\(pickle.uri):\(steps[$0].line): \(steps[$0].keyword)\(steps[$0].text)" } ?? pickle.location
        return result
    }
}
