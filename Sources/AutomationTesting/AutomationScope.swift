import AutomationSupport

/// What one test launched and built, torn down when the test ends: programs are stopped (with everything
/// they started), servers stopped, scratch state cleared, released objects let go. Also keeps the step trail
/// for failure messages.
///
/// AutomationTesting opens a scope per test (XCTest: `AutomationTestCase`; Swift Testing: the
/// `.automationScope` trait); ``SUTApplication`` and ``MockServerBuilder`` register with the current one.
public final class AutomationScope: Sendable {
    private struct State {
        var applications: [SUTApplication] = []
        var servers: [MockServer] = []
        var cleanups: [@Sendable () -> Void] = []
        var steps: [String] = []
        var scratch: [String: any Sendable] = [:]
        var tornDown = false
    }
    private let state = Locked(State())

    /// The scope of the running test: the task's, else the one an XCTest case opened.
    public static var current: AutomationScope? { taskScope ?? caseScope.current }

    /// The scope of the running Swift Testing test (set by the `.automationScope` trait).
    @TaskLocal public static var taskScope: AutomationScope?
    /// XCTest runs one test at a time and has no task to carry a task-local: its scope is set here.
    private static let caseScope = Locked<AutomationScope?>(nil)

    /// Makes `scope` current outside any task (XCTest's setUp); nil clears it (tearDown).
    public static func setCaseScope(_ scope: AutomationScope?) { caseScope.withLock { $0 = scope } }

    /// The test's name, which seeds its mock data unless the test sets `Mocks.seed`.
    public let name: String
    /// This test's mock-data generator.
    let mocks: Locked<Mocks.State>

    /// A scope named after its test (the name goes into failure messages and scratch directories).
    public init(name: String = "") {
        self.name = name
        mocks = Locked(Mocks.State(seed: Mocks.seed(forTestNamed: name.isEmpty ? "\(UInt64.random(in: 1...999_999))" : name)))
    }

    /// Tracks a program so the scope stops it at teardown (SUTApplication does this itself).
    public func register(_ application: SUTApplication) { state.withLock { $0.applications.append(application) } }
    /// Tracks a mock server so the scope stops and verifies it at teardown.
    public func register(_ server: MockServer) { state.withLock { $0.servers.append(server) } }
    /// Runs `cleanup` at teardown (last registered first).
    public func addTeardown(_ cleanup: @escaping @Sendable () -> Void) { state.withLock { $0.cleanups.append(cleanup) } }

    /// The launched applications, in launch order (for failure messages).
    public var applications: [SUTApplication] { state.withLock { $0.applications } }

    /// Records a step ("Given the user is logged in") for failure messages.
    public func record(step: String) { state.withLock { $0.steps.append(step) } }
    /// The `given`/`when`/`then` steps run so far, oldest first.
    public var steps: [String] { state.withLock { $0.steps } }

    /// Per-test values, cleared at teardown.
    public subscript<Value: Sendable>(scratch key: String, as type: Value.Type = Value.self) -> Value? {
        get { state.withLock { $0.scratch[key] as? Value } }
        set { state.withLock { $0.scratch[key] = newValue } }
    }

    /// The step trail and every program's last output lines: what a failure message carries.
    public var failureContext: String {
        var text = ""
        let steps = self.steps
        if !steps.isEmpty { text += "Steps:\n" + steps.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        for application in applications { text += "\(application.executable):\n" + application.lastLines() }
        return text
    }

    /// Stops everything the test started. Safe to call twice.
    /// - Returns: what fails the test: the unexpected requests of every strict server (with near misses).
    @discardableResult
    public func tearDown() -> [String] {
        let (applications, servers, cleanups) = state.withLock { state -> ([SUTApplication], [MockServer], [@Sendable () -> Void]) in
            guard !state.tornDown else { return ([], [], []) }
            state.tornDown = true
            defer {
                state.applications = []
                state.servers = []
                state.cleanups = []
                state.scratch = [:]
            }
            return (state.applications, state.servers, state.cleanups)
        }
        for application in applications { application.terminate(grace: .seconds(1)) }
        // What the programs sent before they ended is read and answered before the servers stop and count.
        for server in servers {
            server.settle()
            server.stop()
        }
        for cleanup in cleanups.reversed() { cleanup() }
        return servers.filter(\.isStrict).compactMap { server in
            let unexpected = server.unexpectedRequestDescriptions
            guard !unexpected.isEmpty else { return nil }
            return "mock server \(server.url) received unexpected requests (use MockServerBuilder.lenient() to allow them):\n"
                + unexpected.joined(separator: "\n")
        }
    }
}
