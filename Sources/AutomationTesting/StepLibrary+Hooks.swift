import AutomationSupport
import ProcessEngine
public import Scenarios

/// Hooks written in Swift: `Before` and `After` around each scenario (optionally only for scenarios whose tags match
/// `tags`, lower `order` first; After hooks in reverse), `BeforeAll` and `AfterAll` around ``StepLibrary/runAll(in:program:options:fileID:filePath:line:column:)``.
/// Each has a deadline (`timeout`, default 30 s, at most 1 h): a hook still running then fails its scenario (a
/// closure cannot be stopped; it is left to finish). A hook that throws fails its scenario, naming the hook's file and line.
///
/// ```swift
/// steps.before(tags: "@db") { context in try context.setEnvironment("DB", "fresh") }
/// steps.after { context in if context.scenarioStatus != "passed" { print("failed:", context.scenarioName) } }
/// ```
extension StepLibrary {
    /// Runs before each scenario (whose tags match `tags`, a tag expression), in `order`.
    public func before(
        tags: String? = nil, order: Int = 0, timeout: Duration = .seconds(30), fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext) throws -> Void
    ) {
        addHook(.before, tags: tags, order: order, timeout: timeout, source: "\(fileID):\(line)") { context, _ in
            if let context { try body(context) }
        }
    }

    /// Runs after each scenario (whose tags match `tags`), whether it passed, failed or timed out: `context.scenarioStatus`
    /// says which.
    public func after(
        tags: String? = nil, order: Int = 0, timeout: Duration = .seconds(30), fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext) throws -> Void
    ) {
        addHook(.after, tags: tags, order: order, timeout: timeout, source: "\(fileID):\(line)") { context, _ in
            if let context { try body(context) }
        }
    }

    /// Runs once before the scenarios of ``runAll(in:program:options:fileID:filePath:line:column:)``; a failure runs none of them.
    public func beforeAll(
        order: Int = 0, timeout: Duration = .seconds(30), fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Void
    ) {
        addHook(.beforeAll, tags: nil, order: order, timeout: timeout, source: "\(fileID):\(line)") { _, _ in try body() }
    }

    /// Runs once after the scenarios of ``runAll(in:program:options:fileID:filePath:line:column:)``, with the run's
    /// status (`passed` or `failed`).
    public func afterAll(
        order: Int = 0, timeout: Duration = .seconds(30), fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (String) throws -> Void
    ) {
        addHook(.afterAll, tags: nil, order: order, timeout: timeout, source: "\(fileID):\(line)") { _, status in try body(status) }
    }

    private func addHook(
        _ kind: Hook.Kind, tags: String?, order: Int, timeout: Duration, source: String,
        _ code: @escaping @Sendable (StepContext?, String) throws -> Void
    ) {
        do {
            let hook = try Hook(kind: kind, tags: tags, order: order, timeout: timeout, source: source, code: code)
            hooks.withLock { $0.hooks.append(hook) }
        } catch {
            hooks.withLock { $0.problems.append(error.message) }
        }
    }

    /// The BeforeAll or AfterAll hooks, on a thread of their own; their failures.
    func runTestRunHooks(_ kind: Hook.Kind, options: ScenarioOptions, status: String) async -> [String] {
        var configured = options
        configured.hooks = hooks.current.hooks
        if configured.environment.isEmpty { configured.environment = ProcessEnvironment.current }
        guard configured.hooks.contains(where: { $0.kind == kind }) else { return [] }
        let ready = configured
        return await withCheckedContinuation { continuation in
            startThread { continuation.resume(returning: ScenarioRunner.runTestRunHooks(kind, options: ready, status: status)) }
        }
    }
}
