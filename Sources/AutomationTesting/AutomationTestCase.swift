import ProcessEngine
import Scenarios
public import XCTest

/// An XCTestCase that opens an ``AutomationScope`` per test: programs launched and servers started during the
/// test are stopped at teardown, `@Released` properties are let go, and a failing test's log gets the step
/// trail and the programs' last output lines.
open class AutomationTestCase: XCTestCase {
    /// The scope of the running test.
    public private(set) var scope = AutomationScope()

    /// Opens the test's ``AutomationScope``; call `super.setUp()` when overriding.
    open override func setUp() {
        super.setUp()
        scope = AutomationScope(name: name)
        AutomationScope.setCaseScope(scope)
    }

    /// Stops what the test launched, reports unmet expectations, releases `@Released` properties.
    open override func tearDown() {
        if let run = testRun, run.failureCount + run.unexpectedExceptionCount > 0 {
            let context = scope.failureContext
            if !context.isEmpty { print("Failure context for \(name):\n\(context)") }
        }
        for problem in scope.tearDown() { XCTFail(problem) }
        releaseReleasedProperties(in: self)
        AutomationScope.setCaseScope(nil)
        super.tearDown()
    }
}
