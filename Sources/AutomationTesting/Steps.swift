import ProcessEngine
import Scenarios

/// Given/When/Then helpers: each names a step, records it in the test's step trail, and a failure inside it
/// says which step failed.
///
/// ```swift
/// try await given("a returning user") { try app.launch(automationFlags: ["simulateUserAlreadyLoggedIn": true], arguments: ["login"]) }
/// try await then("no prompt is shown") { try await app.waitForOutput(containing: "already logged in") }
/// ```
public func given<T>(_ description: String, _ body: () async throws -> T) async throws -> T {
    try await step("Given", description, body)
}

/// A When step (see ``given(_:_:)``).
public func when<T>(_ description: String, _ body: () async throws -> T) async throws -> T {
    try await step("When", description, body)
}

/// A Then step (see ``given(_:_:)``).
public func then<T>(_ description: String, _ body: () async throws -> T) async throws -> T {
    try await step("Then", description, body)
}

/// A failure inside a named step.
public struct StepError: Error, CustomStringConvertible {
    /// The step's name, as given to `given`/`when`/`then`.
    public let step: String
    /// The error thrown inside the step.
    public let underlying: any Error
    /// "STEP failed: ERROR".
    public var description: String { "\(step) failed: \(underlying)" }
}

private func step<T>(_ keyword: String, _ description: String, _ body: () async throws -> T) async throws -> T {
    let name = "\(keyword) \(description)"
    AutomationScope.current?.record(step: name)
    do {
        return try await body()
    } catch let error as StepError {
        throw error
    } catch {
        throw StepError(step: name, underlying: error)
    }
}
