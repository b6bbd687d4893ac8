public import AutomationHost
public import MockServer
public import ProcessEngine

/// A step written in Swift: a Cucumber Expression (`a user {string} exists`; `{string}`, `{int}`, `{float}`,
/// `{word}`, `{}`, optional text, alternatives: ``CucumberExpression``) and what it does. AutomationTesting's `StepLibrary` builds these from typed closures.
package struct CodeStep: Sendable {
    /// The step's Cucumber Expression.
    package let pattern: String
    /// Where it was defined (`LoginSteps.swift:12`), for clash and failure messages.
    package let source: String
    /// What the step does: the context and the expression's captures as text.
    package let body: @Sendable (StepContext, [String]) throws -> Void

    /// A step matching `pattern`, defined at `source`, doing `body`.
    package init(pattern: String, source: String, body: @escaping @Sendable (StepContext, [String]) throws -> Void) {
        self.pattern = pattern
        self.source = source
        self.body = body
    }
}

extension ScenarioOptions {
    /// Adds steps written in Swift. Returns the problems (a pattern that does not compile, or that clashes with
    /// another step or a built-in one, naming both); the steps without a problem are added.
    package mutating func addSteps(_ steps: [CodeStep]) -> [String] {
        var problems: [String] = []
        for step in steps {
            var userStep: UserStep
            do {
                userStep = try UserStep(pattern: step.pattern, run: [], source: step.source, directory: "")
            } catch {
                problems.append("\(step.source): step \"\(CucumberExpression.abbreviated(step.pattern))\", \(error)")
                continue
            }
            userStep.code = step.body
            if let problem = UserSteps.clash(userStep, among: userSteps) {
                problems.append(problem)
                continue
            }
            userSteps.append(userStep)
        }
        return problems
    }
}

/// What a step written in Swift sees of its scenario: its directory, the program's output, the mock server,
/// the step's doc string or table, and the flags and environment of the next launch.
public final class StepContext {
    let run: ScenarioRun
    let step: GherkinDocument.Step
    /// In an After hook: how the scenario went (`passed`, `failed`, `timed-out`, `interrupted`); nil in a step.
    public let scenarioStatus: String?

    init(run: ScenarioRun, step: GherkinDocument.Step, status: String? = nil) {
        self.run = run
        self.step = step
        self.scenarioStatus = status
    }

    /// The scenario's name.
    public var scenarioName: String { run.pickle.name }

    /// The scenario's own directory (the program's working directory).
    public var directory: String { run.workDirectory }
    /// The step's doc string, if it has one.
    public var docString: String? { step.docString?.content }
    /// The step's data table rows, if it has one.
    public var table: [[String]]? { step.dataTable?.rows }
    /// What the program launched last printed so far.
    /// - Throws: a step failure naming the cap when the stream is longer than the 16 MiB a step can hold as text.
    public func output(_ stream: StandardStream = .stdout) throws -> String {
        guard let process = run.process else { return "" }
        guard !process.output.isCaptureCut(stream) else {
            throw StepFailure(
                "the \(stream.rawValue) is \(process.output.byteCount(stream)) bytes; a step reads at most \(ByteSize.text(process.output.captureLimit)) of it as text"
            )
        }
        return String(decoding: process.output.captured(stream), as: UTF8.self)
    }
    /// The scenario's mock server (it starts with the scenario's first launch when the scenario has stubs).
    public var server: MockServer? { run.server }
    /// `${NAME}` replaced from `--define`, the environment and the scenario's variables.
    public func expand(_ text: String) -> String { run.expand(text) }
    /// A feature flag for the launches that follow.
    public func setFeatureFlag(_ key: String, _ value: FlagValue) { run.featureFlags[key] = value }
    /// An automation flag for the launches that follow.
    public func setAutomationFlag(_ key: String, _ value: FlagValue) { run.automationFlags[key] = value }
    /// An environment variable for the launches that follow.
    public func setEnvironment(_ name: String, _ value: String) { run.environment.append((name, value)) }
    /// Fails the step with `message` (what a thrown error does too).
    public func fail(_ message: String) throws -> Never { throw StepFailure(message) }
}
