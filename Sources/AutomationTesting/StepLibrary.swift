import AutomationSupport
import Foundation
import ProcessEngine
public import Scenarios

/// A value a step pattern captures, converted for a typed closure: `{string}`, `{word}` and `{}` as String,
/// `{int}` as Int, `{float}` as Double (and Bool for `true`/`false` words).
public protocol StepArgument: SendableMetatype {
    /// The value the captured text reads as, or nil (the step then fails naming the text and the type).
    init?(stepArgument: String)
}

extension String: StepArgument {
    /// The captured text as it is.
    public init?(stepArgument: String) { self = stepArgument }
}

extension Int: StepArgument {
    /// A whole number (`{int}`) that an Int holds; nil past that.
    public init?(stepArgument: String) {
        guard let value = BoundedNumber.integer(stepArgument, in: Int.min...Int.max) else { return nil }
        self = value
    }
}

extension Double: StepArgument {
    /// A finite number (`{float}`, a leading `+` allowed); nil for one that overflows (`1E999`), never infinity.
    public init?(stepArgument: String) {
        let unsigned = stepArgument.hasPrefix("+") ? stepArgument.dropFirst() : Substring(stepArgument)
        guard let value = BoundedNumber.decimal(unsigned, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else {
            return nil
        }
        self = value
    }
}

extension Bool: StepArgument {
    /// `true` or `false`.
    public init?(stepArgument: String) { self.init(stepArgument) }
}

/// One scenario of a feature file (an outline's row is one too), for `@Test(arguments:)`.
public struct FeatureScenario: Sendable, CustomStringConvertible {
    /// The compiled scenario: its steps, tags and place in the file.
    public let pickle: Pickle
    /// `Feature: Scenario`, as test reports show it.
    public var description: String { "\(pickle.featureName): \(pickle.name)" }
}

/// Steps written in Swift, the Swerkin way: register them with typed parameters, then run feature files from
/// `swift test`, built-in catalog steps and yours mixed in one file.
///
/// ```swift
/// let steps = StepLibrary()
/// steps.step("a user {string} exists") { context, name in
///     try context.setEnvironment("USER_NAME", name)
/// }
/// steps.step("the output has {int} lines") { context, count in
///     if try context.output().split(separator: "\n").count != count { try context.fail("expected \(count) lines") }
/// }
///
/// @Test(arguments: try StepLibrary.scenarios(in: "Features"))
/// func feature(_ scenario: FeatureScenario) async throws {
///     try await steps.run(scenario, program: ".build/debug/MyAppCLI")
/// }
/// ```
/// Under XCTest, `try await steps.runAll(in: "Features", program: …)` reports each scenario that fails.
public final class StepLibrary: Sendable {
    private let steps = Locked<[CodeStep]>([])
    /// Hooks added with ``before(tags:order:timeout:fileID:line:_:)`` and its kin, and what was wrong with them.
    let hooks = Locked<(hooks: [Hook], problems: [String])>(([], []))

    /// An empty library: only the built-in catalog until steps are added.
    public init() {}

    /// A step without parameters.
    public func step(
        _ pattern: String, fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext) throws -> Void
    ) {
        add(pattern, fileID, line, count: 0) { context, _ in try body(context) }
    }

