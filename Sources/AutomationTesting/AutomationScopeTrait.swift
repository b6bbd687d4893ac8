import ProcessEngine
import Scenarios
public import Testing

/// A Swift Testing trait that opens an ``AutomationScope`` around each test: what it launches and starts is
/// stopped when it ends, pass or fail.
///
/// ```swift
/// @Test(.automationScope) func login() async throws { ... }
/// @Suite(.automationScope) struct LoginTests { ... }
/// ```
public struct AutomationScopeTrait: TestTrait, SuiteTrait, TestScoping {
    /// On a suite, every test in it gets a scope of its own.
    public var isRecursive: Bool { true }

    /// Runs the test inside a fresh ``AutomationScope`` and reports what its teardown found.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil || !test.isSuite else { return try await function() }
        let scope = AutomationScope(name: "\(test.id)")
        defer {
            for problem in scope.tearDown() { Issue.record(Comment(rawValue: problem)) }
        }
        try await AutomationScope.$taskScope.withValue(scope) {
            try await function()
        }
    }
}

extension Trait where Self == AutomationScopeTrait {
    /// Stops programs and servers the test started when it ends.
    public static var automationScope: Self { AutomationScopeTrait() }
}