    /// A step with one typed parameter.
    public func step<A: StepArgument>(
        _ pattern: String, fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext, A) throws -> Void
    ) {
        add(pattern, fileID, line, count: 1) { context, values in try body(context, try Self.convert(values[0], pattern)) }
    }

    /// A step with two typed parameters.
    public func step<A: StepArgument, B: StepArgument>(
        _ pattern: String, fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext, A, B) throws -> Void
    ) {
        add(pattern, fileID, line, count: 2) { context, values in
            try body(context, try Self.convert(values[0], pattern), try Self.convert(values[1], pattern))
        }
    }

    /// A step with three typed parameters.
    public func step<A: StepArgument, B: StepArgument, C: StepArgument>(
        _ pattern: String, fileID: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (StepContext, A, B, C) throws -> Void
    ) {
        add(pattern, fileID, line, count: 3) { context, values in
            try body(
                context, try Self.convert(values[0], pattern), try Self.convert(values[1], pattern), try Self.convert(values[2], pattern))
        }
    }

    /// The scenarios of the feature files at `path` (a file, or a directory searched for `*.feature`).
    /// - Throws: ``AutomationError`` naming the file and line of a feature that does not parse.
    public static func scenarios(in path: String) throws -> [FeatureScenario] {
        var files: [String] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AutomationError("no feature file or directory at \(path)")
        }
        if isDirectory.boolValue {
            // Each directory once (device and inode), bounded: a loop of links neither hangs nor repeats
            // scenarios, and a tree past the limit is an error, never a silently shorter suite.
            do {
                files = try DirectoryWalk.files(under: path.hasSuffix("/") ? String(path.dropLast()) : path) { $0.hasSuffix(".feature") }
            } catch {
                throw AutomationError("\(error)")
            }
        } else {
            files = [path]
        }
        var scenarios: [FeatureScenario] = []
        for file in files.sorted() {
            let text: String
            do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw AutomationError("\(file): cannot read it: \(error)")
            }
            do {
                scenarios += Pickle.compile(try GherkinParser.parse(text, uri: file)).map(FeatureScenario.init)
            } catch {
                throw AutomationError("\(error)")
            }
        }
        return scenarios
    }

    /// Runs one scenario with the built-in catalog and these steps; `program` is the default program
    /// (`Given the program` overrides it). Runs on a thread of its own, not on Swift's cooperative pool.
    /// - Throws: ``AutomationError`` with the failed step, why, the step trail and the program's last lines.
    public func run(_ scenario: FeatureScenario, program: String? = nil, options: ScenarioOptions = ScenarioOptions()) async throws {
        var options = options
        if let program { options.defines["PROGRAM"] = program }
        if options.environment.isEmpty { options.environment = ProcessEnvironment.current }
        let (hooks, hookProblems) = self.hooks.current
        options.hooks += hooks
        let problems = hookProblems + options.addSteps(steps.current)
        guard problems.isEmpty else { throw AutomationError("steps: " + problems.joined(separator: "\n")) }
        let configured = options
        let result: ScenarioResult = await withCheckedContinuation { continuation in
            startThread { continuation.resume(returning: ScenarioRunner.runOne(scenario.pickle, options: configured)) }
        }
        guard result.status == .passed else { throw AutomationError(Self.report(result)) }
    }

    /// Runs every scenario at `path` (XCTest has no per-argument tests): each one that does not pass is
    /// reported at the caller's line, with its trail, to whichever framework runs.
    public func runAll(
        in path: String, program: String? = nil, options: ScenarioOptions = ScenarioOptions(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        var failed = false
        let testRun = options
        let beforeAll = await runTestRunHooks(.beforeAll, options: testRun, status: "running")
        for problem in beforeAll { recordAutomationIssue(problem, fileID: fileID, filePath: filePath, line: line, column: column) }
        for scenario in try Self.scenarios(in: path) where beforeAll.isEmpty {
            do {
                try await run(scenario, program: program, options: options)
            } catch let error as AutomationError {
                failed = true
                recordAutomationIssue("\(scenario): \(error.message)", fileID: fileID, filePath: filePath, line: line, column: column)
            }
        }
        let status = failed || !beforeAll.isEmpty ? "failed" : "passed"
        for problem in await runTestRunHooks(.afterAll, options: testRun, status: status) {
            recordAutomationIssue(problem, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    private func add(
        _ pattern: String, _ fileID: StaticString, _ line: UInt, count: Int,
        _ body: @escaping @Sendable (StepContext, [String]) throws -> Void
    ) {
        // A pattern that does not compile is reported by name when the steps are added (ScenarioOptions.addSteps).
        let parameters = (try? CucumberExpression(pattern))?.parameters.count ?? count
        let source = "\(fileID):\(line)"
        steps.withLock { steps in
            steps.append(
                CodeStep(pattern: pattern, source: source) { context, values in
                    guard values.count == count, parameters == count else {
                        throw AutomationError(
                            "\(source): step \"\(pattern)\" has \(parameters) parameter\(parameters == 1 ? "" : "s") but its closure takes \(count)"
                        )
                    }
                    try body(context, values)
                })
        }
    }

    private static func convert<Value: StepArgument>(_ text: String, _ pattern: String) throws -> Value {
        guard let value = Value(stepArgument: text) else {
            throw AutomationError("step \"\(pattern)\": cannot read \"\(text)\" as \(Value.self)")
        }
        return value
    }

    private static func report(_ result: ScenarioResult) -> String {
        var text = "scenario \"\(result.pickle.name)\" \(result.status.rawValue)"
        if let step = result.failedStep { text += " at \(step)" }
        if let message = result.message { text += "\n" + message }
        text += "\n" + result.trail.map { "  " + $0 }.joined(separator: "\n")
        if !result.outputTail.isEmpty { text += "\n" + result.outputTail }
        return text
    }
}
